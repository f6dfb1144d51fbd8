/**
 * The plant status screen's controls. Every one is a link or a GET form, so each works without
 * JavaScript and every state it sets lands in the URL (bookmarkable). With JavaScript the sort
 * selects apply on change.
 */
import { Form, useSubmit } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { VIEW_COUNT_OPTIONS } from "../../../domain/chart";
import { SORT_TYPES, VIEW_MODES, type ViewMode } from "../../../domain/ordering";
import { PVSTATUS_SEARCH_TYPES } from "../../../domain/contract/pvstatus";
import { STATUS_CATEGORIES, type StatusCategory, type StatusCounts } from "../../../domain/status";
import { fmt, useT } from "~/i18n";
import { GRAPH_SIZES, GRID_SIZES, pvstatusHref, toggled, viewSearch, type CardSize, type PvstatusView } from "./url-state";

/** Hidden fields carrying the rest of the view through a GET form (which replaces the whole query). */
function HiddenState({ view, omit }: { view: PvstatusView; omit: string[] }) {
  const params = new URLSearchParams(viewSearch(view, {}));
  params.delete("limit");
  for (const k of omit) params.delete(k);
  return (
    <>
      {[...params.entries()].map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
    </>
  );
}

export function ViewModeTabs({ view }: { view: PvstatusView }) {
  const t = useT().pvstatus;
  return (
    <nav className="pv-views" aria-label={t.views.label}>
      {VIEW_MODES.map((mode: ViewMode) => (
        <AppLink
          key={mode}
          to={pvstatusHref(viewSearch(view, { view: mode }))}
          aria-current={view.view === mode ? "page" : undefined}
          className={`pv-view-${mode}`}
        >
          {t.views[mode]}
        </AppLink>
      ))}
    </nav>
  );
}

export function SearchForm({ view }: { view: PvstatusView }) {
  const t = useT().pvstatus.search;
  return (
    <Form method="get" action="/pvstatus" className="pv-search" role="search" aria-label={t.label}>
      <HiddenState view={view} omit={["q", "qt"]} />
      <label className="pv-field">
        <span>{t.type}</span>
        <select name="qt" defaultValue={view.qt} key={`qt-${view.qt}`}>
          {PVSTATUS_SEARCH_TYPES.map((type) => (
            <option key={type} value={type}>
              {t.types[type]}
            </option>
          ))}
        </select>
      </label>
      <label className="pv-field pv-field-grow">
        <span>{t.text}</span>
        <input type="search" name="q" defaultValue={view.q} key={`q-${view.q}`} maxLength={100} autoComplete="off" />
      </label>
      <button type="submit">{t.submit}</button>
      {view.q ? (
        <AppLink className="pv-clear" to={pvstatusHref(viewSearch(view, { q: "" }))}>
          {t.clear}
        </AppLink>
      ) : null}
    </Form>
  );
}

export function SortForm({ view }: { view: PvstatusView }) {
  const t = useT().pvstatus.sort;
  const submit = useSubmit();
  return (
    <Form
      method="get"
      action="/pvstatus"
      className="pv-sort"
      aria-label={t.label}
      onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}
    >
      <HiddenState view={view} omit={["sort", "order"]} />
      <label className="pv-field">
        <span>{t.type}</span>
        <select name="sort" defaultValue={view.sort} key={`s-${view.sort}`}>
          {SORT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t.types[type]}
            </option>
          ))}
        </select>
      </label>
      <label className="pv-field">
        <span>{t.order}</span>
        <select name="order" defaultValue={view.order} key={`o-${view.order}`}>
          <option value="asc">{t.asc}</option>
          <option value="desc">{t.desc}</option>
        </select>
      </label>
      <button type="submit" className="secondary">
        {t.apply}
      </button>
    </Form>
  );
}

