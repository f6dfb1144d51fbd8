/**
 * /setting/id: the member list, filtered by auth level, use flag, group and a search text. The
 * filters are a GET form, so they live in the URL (bookmarkable, no JS needed); 20 rows a page.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AUTH_LEVELS } from "../../domain/admin-levels";
import { buildTree, flattenTree } from "../../domain/group-tree";
import { MemberListQuery } from "../../domain/member-form";
import { requireSettingScreen } from "~/auth/section.server";
import { Pager } from "~/components/AdminForm";
import { DataTable, FilterForm, FilterSearch, FilterSelect } from "~/components/DataTable";
import { parseSearch } from "~/utils/form-action.server";
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
  const filter = parseSearch(MemberListQuery, request);
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

      <FilterForm label={m.filters.legend} resetTo="/setting/id" apply={m.filters.apply} reset={m.filters.reset}>
        <FilterSearch id="flt-q" name="q" label={m.filters.q} value={filter.q} maxLength={50} />
        <FilterSelect
          id="flt-auth"
          name="auth"
          label={m.filters.auth}
          value={filter.auth}
          any={t.adminForms.any}
          options={AUTH_LEVELS.map((l) => ({ value: l, label: fmt(m.fields.authOption, { level: l }) }))}
        />
        <FilterSelect
          id="flt-use"
          name="use"
          label={m.filters.use}
          value={filter.use}
          any={t.adminForms.any}
          options={[
            { value: 1, label: m.filters.inUse },
            { value: 0, label: m.filters.notInUse },
          ]}
        />
        <FilterSelect
          id="flt-seq"
          name="seq"
          label={m.filters.group}
          value={filter.seq}
          any={t.adminForms.any}
          options={nodes.map((n) => ({ value: n.seq, label: `${"\u00a0\u00a0".repeat(n.depth)}${n.name}` }))}
        />
      </FilterForm>

      <DataTable
        caption={m.table.caption}
        stackOnPhone
        rows={memberList}
        rowKey={(row) => row.id}
        empty={m.table.empty}
        columns={[
          {
            label: m.table.id,
            cell: (row) => <AppLink to={`/setting/id/edit/${encodeURIComponent(row.id)}`}>{row.id}</AppLink>,
          },
          { label: m.table.name, cell: (row) => row.name },
          { label: m.table.auth, cell: (row) => fmt(m.fields.authOption, { level: row.auth }) },
          { label: m.table.group, cell: (row) => row.nodeName || "—" },
          {
            label: m.table.use,
            cell: (row) => (
              <span className={row.use_yn ? "tag ok" : "tag off"}>{row.use_yn ? m.filters.inUse : m.filters.notInUse}</span>
            ),
          },
          { label: m.table.plants, num: true, cell: (row) => row.plantCount },
          {
            label: m.table.status,
            cell: (row) => (
              <>
                {row.pwd_yn ? <span className="tag warn">{m.table.mustChange}</span> : null}
                {row.readOnly ? <span className="tag">{m.table.readOnly}</span> : null}
              </>
            ),
          },
        ]}
      />
      <Pager page={page} size={size} total={total} search={search} />
    </div>
  );
}
