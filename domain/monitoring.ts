// Monitoring screen (SPEC §2): tabs gen (default) and grid, a search keyword, sort by plant name or
// current time, ascending or descending (default plant name ascending). All of it lives in the URL.
import { NameOrder } from "./name-order";
import { compareNames, comparePlantUids } from "./ordering";
import { searchText } from "./search-text";

export const MONITOR_KINDS = ["gen", "grid"] as const;
export type MonitorKind = (typeof MONITOR_KINDS)[number];
export const DEFAULT_MONITOR_KIND: MonitorKind = "gen";

export const MONITOR_SORTS = ["name", "time"] as const;
export type MonitorSort = (typeof MONITOR_SORTS)[number];
export const DEFAULT_MONITOR_SORT: MonitorSort = "name";

export type MonitorOrder = "asc" | "desc";
export const DEFAULT_MONITOR_ORDER: MonitorOrder = "asc";

export const MONITOR_KEYWORD_MAX = 50;

export interface MonitorView {
  tab: MonitorKind;
  keyword: string;
  sort: MonitorSort;
  order: MonitorOrder;
}

export const DEFAULT_MONITOR_VIEW: MonitorView = {
  tab: DEFAULT_MONITOR_KIND,
  keyword: "",
  sort: DEFAULT_MONITOR_SORT,
  order: DEFAULT_MONITOR_ORDER,
};

const pick = <T extends string>(list: readonly T[], v: string | null | undefined, fallback: T): T =>
  list.includes(v as T) ? (v as T) : fallback;

/**
 * The view from URL search params (tab, q, sort, order). Unknown values fall back to the defaults, so a
 * hand-edited or outdated bookmark still opens a sensible screen.
 */
export function parseMonitorView(params: URLSearchParams): MonitorView {
  return {
    tab: pick(MONITOR_KINDS, params.get("tab"), DEFAULT_MONITOR_KIND),
    keyword: searchText(params.get("q"), MONITOR_KEYWORD_MAX),
    sort: pick(MONITOR_SORTS, params.get("sort"), DEFAULT_MONITOR_SORT),
    order: pick(["asc", "desc"] as const, params.get("order"), DEFAULT_MONITOR_ORDER),
  };
}

/** Search params of a view, defaults left out so the plain URL stays plain. Other params are kept. */
export function monitorViewParams(view: MonitorView, base?: URLSearchParams): URLSearchParams {
  const p = new URLSearchParams(base);
  const set = (k: string, v: string, def: string) => (v && v !== def ? p.set(k, v) : p.delete(k));
  set("tab", view.tab, DEFAULT_MONITOR_KIND);
  set("q", view.keyword, "");
  set("sort", view.sort, DEFAULT_MONITOR_SORT);
  set("order", view.order, DEFAULT_MONITOR_ORDER);
  return p;
}

/** Case-insensitive match of the keyword in the plant name (or alias). */
export function matchesKeyword(keyword: string, ...fields: Array<string | null | undefined>): boolean {
  const k = keyword.trim().toLocaleLowerCase("ko");
  if (!k) return true;
  return fields.some((f) => (f ?? "").toLocaleLowerCase("ko").includes(k));
}

/** SPEC §3 "Monitoring rows": plant_name and time (the newest reading, epoch ms; null = never). */
export interface MonitorRowKey {
  plant_uid: string;
  plant_name: string;
  time: number | null;
}

/**
 * Orders monitoring rows by plant name or current time. Rows that never reported sort last in either
 * order; ties fall back to name then uid, ascending, so the order is stable between polls.
 */
export function orderMonitorRows<T extends MonitorRowKey>(
  rows: readonly T[],
  sort: MonitorSort,
  order: MonitorOrder,
  names: NameOrder = new NameOrder(compareNames),
): T[] {
  const dir = order === "desc" ? -1 : 1;
  const rank = names.ranks(rows.map((r) => r.plant_name));
  const keyed = rows.map((row) => ({ row, name: rank(row.plant_name) }));
  keyed.sort(({ row: a, name: na }, { row: b, name: nb }) => {
    if (sort === "time") {
      if (a.time === null || b.time === null) {
        if (a.time !== b.time) return a.time === null ? 1 : -1;
      } else if (a.time !== b.time) {
        return (a.time - b.time) * dir;
      }
      return na - nb || comparePlantUids(a.plant_uid, b.plant_uid);
    }
    return (na - nb) * dir || comparePlantUids(a.plant_uid, b.plant_uid);
  });
  return keyed.map((k) => k.row);
}

/** A fresh grid-side reading of a plant: device kind (2 board, 7 VCB, 8 ACB), voltage V and power W. */
export interface GridReading {
  kind: number;
  v: number | null;
  w: number | null;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/**
 * The grid connection's voltage and power of a plant: those of its medium-voltage breakers (VCB) where one
 * reports, else of its low-voltage breakers (ACB), else the connection boards' voltage and no power. Never a
 * mean across voltage levels (22.9 kV with 380 V), and VCB and ACB sit in series, so their powers are not
 * added. A plant without a reporting breaker has no grid power (null, shown "–"), not 0 kW.
 */
export function gridPoint(readings: readonly GridReading[]): { v: number | null; vKind: number | null; w: number | null } {
  for (const kind of [7, 8]) {
    const level = readings.filter((r) => r.kind === kind);
    if (!level.length) continue;
    const watts = level.map((r) => r.w).filter((w): w is number => w !== null);
    const v = mean(level.map((r) => r.v).filter((x): x is number => x !== null));
    return {
      v,
      vKind: v === null ? null : kind,
      w: watts.length ? watts.reduce((a, b) => a + b, 0) : null,
    };
  }
  const v = mean(
    readings
      .filter((r) => r.kind === 2)
      .map((r) => r.v)
      .filter((x): x is number => x !== null),
  );
  return { v, vKind: v === null ? null : 2, w: null };
}
