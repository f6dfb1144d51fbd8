/**
 * /setting/device: devices by kind (1, 2, 4, 7, 8) and communication status — filters in the URL —
 * and the form to add a device to an RTU and a plant.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DEVICE_KINDS, isDeviceKind } from "../../domain/device";
import { COMM_STATES, DeviceBodySchema } from "../../domain/fleet";
import { capacityKw } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, schemaErrors, useClientValidation } from "~/components/admin-form";
import { DeviceFields } from "~/components/device-fields";
import { answerFor, CommBadge, kindLabel, useFleetErrorText } from "~/components/fleet-admin";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm } from "~/utils/form-action.server";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { adminDevices, createDevice, plantList, rtuList } from "~/models/fleet.server";
import { metaLocale } from "~/utils/meta-locale";
import { scrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).devices.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const STATUSES = [...COMM_STATES, "unused"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "device");
  const url = new URL(request.url);
  const kind = Number(url.searchParams.get("kind"));
  const status = url.searchParams.get("status") ?? "";
  const filter = {
    kind: isDeviceKind(kind) ? String(kind) : "",
    status: (STATUSES as readonly string[]).includes(status) ? status : "",
    keyword: (url.searchParams.get("keyword") ?? "").slice(0, 100),
    rtu: url.searchParams.get("rtu") ?? "",
  };
  const [devices, rtus, plants] = await Promise.all([
    adminDevices(accessToken, { kind: filter.kind, status: filter.status, keyword: filter.keyword }),
    rtuList(accessToken),
    plantList(accessToken),
  ]);
  return json({ deviceList: devices.deviceList, rtus: rtus.rtuList, plants: plants.plantList, filter });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "device");
  const form = await request.formData();
  await assertCsrf(form, request);
  const parsed = parseForm(DeviceBodySchema, "create", form);
  if (!parsed.ok) return parsed.response;
  try {
    const res = await createDevice(accessToken, parsed.data);
    const t = adminMessages(localeOf(request));
    return redirectWithFlash(
      `/setting/device/${encodeURIComponent(res.device.uid)}`,
      fmt(t.devices.flash.created, { name: res.device.name }),
    );
  } catch (error) {
    return apiFailure("create", error, formValues(form));
  }
}

export default function DeviceList() {
  const { deviceList, rtus, plants, filter } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const d = t.devices;
  const err = useFleetErrorText();
  const create = answerFor(data, "create");
  const v = useClientValidation(create?.errors, (f) => schemaErrors(DeviceBodySchema, Object.fromEntries(new FormData(f))));
  const kindHref = (k: string) => {
    const q = new URLSearchParams();
    if (k) q.set("kind", k);
    if (filter.status) q.set("status", filter.status);
    if (filter.keyword) q.set("keyword", filter.keyword);
    const s = q.toString();
    return s ? `/setting/device?${s}` : "/setting/device";
  };
  const statusLabel = (s: string) => (s === "unused" ? t.fleet.unused : t.fleet.comm[s as "online"]);

  return (
    <div className="admin-page">
      <div className="page-head">
        <h1>{d.title}</h1>
        <a className="button" href="#add-device">
          {d.add}
        </a>
      </div>
      <nav className="subnav" aria-label={d.kindNav}>
        <AppLink to={kindHref("")} aria-current={filter.kind === "" ? "page" : undefined}>
          {t.fleet.any}
        </AppLink>
        {DEVICE_KINDS.map((k) => (
          <AppLink key={k} to={kindHref(String(k))} aria-current={filter.kind === String(k) ? "page" : undefined}>
            {kindLabel(t, k)}
          </AppLink>
        ))}
      </nav>
      <Form method="get" className="filters" aria-label={d.filters.legend}>
        {filter.kind ? <input type="hidden" name="kind" value={filter.kind} /> : null}
        <div className="field">
          <label htmlFor="df-status">{d.filters.status}</label>
          <select id="df-status" name="status" defaultValue={filter.status}>
            <option value="">{t.fleet.any}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="df-keyword">{d.filters.keyword}</label>
          <input id="df-keyword" name="keyword" type="search" defaultValue={filter.keyword} maxLength={100} />
        </div>
        <div className="filter-actions">
          <button type="submit">{t.fleet.apply}</button>
          <AppLink to="/setting/device" className="button secondary">
            {t.fleet.reset}
          </AppLink>
        </div>
      </Form>

      <div {...scrollRegion(d.caption)}>
        <table className="data-table">
          <caption>
            {d.caption} · {fmt(t.fleet.count, { count: deviceList.length })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{d.columns.name}</th>
              <th scope="col">{d.columns.uid}</th>
              <th scope="col">{d.columns.kind}</th>
              <th scope="col">{d.columns.rtu}</th>
              <th scope="col">{d.columns.plant}</th>
              <th scope="col" className="num">
                {d.columns.address}
              </th>
              <th scope="col" className="num">
                {d.columns.capa}
              </th>
              <th scope="col">{d.columns.comm}</th>
              <th scope="col">{d.columns.use}</th>
            </tr>
          </thead>
          <tbody>
            {deviceList.length === 0 ? (
              <tr>
                <td colSpan={9} className="empty">
                  {d.empty}
                </td>
              </tr>
            ) : (
              deviceList.map((row) => (
                <tr key={row.uid}>
                  <th scope="row">
                    <AppLink to={`/setting/device/${encodeURIComponent(row.uid)}`}>{row.name}</AppLink>
                  </th>
                  <td className="mono">{row.uid}</td>
                  <td>{kindLabel(t, row.kind)}</td>
                  <td>{row.rtu_uid ? `${row.rtuAlias || row.rtuName || ""} (${row.rtu_uid})` : "—"}</td>
                  <td>{row.plantName ?? "—"}</td>
                  <td className="num">{row.address ?? "—"}</td>
                  <td className="num">{row.capa == null ? "—" : capacityKw(row.capa).toFixed(2)}</td>
                  <td>
                    <CommBadge comm={row.comm} />
                  </td>
                  <td>{row.use_yn ? t.fleet.inUse : t.fleet.unused}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <section className="panel" id="add-device" aria-labelledby="add-device-title">
        <h2 id="add-device-title">{d.add}</h2>
        <Form method="post" noValidate onSubmit={v.onSubmit}>
          <AuthenticityTokenInput />
          <FormAlert message={Object.keys(v.errors).length ? (err(v.errors._form) ?? t.fleet.fixErrors) : null} />
          <DeviceFields
            form="create"
            withUid
            values={create?.values ?? { kind: filter.kind, rtuUid: filter.rtu }}
            errors={v.errors}
            rtus={rtus}
            plants={plants}
          />
          <button type="submit" disabled={navigation.state === "submitting"}>
            {t.fleet.create}
          </button>
        </Form>
      </section>
    </div>
  );
}
