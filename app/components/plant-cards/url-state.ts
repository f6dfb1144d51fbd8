/**
 * The plant status screen's whole view state in the URL (DESIGN: bookmarkable state lives in the
 * search params), parsed leniently — a hand-edited or stale bookmark never fails, unknown values fall
 * back to the defaults of SPEC §2/§9 — and written back without the defaults, so the plain /pvstatus
 * is the default view.
 *
 *   view   gd | gh | map                       (gd)
 *   hide   status categories switched off      (none: all on)
 *   q, qt  search text, search type            (qt = name)
 *   sort, order                                (name, asc)
 *   count  page view count 10 | 25 | 50        (10; a mobile grid is forced to 10)
 *   limit  how many plants are fetched         (20, grows by count)
 *   size   card size: gd md | sm; gh lg | md | bar   (md)
 *   off    legend series switched off: gen, irr
 */
import { effectiveViewCount, type ViewCount } from "../../../domain/chart";
import {
  DEFAULT_SORT_ORDER,
  DEFAULT_SORT_TYPE,
  DEFAULT_VIEW_MODE,
  isSortOrder,
  isSortType,
  isViewMode,
  type SortOrder,
  type SortType,
  type ViewMode,
} from "../../../domain/ordering";
import { PVSTATUS_SEARCH_TYPES, type PvstatusSearchType } from "../../../domain/contract/pvstatus";
import { isStatusCategory, STATUS_CATEGORIES, type StatusCategory } from "../../../domain/status";
import { searchText } from "../../../domain/search-text";

export type GridCardSize = "md" | "sm";
export type GraphCardSize = "lg" | "md" | "bar";
export type CardSize = GridCardSize | GraphCardSize;
export type LegendSeries = "gen" | "irr";

export const GRID_SIZES: readonly GridCardSize[] = ["md", "sm"];
export const GRAPH_SIZES: readonly GraphCardSize[] = ["lg", "md", "bar"];
export const LEGEND_SERIES: readonly LegendSeries[] = ["gen", "irr"];
/** The URL may ask for at most this many plants (the API's own ceiling is higher, for the map). */
export const MAX_URL_LIMIT = 2_000;
export const MAX_SEARCH_LENGTH = 100;

export interface PvstatusView {
  view: ViewMode;
  /** Categories switched off. */
  hide: StatusCategory[];
  q: string;
  qt: PvstatusSearchType;
  sort: SortType;
  order: SortOrder;
  /** Requested view count (kept as asked, even when a mobile grid overrides it). */
  count: ViewCount;
  /** The count actually used. */
  effectiveCount: ViewCount;
  /** Whether the page is a phone's (a phone's grid shows 10 at a time whatever is asked). */
  mobile: boolean;
  /**
   * How many cards the list shows: the page size (the count used) until the member asks for more — the "more" link
   * adds a page each time. Polls refresh what is shown and never grow it (issue 13, point 12).
   */
  limit: number;
  size: CardSize;
  off: LegendSeries[];
}

export interface ParseContext {
  mobile: boolean;
}

const list = (params: URLSearchParams, name: string): string[] =>
  params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter(Boolean);

function sizeFor(view: ViewMode, raw: string | null): CardSize {
  if (view === "gh") return (GRAPH_SIZES as readonly string[]).includes(raw ?? "") ? (raw as GraphCardSize) : "md";
  return (GRID_SIZES as readonly string[]).includes(raw ?? "") ? (raw as GridCardSize) : "md";
}

