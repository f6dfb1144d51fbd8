/**
 * The shared pieces of a list screen: a sortable column header (a link per column that keeps the view in the URL,
 * with aria-sort), a data table (caption, column headers, a row header per row, an empty row; on a phone
 * `stackOnPhone` lays each row out as label: value pairs from `data-label`), and a filter form (a GET form whose
 * values live in the URL — bookmarkable, no JS needed — with apply and reset). Pager is in AdminForm.tsx.
 */
import { Fragment, type ReactNode } from "react";
import { Form } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { scrollRegion } from "~/components/scroll-region";
import { fmt, useT } from "~/i18n";

export type SortOrder = "asc" | "desc";

/**
 * A column header that sorts by its column: a link to `href` (the same view sorted by this column, in the order a
 * click should give), the current order announced by aria-sort and in words for screen readers.
 */
export function SortHeader({
  label,
  href,
  active,
  order,
  className,
}: {
  label: ReactNode;
  href: string;
  active: boolean;
  order: SortOrder;
  className?: string;
}) {
  const t = useT();
  return (
    <th scope="col" className={className} aria-sort={active ? (order === "asc" ? "ascending" : "descending") : "none"}>
      <AppLink to={href} preventScrollReset className="sort-link">
        {label}
        <span aria-hidden="true">{active ? (order === "asc" ? " ▲" : " ▼") : " ↕"}</span>
        {active ? (
          <span className="visually-hidden">
            {" "}
            ({fmt(t.monitoring.sortedBy, { order: order === "asc" ? t.monitoring.asc : t.monitoring.desc })})
          </span>
        ) : null}
      </AppLink>
    </th>
  );
}

/** The order a click on a column's header asks for: the other order on the sorted column, else ascending. */
export function nextOrder(active: boolean, order: SortOrder): SortOrder {
  return active && order === "asc" ? "desc" : "asc";
}

export interface Column<Row> {
  /** Column header text (also the label of the cell on a phone when the table stacks). */
  label: string;
  /** The cell's content for a row. */
  cell: (row: Row) => ReactNode;
  /** A number column (right-aligned header and cells). */
  num?: boolean;
  /** Extra class names for the column's cells (e.g. "mono", "nowrap"). */
  className?: string;
  /** A header other than plain text (e.g. a SortHeader); it must be a `<th scope="col">`. */
  header?: ReactNode;
}

/**
 * A list as a table: the first column is each row's header (`<th scope="row">`), the caption names the table
 * (and usually the row count), and a list without rows says `empty` in one full-width cell.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  className,
  stackOnPhone = false,
  rowHeaderClassName,
  regionLabel,
}: {
  caption: ReactNode;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  empty: ReactNode;
  className?: string;
  stackOnPhone?: boolean;
  rowHeaderClassName?: string;
  /** The name of its scroll region (phone width) when the caption is not plain text. */
  regionLabel?: string;
}) {
  const classes = ["data-table", className, stackOnPhone ? "stack-on-phone" : null].filter(Boolean).join(" ");
  const cellClass = (c: Column<Row>) => [c.className, c.num ? "num" : null].filter(Boolean).join(" ") || undefined;
  // A table that stacks on phones never scrolls sideways; any other is a named, focusable scroll region.
  const wrap = stackOnPhone
    ? { className: "table-wrap" }
    : scrollRegion(regionLabel ?? (typeof caption === "string" ? caption : ""));
  return (
    <div {...wrap}>
      <table className={classes}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) =>
              c.header !== undefined ? (
                <Fragment key={c.label}>{c.header}</Fragment>
              ) : (
                <th key={c.label} scope="col" className={c.num ? "num" : undefined}>
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c, i) =>
                  i === 0 ? (
                    <th
                      key={c.label}
                      scope="row"
                      className={[rowHeaderClassName, cellClass(c)].filter(Boolean).join(" ") || undefined}
                    >
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={c.label} className={cellClass(c)} data-label={stackOnPhone ? c.label : undefined}>
                      {c.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A list's filters as a GET form (the values live in the URL: bookmarkable, no JS needed) with the apply button and
 * a reset link to `resetTo`. The fields are the children (FilterSelect, FilterSearch or any `.field`).
 */
export function FilterForm({
  label,
  resetTo,
  apply,
  reset,
  children,
}: {
  label: string;
  resetTo: string;
  apply: string;
  reset: string;
  children: ReactNode;
}) {
  return (
    <Form method="get" className="filters" aria-label={label}>
      {children}
      <div className="filter-actions">
        <button type="submit">{apply}</button>
        <AppLink to={resetTo} className="button secondary">
          {reset}
        </AppLink>
      </div>
    </Form>
  );
}

/** A filter's select with its label; `any` (when given) is the first option, the empty value (no filter). */
export function FilterSelect({
  id,
  name,
  label,
  value,
  any,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string | number | undefined;
  any?: string;
  options: readonly { value: string | number; label: ReactNode }[];
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ""}>
        {any !== undefined ? <option value="">{any}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A filter's free-text search box with its label. */
export function FilterSearch({
  id,
  name,
  label,
  value,
  maxLength,
}: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  maxLength: number;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type="search" defaultValue={value ?? ""} maxLength={maxLength} />
    </div>
  );
}

/** Links that choose one value of a filter (the current one marked aria-current), e.g. a device kind. */
export function FilterLinks({
  label,
  links,
}: {
  label: string;
  links: readonly { to: string; label: ReactNode; current: boolean }[];
}) {
  return (
    <nav className="subnav" aria-label={label}>
      {links.map((l) => (
        <AppLink key={l.to} to={l.to} aria-current={l.current ? "page" : undefined}>
          {l.label}
        </AppLink>
      ))}
    </nav>
  );
}
