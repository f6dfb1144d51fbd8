/**
 * The work order list: filters as a GET form (URL state, works without JavaScript), the CSV link of the same
 * filters, the table and the pager.
 */
import { DataTable, FilterForm, FilterSearch, FilterSelect } from "~/components/DataTable";
import { AppLink } from "~/components/AppLink";
import { SeoulTime } from "~/components/status/format";
import { fmt } from "~/i18n";
import type { WorkorderCatalogue } from "~/i18n/workorder";
import type { WorkOrderListQuery, WorkOrderRow } from "../../../domain/contract/work-order";
import { WORK_ORDER_PAGE_SIZES } from "../../../domain/contract/work-order";
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATES, isClosed } from "../../../domain/work-order";
import { PriorityLabel, StateBadge } from "./labels";

export function WorkOrderFilters({ t, q }: { t: WorkorderCatalogue; q: WorkOrderListQuery }) {
  const f = t.workorder.filters;
  return (
    <FilterForm label={f.legend} resetTo="/workorder" apply={f.apply} reset={f.reset}>
      <FilterSelect
        id="wo-state"
        name="state"
        label={f.state}
        value={q.state}
        any={f.any}
        options={WORK_ORDER_STATES.map((s) => ({ value: s, label: t.workorder.states[s] }))}
      />
      <FilterSelect
        id="wo-priority"
        name="priority"
        label={f.priority}
        value={q.priority}
        any={f.any}
        options={WORK_ORDER_PRIORITIES.map((p) => ({ value: p, label: t.workorder.priorities[p] }))}
      />
      <FilterSearch id="wo-plant" name="plant" label={f.plant} value={q.plant} maxLength={64} />
      <FilterSearch id="wo-assignee" name="assignee" label={f.assignee} value={q.assignee} maxLength={64} />
      <div className="field">
        <label htmlFor="wo-due">{f.dueBefore}</label>
        <input id="wo-due" name="dueBefore" type="date" defaultValue={q.dueBefore ?? ""} />
      </div>
      <FilterSearch id="wo-q" name="q" label={f.q} value={q.q} maxLength={100} />
      <FilterSelect
        id="wo-size"
        name="size"
        label={f.size}
        value={q.size}
        options={WORK_ORDER_PAGE_SIZES.map((s) => ({ value: s, label: String(s) }))}
      />
    </FilterForm>
  );
}

export function WorkOrderTable({
  t,
  rows,
  total,
  today,
}: {
  t: WorkorderCatalogue;
  rows: WorkOrderRow[];
  total: number;
  today: string;
}) {
  const c = t.workorder.table;
  return (
    <DataTable
      caption={fmt(c.caption, { total })}
      rows={rows}
      rowKey={(w) => w.id}
      empty={t.workorder.empty}
      stackOnPhone
      columns={[
        { label: c.id, cell: (w) => <AppLink to={`/workorder/${w.id}`}>#{w.id}</AppLink>, num: true },
        { label: c.title, cell: (w) => <AppLink to={`/workorder/${w.id}`}>{w.title}</AppLink> },
        { label: c.plant, cell: (w) => w.plantName },
        { label: c.priority, cell: (w) => <PriorityLabel t={t} priority={w.priority} /> },
        { label: c.state, cell: (w) => <StateBadge t={t} state={w.state} /> },
        { label: c.assignee, cell: (w) => (w.assignee ? (w.assigneeName ?? w.assignee) : "—") },
        {
          label: c.due,
          cell: (w) =>
            w.dueDate ? (
              <>
                {w.dueDate}
                {!isClosed(w.state) && w.dueDate < today ? (
                  <strong className="wo-overdue"> ({t.workorder.overdue})</strong>
                ) : null}
              </>
            ) : (
              "—"
            ),
          className: "nowrap",
        },
        { label: c.updated, cell: (w) => <SeoulTime ts={w.updated_at} />, className: "nowrap" },
      ]}
    />
  );
}

/** Previous / next links that keep the other search parameters (works without JS). */
export function WorkOrderPager({
  t,
  page,
  size,
  total,
  search,
}: {
  t: WorkorderCatalogue;
  page: number;
  size: number;
  total: number;
  search: string;
}) {
  const p = t.workorder.pager;
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return null;
  const href = (n: number) => {
    const next = new URLSearchParams(search);
    if (n <= 1) next.delete("page");
    else next.set("page", String(n));
    return `?${next.toString()}`;
  };
  return (
    <nav className="pager" aria-label={p.label}>
      {page > 1 ? (
        <AppLink to={href(page - 1)} rel="prev">
          ← {p.prev}
        </AppLink>
      ) : null}
      <span>{fmt(p.status, { page, pages })}</span>
      {page < pages ? (
        <AppLink to={href(page + 1)} rel="next">
          {p.next} →
        </AppLink>
      ) : null}
    </nav>
  );
}