export function parseView(params: URLSearchParams, ctx: ParseContext): PvstatusView {
  const rawView = params.get("view");
  const view = isViewMode(rawView) ? rawView : DEFAULT_VIEW_MODE;
  const hideSet = new Set(list(params, "hide").filter(isStatusCategory));
  const hide = STATUS_CATEGORIES.filter((c) => hideSet.has(c));
  const rawQt = params.get("qt");
  const qt = (PVSTATUS_SEARCH_TYPES as readonly string[]).includes(rawQt ?? "") ? (rawQt as PvstatusSearchType) : "name";
  const sort = isSortType(params.get("sort")) ? (params.get("sort") as SortType) : DEFAULT_SORT_TYPE;
  const order = isSortOrder(params.get("order")) ? (params.get("order") as SortOrder) : DEFAULT_SORT_ORDER;
  const count = effectiveViewCount(params.get("count"), { mobile: false, view });
  const effectiveCount = effectiveViewCount(params.get("count"), { mobile: ctx.mobile, view });
  const rawLimit = Number(params.get("limit"));
  const limit = Number.isInteger(rawLimit) && rawLimit >= 1 ? Math.min(rawLimit, MAX_URL_LIMIT) : effectiveCount;
  const offSet = new Set(list(params, "off"));
  return {
    view,
    hide,
    q: searchText(params.get("q"), MAX_SEARCH_LENGTH),
    qt,
    sort,
    order,
    count,
    effectiveCount,
    mobile: ctx.mobile,
    limit,
    size: sizeFor(view, params.get("size")),
    off: LEGEND_SERIES.filter((s) => offSet.has(s)),
  };
}

export type ViewPatch = Partial<Omit<PvstatusView, "effectiveCount" | "mobile">>;

/**
 * The search string (with '?', or '' for the default view) of a view with changes applied. Changing
 * anything but the limit itself starts the list again at one page (the page size); switching the view mode
 * drops a card size that the new mode does not have.
 */
/** A link target on the plant status screen (a string: React Router parses it once, objects cost more). */
export const pvstatusHref = (search: string) => `/pvstatus${search}`;

export function viewSearch(current: PvstatusView, patch: ViewPatch = {}): string {
  const next = { ...current, ...patch };
  const onePage = effectiveViewCount(next.count, { mobile: current.mobile, view: next.view });
  const resetsList = Object.keys(patch).some((k) => k !== "limit" && k !== "off" && k !== "size");
  if (resetsList && patch.limit === undefined) next.limit = onePage;
  if (patch.view && patch.view !== current.view && patch.size === undefined) next.size = "md";
  const p = new URLSearchParams();
  if (next.view !== DEFAULT_VIEW_MODE) p.set("view", next.view);
  if (next.hide.length) p.set("hide", STATUS_CATEGORIES.filter((c) => next.hide.includes(c)).join(","));
  if (next.q) p.set("q", next.q);
  if (next.q && next.qt !== "name") p.set("qt", next.qt);
  if (next.sort !== DEFAULT_SORT_TYPE) p.set("sort", next.sort);
  if (next.order !== DEFAULT_SORT_ORDER) p.set("order", next.order);
  if (next.count !== 10) p.set("count", String(next.count));
  if (next.limit !== onePage) p.set("limit", String(next.limit));
  if (next.size !== "md") p.set("size", next.size);
  if (next.off.length) p.set("off", LEGEND_SERIES.filter((s) => next.off.includes(s)).join(","));
  // Commas are safe in a query: keep lists readable in a bookmark (hide=normal,notWork).
  const s = p.toString().replace(/%2C/gi, ",");
  return s ? `?${s}` : "";
}

/** The categories switched on (what the API calls `st`). */
export function enabledCategories(view: Pick<PvstatusView, "hide">): StatusCategory[] {
  return STATUS_CATEGORIES.filter((c) => !view.hide.includes(c));
}

export function toggled<T>(items: readonly T[], item: T): T[] {
  return items.includes(item) ? items.filter((i) => i !== item) : [...items, item];
}

/** Whether two URLs of the screen differ only in the legend switches (drawn by CSS, no refetch needed). */
export function onlyLegendChanged(a: URLSearchParams, b: URLSearchParams): boolean {
  const strip = (p: URLSearchParams) => {
    const c = new URLSearchParams(p);
    c.delete("off");
    c.sort();
    return c.toString();
  };
  return strip(a) === strip(b) && (a.get("off") ?? "") !== (b.get("off") ?? "");
}
