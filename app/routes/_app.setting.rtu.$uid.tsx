/**
 * /setting/rtu/{uid}: an RTU's state, its settings and config bits, its gateway credential (a new secret
 * is shown once, right after creation or rotation), its plant assignment, its devices, and deletion.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { RtuBodySchema } from "../../domain/fleet";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, SelectInput, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { answerFor, CommBadge, DeleteSection, formatTime, kindLabel, useFleetErrorText } from "~/components/FleetAdmin";
import { RtuFields } from "~/components/RtuFields";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formFailure, formValues, parseForm, orNotFound } from "~/utils/form-action.server";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt, useLocale } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import {
  adminOptions,
  assignRtusToPlant,
  deleteRtu,
  plantList,
  rotateRtuSecret,
  rtuDetail,
  unassignRtus,
  updateRtu,
} from "~/models/fleet.server";
import { stashSecret, takeSecret } from "~/utils/rtu-secret.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: `RTU ${data?.rtu.uid ?? ""} · ${adminMessages(metaLocale(matches)).appName}` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "rtu");
  const uid = params.uid!;
  const detail = await orNotFound(rtuDetail(accessToken, uid));
  const [options, plants, once] = await Promise.all([
    adminOptions(accessToken),
    plantList(accessToken),
    takeSecret(request, uid),
  ]);
  return json(
    { ...detail, ...options, plants: plants.plantList.filter((p) => p.editable), secret: once.secret },
    { headers: { "Cache-Control": "no-store", ...(once.clear ? { "Set-Cookie": once.clear } : {}) } },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "rtu");
  const uid = params.uid!;
  const form = await request.formData();
  await assertCsrf(form, request);
  const intent = String(form.get("intent") ?? "save");
  const values = formValues(form);
  const t = adminMessages(localeOf(request));
  const here = `/setting/rtu/${encodeURIComponent(uid)}`;
  try {
    switch (intent) {
      case "delete": {
        const res = await deleteRtu(accessToken, uid, String(form.get("confirm") ?? ""));
        return redirectWithFlash("/setting/rtu", fmt(t.rtus.flash.deleted, { devices: res.devices }));
      }
      case "rotate": {
        const res = await rotateRtuSecret(accessToken, uid);
        const headers = new Headers({ "Set-Cookie": await stashSecret(uid, res.secret) });
        return redirectWithFlash(here, t.rtus.flash.rotated, { headers });
      }
      case "assign": {
        const plantUid = String(form.get("plantUid") ?? "");
        if (!plantUid) return formFailure("assign", { plantUid: "required" }, values);
        await assignRtusToPlant(accessToken, plantUid, [uid]);
        return redirectWithFlash(here, t.rtus.flash.assigned);
      }
      case "unassign":
        await unassignRtus(accessToken, [uid]);
        return redirectWithFlash(here, t.rtus.flash.unassigned);
    }
  } catch (error) {
    return apiFailure(intent, error, values);
  }
  const parsed = parseForm(RtuBodySchema, "edit", form);
  if (!parsed.ok) return parsed.response;
  try {
    await updateRtu(accessToken, uid, parsed.data);
    return redirectWithFlash(here, t.rtus.flash.updated);
  } catch (error) {
    return apiFailure("edit", error, values);
  }
}

const str = (v: number | string | null | undefined) => (v === null || v === undefined ? "" : String(v));

export default function RtuDetail() {
  const { rtu, deviceList, packageList, nodeList, plants, secret } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const locale = useLocale();
  const r = t.rtus;
  const err = useFleetErrorText();
  const edit = answerFor(data, "edit");
  const assign = answerFor(data, "assign") ?? answerFor(data, "unassign") ?? answerFor(data, "rotate");
  const v = useClientValidation(edit?.errors, (f) => schemaErrors(RtuBodySchema, Object.fromEntries(new FormData(f))));
  const busy = navigation.state === "submitting";
  const flag = (b: boolean) => (b ? "1" : "");
  const initial = {
    name: rtu.name,
    alias: str(rtu.alias),
    mac: str(rtu.mac),
    kind: String(rtu.kind),
    packageSeq: str(rtu.package_seq),
    nodeSeq: str(rtu.node_seq),
    use: String(rtu.use_yn),
    lteRouter: flag(rtu.configFlags.lteRouter),
    zigbee: flag(rtu.configFlags.zigbee),
    invDetail: flag(rtu.configFlags.invDetail),
    lora: flag(rtu.configFlags.lora),
  };
  const basic = secret ? `Basic ${typeof btoa === "function" ? btoa(`${rtu.uid}:${secret}`) : ""}` : "";

  return (
    <div className="admin-page">
      <p>
        <AppLink to="/setting/rtu">← {t.fleet.back}</AppLink>
      </p>
      <h1>{fmt(r.detailTitle, { uid: rtu.uid })}</h1>
      <dl className="facts">
        <dt>{r.columns.name}</dt>
        <dd>{rtu.alias ? `${rtu.alias} (${rtu.name})` : rtu.name}</dd>
        <dt>{r.columns.comm}</dt>
        <dd>
          <CommBadge comm={rtu.comm} /> {formatTime(rtu.last_seen_at, locale)}
        </dd>
        <dt>{r.columns.plant}</dt>
        <dd>
          {rtu.plantName ? (
            <AppLink to={`/setting/plant/${encodeURIComponent(rtu.plant_uid!)}`}>{rtu.plantName}</AppLink>
          ) : (
            r.plant.none
          )}
        </dd>
        <dt>{r.fields.node}</dt>
        <dd>{rtu.nodeName ?? "—"}</dd>
      </dl>

      {secret ? (
        <section className="panel secret-once" aria-labelledby="secret-title" role="status">
          <h2 id="secret-title">{r.credential.title}</h2>
          <p className="alert warn">{r.credential.shownOnce}</p>
          <dl className="facts">
            <dt>{r.credential.secret}</dt>
            <dd>
              <code className="secret" data-testid="rtu-secret">
                {secret}
              </code>
            </dd>
            <dt>{r.credential.header}</dt>
            <dd>
              <code className="secret">Authorization: {basic}</code>
            </dd>
          </dl>
        </section>
      ) : null}

      <section className="panel" aria-labelledby="rtu-edit-title">
        <h2 id="rtu-edit-title">{t.fleet.edit}</h2>
        {rtu.editable ? (
          <Form method="post" noValidate onSubmit={v.onSubmit} key={rtu.updated_at}>
            <AuthenticityTokenInput />
            <FormAlert message={Object.keys(v.errors).length ? (err(v.errors._form) ?? t.fleet.fixErrors) : null} />
            <RtuFields
              form="edit"
              values={edit?.values ?? initial}
              errors={v.errors}
              packages={packageList}
              nodes={nodeList}
              nodeLocked={!!rtu.plant_uid}
            />
            <button type="submit" name="intent" value="save" disabled={busy}>
              {t.fleet.save}
            </button>
          </Form>
        ) : (
          <p className="alert info">{t.fleet.errors.not_in_your_group}</p>
        )}
      </section>

      {rtu.editable ? (
        <section className="panel" aria-labelledby="cred-title">
          <h2 id="cred-title">{r.credential.title}</h2>
          <p>{r.credential.intro}</p>
          <p>{rtu.hasCredential ? r.credential.has : r.credential.none}</p>
          <Form method="post">
            <AuthenticityTokenInput />
            <p className="hint">{r.credential.rotateHint}</p>
            <button type="submit" name="intent" value="rotate" className="secondary" disabled={busy}>
              {r.credential.rotate}
            </button>
          </Form>
        </section>
      ) : null}

      {rtu.editable ? (
        <section className="panel" aria-labelledby="por-title">
          <h2 id="por-title">{r.plant.title}</h2>
          <FormAlert message={err(assign?.errors._form)} />
          <p className="hint">{r.plant.hint}</p>
          <Form method="post" className="inline-form">
            <AuthenticityTokenInput />
            <SelectInput
              form="assign"
              name="plantUid"
              label={r.plant.choose}
              defaultValue={rtu.plant_uid ?? ""}
              error={err(assign?.errors.plantUid)}
              options={[{ value: "", label: "—" }, ...plants.map((p) => ({ value: p.uid, label: `${p.name} (${p.uid})` }))]}
            />
            <button type="submit" name="intent" value="assign" disabled={busy}>
              {r.plant.assign}
            </button>
          </Form>
          {rtu.plant_uid ? (
            <Form method="post">
              <AuthenticityTokenInput />
              <button type="submit" name="intent" value="unassign" className="secondary" disabled={busy}>
                {r.plant.unassign}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      <section className="panel" aria-labelledby="rtu-devices-title">
        <h2 id="rtu-devices-title">{r.devices.title}</h2>
        {deviceList.length === 0 ? (
          <p>{r.devices.none}</p>
        ) : (
          <ul className="plain-list">
            {deviceList.map((d) => (
              <li key={d.uid}>
                <AppLink to={`/setting/device/${encodeURIComponent(d.uid)}`}>{d.name}</AppLink>{" "}
                <span className="muted">{kindLabel(t, d.kind)}</span>{" "}
                <span className="mono muted">
                  {d.uid}
                  {d.address != null ? ` · #${d.address}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
        <p>
          <AppLink to={`/setting/device?rtu=${encodeURIComponent(rtu.uid)}#add-device`}>{r.devices.add}</AppLink>
        </p>
      </section>

      {rtu.editable ? <DeleteSection id="delete-rtu" intro={r.deleteIntro} answer={answerFor(data, "delete")} /> : null}
    </div>
  );
}
