/**
 * /setting/rtu: RTUs with their communication state (online when seen within 3 × 10 min), filtered by
 * communication, package, use, kind and a keyword — all in the URL — and the form to add an RTU.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { COMM_STATES, RtuBodySchema } from "../../domain/fleet";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { answerFor, CommBadge, formatTime, useFleetErrorText } from "~/components/FleetAdmin";
import { RtuFields } from "~/components/RtuFields";
import { DataTable, FilterForm, FilterSearch, FilterSelect } from "~/components/DataTable";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm, parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt, useLocale } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { adminOptions, createRtu, rtuList } from "~/models/fleet.server";
import { stashSecret } from "~/utils/rtu-secret.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).rtus.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const ListSearch = z.object({
  comm: searchParam.oneOf(COMM_STATES),
  package: searchParam.digits(),
  status: searchParam.oneOf(["use", "unused"]),
  type: searchParam.digits(2),
  keyword: searchParam.text(100),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "rtu");
  const filter = parseSearch(ListSearch, request);
  const [list, options] = await Promise.all([rtuList(accessToken, filter), adminOptions(accessToken)]);
  return json({ rtuList: list.rtuList, ...options, filter });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "rtu");
  const form = await request.formData();
  await assertCsrf(form, request);
  const parsed = parseForm(RtuBodySchema, "create", form);
  if (!parsed.ok) return parsed.response;
  try {
    const res = await createRtu(accessToken, parsed.data);
    const t = adminMessages(localeOf(request));
    const headers = new Headers({ "Set-Cookie": await stashSecret(res.rtu.uid, res.secret) });
    return redirectWithFlash(`/setting/rtu/${encodeURIComponent(res.rtu.uid)}`, fmt(t.rtus.flash.created, { uid: res.rtu.uid }), {
      headers,
    });
  } catch (error) {
    return apiFailure("create", error, formValues(form));
  }
}

export default function RtuList() {
  const { rtuList, packageList, nodeList, filter } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const locale = useLocale();
  const r = t.rtus;
  const err = useFleetErrorText();
  const create = answerFor(data, "create");
  const v = useClientValidation(create?.errors, (f) => schemaErrors(RtuBodySchema, Object.fromEntries(new FormData(f))));
  const kinds = [...new Set(rtuList.map((x) => x.kind).concat(filter.type ? [Number(filter.type)] : []))].sort((a, b) => a - b);

  return (
    <div className="admin-page">
      <div className="page-head">
        <h1>{r.title}</h1>
        <a className="button" href="#add-rtu">
          {r.add}
        </a>
      </div>
      <FilterForm label={r.filters.legend} resetTo="/setting/rtu" apply={t.fleet.apply} reset={t.fleet.reset}>
        <FilterSelect
          id="rf-comm"
          name="comm"
          label={r.filters.comm}
          value={filter.comm}
          any={t.fleet.any}
          options={COMM_STATES.map((c) => ({ value: c, label: t.fleet.comm[c] }))}
        />
        <FilterSelect
          id="rf-package"
          name="package"
          label={r.filters.package}
          value={filter.package}
          any={t.fleet.any}
          options={packageList.map((p) => ({ value: p.seq, label: p.name }))}
        />
        <FilterSelect
          id="rf-status"
          name="status"
          label={r.filters.status}
          value={filter.status}
          any={t.fleet.any}
          options={[
            { value: "use", label: t.fleet.inUse },
            { value: "unused", label: t.fleet.unused },
          ]}
        />
        <FilterSelect
          id="rf-type"
          name="type"
          label={r.filters.type}
          value={filter.type}
          any={t.fleet.any}
          options={kinds.map((k) => ({ value: k, label: k }))}
        />
        <FilterSearch id="rf-keyword" name="keyword" label={r.filters.keyword} value={filter.keyword} maxLength={100} />
      </FilterForm>

      <DataTable
        caption={`${r.caption} · ${fmt(t.fleet.count, { count: rtuList.length })}`}
        className="rtu-table"
        stackOnPhone
        rowHeaderClassName="nowrap"
        rows={rtuList}
        rowKey={(row) => row.uid}
        empty={r.empty}
        columns={[
          {
            label: r.columns.uid,
            cell: (row) => (
              <AppLink to={`/setting/rtu/${encodeURIComponent(row.uid)}`} className="mono">
                {row.uid}
              </AppLink>
            ),
          },
          { label: r.columns.alias, cell: (row) => row.alias || row.name },
          { label: r.columns.mac, className: "mono nowrap", cell: (row) => row.mac ?? "—" },
          { label: r.columns.kind, num: true, cell: (row) => row.kind },
          {
            label: r.columns.plant,
            cell: (row) => row.plantName ?? <span className="muted">{t.rtus.plant.none}</span>,
          },
          { label: r.columns.package, cell: (row) => row.packageName ?? "—" },
          { label: r.columns.comm, cell: (row) => <CommBadge comm={row.comm} /> },
          { label: r.columns.lastSeen, className: "nowrap", cell: (row) => formatTime(row.last_seen_at, locale) },
          { label: r.columns.devices, num: true, cell: (row) => row.device_count },
          { label: r.columns.use, cell: (row) => (row.use_yn ? t.fleet.inUse : t.fleet.unused) },
        ]}
      />

      <section className="panel" id="add-rtu" aria-labelledby="add-rtu-title">
        <h2 id="add-rtu-title">{r.add}</h2>
        <Form method="post" noValidate onSubmit={v.onSubmit}>
          <AuthenticityTokenInput />
          <FormAlert message={Object.keys(v.errors).length ? (err(v.errors._form) ?? t.fleet.fixErrors) : null} />
          <RtuFields
            form="create"
            withUid
            values={create?.values ?? { nodeSeq: nodeList[0] ? String(nodeList[0].seq) : "" }}
            errors={v.errors}
            packages={packageList}
            nodes={nodeList}
          />
          <button type="submit" disabled={navigation.state === "submitting"}>
            {t.fleet.create}
          </button>
        </Form>
      </section>
    </div>
  );
}
