/** /setting/device/{uid}: edit a device (name, kind, RTU, plant, bus address, rated capacity), delete it. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DeviceBodySchema } from "../../domain/fleet";
import { capacityKw } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { DeviceFields } from "~/components/DeviceFields";
import { answerFor, CommBadge, DeleteSection, formatTime, kindLabel, useFleetErrorText } from "~/components/FleetAdmin";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm, orNotFound } from "~/utils/form-action.server";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt, useLocale } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { deleteDevice, deviceDetail, plantList, rtuList, updateDevice } from "~/models/fleet.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: `${data?.device.name ?? adminMessages(metaLocale(matches)).devices.title} · ${adminMessages(metaLocale(matches)).appName}`,
  },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "device");
  const [{ device }, rtus, plants] = await Promise.all([
    orNotFound(deviceDetail(accessToken, params.uid!)),
    rtuList(accessToken),
    plantList(accessToken),
  ]);
  return json({ device, rtus: rtus.rtuList, plants: plants.plantList });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "device");
  const uid = params.uid!;
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = adminMessages(localeOf(request));
  if (form.get("intent") === "delete") {
    try {
      await deleteDevice(accessToken, uid, String(form.get("confirm") ?? ""));
      return redirectWithFlash("/setting/device", t.devices.flash.deleted);
    } catch (error) {
      return apiFailure("delete", error, formValues(form));
    }
  }
  const parsed = parseForm(DeviceBodySchema, "edit", form);
  if (!parsed.ok) return parsed.response;
  try {
    const res = await updateDevice(accessToken, uid, parsed.data);
    return redirectWithFlash(
      `/setting/device/${encodeURIComponent(uid)}`,
      fmt(t.devices.flash.updated, { name: res.device.name }),
    );
  } catch (error) {
    return apiFailure("edit", error, formValues(form));
  }
}

const str = (v: number | string | null | undefined) => (v === null || v === undefined ? "" : String(v));

export default function DeviceEdit() {
  const { device, rtus, plants } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const locale = useLocale();
  const d = t.devices;
  const err = useFleetErrorText();
  const edit = answerFor(data, "edit");
  const v = useClientValidation(edit?.errors, (f) => schemaErrors(DeviceBodySchema, Object.fromEntries(new FormData(f))));
  const initial = {
    name: device.name,
    kind: String(device.kind),
    rtuUid: str(device.rtu_uid),
    plantUid: str(device.plant_uid),
    address: str(device.address),
    capaKw: device.capa == null ? "" : capacityKw(device.capa).toFixed(2),
    use: String(device.use_yn),
  };
  return (
    <div className="admin-page">
      <p>
        <AppLink to="/setting/device">← {t.fleet.back}</AppLink>
      </p>
      <h1>{fmt(d.editTitle, { name: device.name })}</h1>
      <p className="mono muted">
        {device.uid} · {kindLabel(t, device.kind)} · <CommBadge comm={device.comm} /> {formatTime(device.lastSeenAt, locale)}
      </p>
      <section className="panel" aria-label={t.fleet.edit}>
        {device.editable ? (
          <Form method="post" noValidate onSubmit={v.onSubmit} key={device.updated_at}>
            <AuthenticityTokenInput />
            <FormAlert message={Object.keys(v.errors).length ? (err(v.errors._form) ?? t.fleet.fixErrors) : null} />
            <DeviceFields form="edit" values={edit?.values ?? initial} errors={v.errors} rtus={rtus} plants={plants} />
            <button type="submit" name="intent" value="save" disabled={navigation.state === "submitting"}>
              {t.fleet.save}
            </button>
          </Form>
        ) : (
          <p className="alert info">{t.fleet.errors.not_in_your_group}</p>
        )}
      </section>
      {device.editable ? <DeleteSection id="delete-device" intro={d.deleteIntro} answer={answerFor(data, "delete")} /> : null}
    </div>
  );
}
