/**
 * /setting/device: devices by kind (1, 2, 4, 7, 8) and communication status — filters in the URL —
 * and the form to add a device to an RTU and a plant.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { DEVICE_KINDS } from "../../domain/device";
import { COMM_STATES, DeviceBodySchema } from "../../domain/fleet";
import { capacityKw, formatNumber } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { DeviceFields } from "~/components/DeviceFields";
import { DataTable, FilterForm, FilterLinks, FilterSearch, FilterSelect } from "~/components/DataTable";
import { answerFor, CommBadge, kindLabel, useFleetErrorText } from "~/components/FleetAdmin";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm, parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { adminDevices, createDevice, plantList, rtuList } from "~/models/fleet.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).devices.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const STATUSES = [...COMM_STATES, "unused"] as const;

const ListSearch = z.object({
  kind: searchParam.oneOf(DEVICE_KINDS.map(String)),
  status: searchParam.oneOf(STATUSES),
  keyword: searchParam.text(100),
  rtu: searchParam.text(64),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "device");
  const filter = parseSearch(ListSearch, request);
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
      <FilterLinks
        label={d.kindNav}
        links={[
          { to: kindHref(""), label: t.fleet.any, current: filter.kind === "" },
          ...DEVICE_KINDS.map((k) => ({ to: kindHref(String(k)), label: kindLabel(t, k), current: filter.kind === String(k) })),
        ]}
      />
      <FilterForm label={d.filters.legend} resetTo="/setting/device" apply={t.fleet.apply} reset={t.fleet.reset}>
        {filter.kind ? <input type="hidden" name="kind" value={filter.kind} /> : null}
        <FilterSelect
          id="df-status"
          name="status"
          label={d.filters.status}
          value={filter.status}
          any={t.fleet.any}
          options={STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
        />
        <FilterSearch id="df-keyword" name="keyword" label={d.filters.keyword} value={filter.keyword} maxLength={100} />
      </FilterForm>

      <DataTable
        caption={`${d.caption} · ${fmt(t.fleet.count, { count: deviceList.length })}`}
        rows={deviceList}
        rowKey={(row) => row.uid}
        empty={d.empty}
        columns={[
          {
            label: d.columns.name,
            cell: (row) => <AppLink to={`/setting/device/${encodeURIComponent(row.uid)}`}>{row.name}</AppLink>,
          },
          { label: d.columns.uid, className: "mono", cell: (row) => row.uid },
          { label: d.columns.kind, cell: (row) => kindLabel(t, row.kind) },
          {
            label: d.columns.rtu,
            cell: (row) => (row.rtu_uid ? `${row.rtuAlias || row.rtuName || ""} (${row.rtu_uid})` : "—"),
          },
          { label: d.columns.plant, cell: (row) => row.plantName ?? "—" },
          { label: d.columns.address, num: true, cell: (row) => row.address ?? "—" },
          { label: d.columns.capa, num: true, cell: (row) => (row.capa == null ? "—" : formatNumber(capacityKw(row.capa), 2)) },
          { label: d.columns.comm, cell: (row) => <CommBadge comm={row.comm} /> },
          { label: d.columns.use, cell: (row) => (row.use_yn ? t.fleet.inUse : t.fleet.unused) },
        ]}
      />

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
