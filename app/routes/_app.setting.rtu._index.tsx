/**
 * /setting/rtu: RTUs with their communication state (online when seen within 3 × 10 min), filtered by
 * communication, package, use, kind and a keyword — all in the URL — and the form to add an RTU.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { COMM_STATES, RtuBodySchema } from "../../domain/fleet";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, schemaErrors, useClientValidation } from "~/components/admin-form";
import { answerFor, CommBadge, formatTime, useFleetErrorText } from "~/components/fleet-admin";
import { RtuFields } from "~/components/rtu-fields";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm } from "~/utils/form-action.server";
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

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "rtu");
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k) ?? "";
  const filter = {
    comm: (COMM_STATES as readonly string[]).includes(get("comm")) ? get("comm") : "",
    package: /^\d+$/.test(get("package")) ? get("package") : "",
    status: ["use", "unused"].includes(get("status")) ? get("status") : "",
    type: /^\d{1,2}$/.test(get("type")) ? get("type") : "",
    keyword: get("keyword").slice(0, 100),
  };
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
      <Form method="get" className="filters" aria-label={r.filters.legend}>
        <div className="field">
          <label htmlFor="rf-comm">{r.filters.comm}</label>
          <select id="rf-comm" name="comm" defaultValue={filter.comm}>
            <option value="">{t.fleet.any}</option>
            {COMM_STATES.map((c) => (
              <option key={c} value={c}>
                {t.fleet.comm[c]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rf-package">{r.filters.package}</label>
          <select id="rf-package" name="package" defaultValue={filter.package}>
            <option value="">{t.fleet.any}</option>
            {packageList.map((p) => (
              <option key={p.seq} value={p.seq}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rf-status">{r.filters.status}</label>
          <select id="rf-status" name="status" defaultValue={filter.status}>
            <option value="">{t.fleet.any}</option>
            <option value="use">{t.fleet.inUse}</option>
            <option value="unused">{t.fleet.unused}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="rf-type">{r.filters.type}</label>
          <select id="rf-type" name="type" defaultValue={filter.type}>
            <option value="">{t.fleet.any}</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rf-keyword">{r.filters.keyword}</label>
          <input id="rf-keyword" name="keyword" type="search" defaultValue={filter.keyword} maxLength={100} />
        </div>
        <div className="filter-actions">
          <button type="submit">{t.fleet.apply}</button>
          <AppLink to="/setting/rtu" className="button secondary">
            {t.fleet.reset}
          </AppLink>
        </div>
      </Form>

      <div className="table-wrap">
        <table className="data-table rtu-table stack-on-phone">
          <caption>
            {r.caption} · {fmt(t.fleet.count, { count: rtuList.length })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{r.columns.uid}</th>
              <th scope="col">{r.columns.alias}</th>
              <th scope="col">{r.columns.mac}</th>
              <th scope="col" className="num">
                {r.columns.kind}
              </th>
              <th scope="col">{r.columns.plant}</th>
              <th scope="col">{r.columns.package}</th>
              <th scope="col">{r.columns.comm}</th>
              <th scope="col">{r.columns.lastSeen}</th>
              <th scope="col" className="num">
                {r.columns.devices}
              </th>
              <th scope="col">{r.columns.use}</th>
            </tr>
          </thead>
          <tbody>
            {rtuList.length === 0 ? (
              <tr>
                <td colSpan={10} className="empty">
                  {r.empty}
                </td>
              </tr>
            ) : (
              rtuList.map((row) => (
                <tr key={row.uid}>
                  <th scope="row" className="nowrap">
                    <AppLink to={`/setting/rtu/${encodeURIComponent(row.uid)}`} className="mono">
                      {row.uid}
                    </AppLink>
                  </th>
                  <td data-label={r.columns.alias}>{row.alias || row.name}</td>
                  <td className="mono nowrap" data-label={r.columns.mac}>
                    {row.mac ?? "—"}
                  </td>
                  <td className="num" data-label={r.columns.kind}>
                    {row.kind}
                  </td>
                  <td data-label={r.columns.plant}>{row.plantName ?? <span className="muted">{t.rtus.plant.none}</span>}</td>
                  <td data-label={r.columns.package}>{row.packageName ?? "—"}</td>
                  <td data-label={r.columns.comm}>
                    <CommBadge comm={row.comm} />
                  </td>
                  <td className="nowrap" data-label={r.columns.lastSeen}>
                    {formatTime(row.last_seen_at, locale)}
                  </td>
                  <td className="num" data-label={r.columns.devices}>
                    {row.device_count}
                  </td>
                  <td data-label={r.columns.use}>{row.use_yn ? t.fleet.inUse : t.fleet.unused}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

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