function LinkGroup<T extends string | number>(props: {
  label: string;
  items: readonly T[];
  current: T;
  text: (item: T) => string;
  href: (item: T) => string;
  className: string;
  note?: string;
}) {
  return (
    <div className={`pv-linkgroup ${props.className}`} role="group" aria-label={props.label}>
      <span className="pv-linkgroup-label" aria-hidden="true">
        {props.label}
      </span>
      {props.items.map((item) => (
        <AppLink
          key={String(item)}
          to={pvstatusHref(props.href(item))}
          aria-current={item === props.current ? "true" : undefined}
          preventScrollReset
        >
          {props.text(item)}
        </AppLink>
      ))}
      {props.note ? <span className="pv-note">{props.note}</span> : null}
    </div>
  );
}

export function CountAndSize({ view, mobile }: { view: PvstatusView; mobile: boolean }) {
  const t = useT().pvstatus;
  const forced = mobile && view.view === "gd";
  const sizes: readonly CardSize[] = view.view === "gh" ? GRAPH_SIZES : GRID_SIZES;
  const sizeText = (s: CardSize) =>
    view.view === "gh" ? (s === "md" ? t.size.lineMd : t.size[s as "lg" | "bar"]) : s === "sm" ? t.size.gridSm : t.size.gridMd;
  return (
    <div className="pv-pagesize">
      {view.view !== "map" ? (
        <LinkGroup
          label={t.count.label}
          className="pv-count"
          items={VIEW_COUNT_OPTIONS}
          current={view.effectiveCount}
          text={(n) => fmt(t.count.option, { n })}
          href={(n) => viewSearch(view, { count: n })}
          note={forced ? t.count.mobileForced : undefined}
        />
      ) : null}
      {view.view !== "map" ? (
        <LinkGroup
          label={t.size.label}
          className="pv-size"
          items={sizes}
          current={view.size}
          text={sizeText}
          href={(s) => viewSearch(view, { size: s })}
        />
      ) : null}
    </div>
  );
}

const COUNT_KEY: Record<StatusCategory, keyof StatusCounts> = {
  normal: "normalCount",
  warning: "warningCount",
  warning_1000001: "warning_1000001_Count",
  warning_1000003: "warning_1000003_Count",
  warning_1000004: "warning_1000004_Count",
  warning_1000006: "warning_1000006_Count",
  notWork: "notWorkCount",
};

/** The status filters of SPEC §2 with the counts of SPEC §3; each is a toggle link. */
export function StatusFilters({ view, counts }: { view: PvstatusView; counts: StatusCounts | null }) {
  const t = useT().pvstatus.filters;
  return (
    <div className="pv-filters" role="group" aria-label={t.label} aria-describedby="pv-filters-hint">
      <span id="pv-filters-hint" className="visually-hidden">
        {t.hint}
      </span>
      {STATUS_CATEGORIES.map((c) => {
        const on = !view.hide.includes(c);
        const n = counts ? counts[COUNT_KEY[c]] : null;
        return (
          <AppLink
            key={c}
            to={pvstatusHref(viewSearch(view, { hide: toggled(view.hide, c) }))}
            replace
            preventScrollReset
            role="button"
            aria-pressed={on}
            className={`pv-filter pv-filter-${c}${c.startsWith("warning_") ? " pv-filter-sub" : ""}`}
            data-category={c}
            onKeyDown={(e) => {
              if (e.key === " ") {
                e.preventDefault();
                e.currentTarget.click();
              }
            }}
          >
            <span className="pv-filter-check" aria-hidden="true">
              {on ? "✓" : ""}
            </span>
            <span className="pv-filter-name">{t[c]}</span>
            <span className="pv-filter-count" data-testid={`count-${c}`}>
              {n === null ? "–" : n}
            </span>
          </AppLink>
        );
      })}
      {view.hide.length ? (
        <AppLink to={pvstatusHref(viewSearch(view, { hide: [] }))} className="pv-filter-reset" replace preventScrollReset>
          {t.reset}
        </AppLink>
      ) : null}
    </div>
  );
}
