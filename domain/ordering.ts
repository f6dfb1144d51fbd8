// Plant list ordering of SPEC §4: status groups first, then the chosen sort inside each group.
import { NameOrder } from "./name-order";
import { statusCategory, type StatusCategory } from "./status";

/** Plant status view modes (SPEC §2); 'gd' (grid) is the default. */
export type ViewMode = "gd" | "gh" | "map";
export const VIEW_MODES: readonly ViewMode[] = ["gd", "gh", "map"];
export const DEFAULT_VIEW_MODE: ViewMode = "gd";

export function isViewMode(value: unknown): value is ViewMode {
  return VIEW_MODES.includes(value as ViewMode);
}

/** Graph view group order. 'warning' leads as the umbrella slot (no plant is filed there by code). */
export const GRAPH_STATUS_ORDER: readonly StatusCategory[] = [
  "warning",
  "warning_1000003",
  "warning_1000001",
  "warning_1000006",
  "warning_1000004",
  "notWork",
  "normal",
];

/** Grid view group order: communication faults (1000001) come before internet disconnections. */
export const GRID_STATUS_ORDER: readonly StatusCategory[] = [
  "warning",
  "warning_1000001",
  "warning_1000003",
  "warning_1000006",
  "warning_1000004",
  "notWork",
  "normal",
];

/** The map has no list; it follows the grid (default view) order. */
export function statusOrder(view: ViewMode): readonly StatusCategory[] {
  return view === "gh" ? GRAPH_STATUS_ORDER : GRID_STATUS_ORDER;
}

/** Sort keys: plant name, capacity, current output (iw), today's generation, today's generation hours. */
export type SortType = "name" | "capa" | "iw" | "today" | "genTime";
export const SORT_TYPES: readonly SortType[] = ["name", "capa", "iw", "today", "genTime"];
export const DEFAULT_SORT_TYPE: SortType = "name";

export type SortOrder = "asc" | "desc";
export const DEFAULT_SORT_ORDER: SortOrder = "asc";

export function isSortType(value: unknown): value is SortType {
  return SORT_TYPES.includes(value as SortType);
}

export function isSortOrder(value: unknown): value is SortOrder {
  return value === "asc" || value === "desc";
}

/** What ordering needs of a plant; numeric fields may be missing (they then sort last). */
export interface OrderablePlant {
  plant_uid: string | number;
  name: string;
  /** Numeric status code (see status.ts). */
  status: number;
  capa?: number | null;
  iw?: number | null;
  today?: number | null;
  genTime?: number | null;
}

export interface OrderOptions {
  view?: ViewMode;
  sortType?: SortType;
  order?: SortOrder;
  /**
   * Names kept in collation order across calls (a server's one NameOrder): a list sorts by rank, with collator
   * compares only for names it has not seen. Without it the names are ranked afresh (the same order).
   */
  names?: NameOrder;
}

// localeCompare("ko") order (Hangul before Latin), with numeric: true so "2호기" sorts before "10호기".
const nameCollator = new Intl.Collator("ko", { numeric: true });

export function compareNames(a: string, b: string): number {
  return nameCollator.compare(a ?? "", b ?? "");
}

/** Plant uids are numbers or numeric/hex strings; numeric ones compare as numbers. */
export function comparePlantUids(a: string | number, b: string | number): number {
  const na = Number(a);
  const nb = Number(b);
  if (a !== "" && b !== "" && Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function numericKey(plant: OrderablePlant, sortType: Exclude<SortType, "name">): number | null {
  const value = plant[sortType];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Orders plants by status group (per view), then by sort type and order inside a group.
 * Ties fall back to name (for numeric sorts) and then plant uid, both ascending, so the result is
 * deterministic regardless of input order. Missing numeric values go last in either order.
 */
export function orderPlants<T extends OrderablePlant>(plants: readonly T[], options: OrderOptions = {}): T[] {
  const groups = statusOrder(options.view ?? DEFAULT_VIEW_MODE);
  const sortType = options.sortType ?? DEFAULT_SORT_TYPE;
  const direction = (options.order ?? DEFAULT_SORT_ORDER) === "desc" ? -1 : 1;
  const nameRank = (options.names ?? new NameOrder(compareNames)).ranks(plants.map((p) => p.name ?? ""));
  // Each plant's keys once, then a sort that compares numbers (decorate, sort, undecorate).
  const keyed = plants.map((p) => ({
    p,
    group: groups.indexOf(statusCategory(p.status)),
    name: nameRank(p.name ?? ""),
    value: sortType === "name" ? null : numericKey(p, sortType),
  }));
  keyed.sort((a, b) => {
    const byGroup = a.group - b.group;
    if (byGroup !== 0) return byGroup;
    if (sortType === "name") {
      if (a.name !== b.name) return (a.name - b.name) * direction;
    } else {
      const ka = a.value;
      const kb = b.value;
      if (ka === null || kb === null) {
        if (ka !== kb) return ka === null ? 1 : -1;
      } else if (ka !== kb) {
        return (ka - kb) * direction;
      }
      if (a.name !== b.name) return a.name - b.name;
    }
    return comparePlantUids(a.p.plant_uid, b.p.plant_uid);
  });
  return keyed.map((k) => k.p);
}
