// Chart and plant-status screen constants of SPEC §2 and §9.
import type { ViewMode } from "./ordering";

export { CARD_NAME_LENGTH } from "./truncate";

/** Irradiance axis, W/m² (SPEC §9). */
export const IRRADIANCE_AXIS = { max: 1100, step: 650 } as const;

export interface AxisScale {
  suggestedMax: number;
  step: number;
}

/**
 * Generation axis: suggested maximum = capacity (kW), step = half of it. A plant without a
 * capacity gets 1/0.5 so the chart library never sees a zero-height axis.
 */
export function generationAxis(capacityKw: number | null | undefined): AxisScale {
  const cap = typeof capacityKw === "number" && Number.isFinite(capacityKw) && capacityKw > 0 ? capacityKw : 1;
  return { suggestedMax: cap, step: cap / 2 };
}

/**
 * Series colours (blue generation, red irradiance, green reference). Each keeps ≥ 3:1 contrast
 * (WCAG 1.4.11, graphics) on white and on the dark theme's #111827: blue 4.2/4.2, red 4.5/3.9,
 * green 4.4/4.1. Red and green are told apart by more than hue: reference is drawn dashed.
 */
export const SERIES_COLORS = {
  generation: "#1C7ED6",
  irradiance: "#E03131",
  reference: "#2B8A3E",
} as const;
export type ChartSeries = keyof typeof SERIES_COLORS;

/** Series shown when a card first renders; reference generation exists but starts hidden. */
export const DEFAULT_VISIBLE_SERIES: Readonly<Record<ChartSeries, boolean>> = {
  generation: true,
  irradiance: true,
  reference: false,
};

/** Polling intervals, ms (SPEC §9). */
export const REFRESH_INTERVAL_MS = {
  pvstatus: 6_000,
  groupPvstatus: 660_000,
  control: 660_000,
  recentAlarm: 660_000,
} as const;

/** Plant status fetch sizes (SPEC §9). */
export const FETCH_LIMIT = { initial: 20, polling: 20 } as const;

/** After each fetch the limit grows by the page view count. */
export function nextFetchLimit(current: number, viewCount: number): number {
  return current + viewCount;
}

export const VIEW_COUNT_OPTIONS = [10, 25, 50] as const;
export type ViewCount = (typeof VIEW_COUNT_OPTIONS)[number];
export const DEFAULT_VIEW_COUNT: ViewCount = 10;
export const GROUP_STATUS_DEFAULT_VIEW_COUNT: ViewCount = 25;
export const MOBILE_GRID_VIEW_COUNT: ViewCount = 10;

export function isViewCount(value: unknown): value is ViewCount {
  return VIEW_COUNT_OPTIONS.includes(value as ViewCount);
}

/** The page size actually used: unknown values fall back to the default; mobile grid is forced to 10. */
export function effectiveViewCount(requested: unknown, context: { mobile: boolean; view: ViewMode }): ViewCount {
  if (context.mobile && context.view === "gd") return MOBILE_GRID_VIEW_COUNT;
  const n = typeof requested === "string" ? Number(requested) : requested;
  return isViewCount(n) ? n : DEFAULT_VIEW_COUNT;
}

/** Group status defaults (SPEC §9). */
export const GROUP_STATUS_DEFAULTS = { type: "node", view: "gd" } as const;

/** Default statistics unit (SPEC §3/§9). */
export const DEFAULT_STATISTICS_UNIT = 30;
/** Environment and inverter measurement windows: the last 24 h at unit 10. */
export const MEASUREMENT_WINDOW = { hours: 24, unit: 10 } as const;

/** Irradiance that makes one "sun hour" per hour (W/m²): an hour's mean irradiance / this = its sun hours. */
export const SUN_HOUR_IRRADIANCE = 1000;

export interface StackedHourBar {
  label: string;
  /** Generation time of the hour, h: the hour's energy (kWh) / capacity (kW), 0..1. */
  genHours: number;
  /** Irradiance of the hour as sun hours, h: mean W/m² / 1000 (Wh/m² ÷ 1000), 0..1.3. */
  irrHours: number;
}

/**
 * The stacked bar card of SPEC §2 ("bars for generation time and irradiance"): per hour, a bar of
 * the hour's generation time with its irradiance (as sun hours, the same unit) stacked on top, so
 * the two read against one hour axis. `generation` is the hourly series in kW (= kWh of the hour),
 * `irradiance` in W/m². Without a capacity the generation time is 0 (it cannot be told).
 */
export function stackedHourBars(
  labels: readonly string[],
  generation: readonly number[],
  irradiance: readonly number[],
  capacityKw: number,
): StackedHourBar[] {
  const cap = Number.isFinite(capacityKw) && capacityKw > 0 ? capacityKw : 0;
  const pos = (v: number | undefined) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
  return labels.map((label, i) => ({
    label,
    genHours: cap ? Math.min(1, pos(generation[i]) / cap) : 0,
    irrHours: pos(irradiance[i]) / SUN_HOUR_IRRADIANCE,
  }));
}

/** Top of the stacked bar card's hour axis: 1 h, or 2 h when any stack is taller than an hour. */
export function stackedHourAxisMax(bars: readonly StackedHourBar[]): number {
  return bars.some((b) => b.genHours + b.irrHours > 1) ? 2 : 1;
}
