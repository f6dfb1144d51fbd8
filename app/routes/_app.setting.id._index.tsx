/**
 * /setting/id: the member list, filtered by auth level, use flag, group and a search text. The
 * filters are a GET form, so they live in the URL (bookmarkable, no JS needed); 20 rows a page.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AUTH_LEVELS } from "../../domain/admin-levels";
import { buildTree, flattenTree } from "../../domain/group-tree";
import { MemberListQuery } from "../../domain/member-form";
import { requireSettingScreen } from "~/auth/section.server";
import { Pager } from "~/components/admin-form";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { groupList } from "~/models/groups.server";
import { listMembers } from "~/models/members-admin.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).members.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSettingScreen(request, context, "id");
  const url = new URL(request.url);
  const filter = MemberListQuery.parse(Object.fromEntries(url.searchParams));
  const [list, groups] = await Promise.all([listMembers(accessToken, filter), groupList(accessToken)]);
  const nodes = flattenTree(buildTree(groups.groupList)).map(({ node, depth }) => ({ seq: node.seq, name: node.name, depth }));
  return json({ ...list, filter, nodes, myLevel: user.auth });
}

export default function MemberList() {
  const { memberList, total, page, size, filter, nodes } = useLoaderData<typeof loader>();
  const t = useAdminT();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const m = t.members;
  return (
    <div className="admin-page">
      <div className="page-head">
        <h1>{m.title}</h1>
        <AppLink className="button" to="/setting/id/new">
          {m.add}
        </AppLink>
      </div>

      <Form method="get" className="filters" aria-label={m.filters.legend}>
        <div className="field">
          <label htmlFor="flt-q">{m.filters.q}</label>
          <input id="flt-q" name="q" type="search" defaultValue={filter.q ?? ""} maxLength={50} />
        </div>
        <div className="field">
          <label htmlFor="flt-auth">{m.filters.auth}</label>
          <select id="flt-auth" name="auth" defaultValue={filter.auth ?? ""}>
            <option value="">{t.adminForms.any}</option>
            {AUTH_LEVELS.map((l) => (
              <option key={l} value={l}>
                {fmt(m.fields.authOption, { level: l })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="flt-use">{m.filters.use}</label>
          <select id="flt-use" name="use" defaultValue={filter.use ?? ""}>
            <option value="">{t.adminForms.any}</option>
            <option value="1">{m.filters.inUse}</option>
            <option value="0">{m.filters.notInUse}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="flt-seq">{m.filters.group}</label>
          <select id="flt-seq" name="seq" defaultValue={filter.seq ?? ""}>
            <option value="">{t.adminForms.any}</option>
            {nodes.map((n) => (
              <option key={n.seq} value={n.seq}>
                {"\u00a0\u00a0".repeat(n.depth)}
                {n.name}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit">{m.filters.apply}</button>
          <AppLink to="/setting/id" className="button secondary">
            {m.filters.reset}
          </AppLink>
        </div>
      </Form>

      <div className="table-wrap">
        <table className="data-table stack-on-phone">
          <caption>{m.table.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{m.table.id}</th>
              <th scope="col">{m.table.name}</th>
              <th scope="col">{m.table.auth}</th>
              <th scope="col">{m.table.group}</th>
              <th scope="col">{m.table.use}</th>
              <th scope="col" className="num">
                {m.table.plants}
              </th>
              <th scope="col">{m.table.status}</th>
            </tr>
          </thead>
          <tbody>
            {memberList.length === 0 ? (
              <tr>
                <td colSpan={7} className="empty">
                  {m.table.empty}
                </td>
              </tr>
            ) : (
              memberList.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    <AppLink to={`/setting/id/edit/${encodeURIComponent(row.id)}`}>{row.id}</AppLink>
                  </th>
                  <td data-label={m.table.name}>{row.name}</td>
                  <td data-label={m.table.auth}>{fmt(m.fields.authOption, { level: row.auth })}</td>
                  <td data-label={m.table.group}>{row.nodeName || "—"}</td>
                  <td data-label={m.table.use}>
                    <span className={row.use_yn ? "tag ok" : "tag off"}>{row.use_yn ? m.filters.inUse : m.filters.notInUse}</span>
                  </td>
                  <td className="num" data-label={m.table.plants}>
                    {row.plantCount}
                  </td>
                  <td data-label={m.table.status}>
                    {row.pwd_yn ? <span className="tag warn">{m.table.mustChange}</span> : null}
                    {row.readOnly ? <span className="tag">{m.table.readOnly}</span> : null}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pager page={page} size={size} total={total} search={search} />
    </div>
  );
}
