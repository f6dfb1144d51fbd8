// Chart data sanitising of SPEC §5: clamp measured values to what is physically possible and
// fill missing series, so one bad sample cannot wreck a card's axis.
import type { Counter } from "./status";
import { parseLabels, parseSeries, sumSeries } from "./series";
import { capacityKw } from "./units";

/** Irradiance above this (W/m²) is a sensor fault; clear-sky peaks stay well below. */
export const IRRADIANCE_MAX = 1300;
/** Module temperature range (°C) a PV module can actually reach. */
export const MODULE_TEMPERATURE_MIN = -40;
export const MODULE_TEMPERATURE_MAX = 120;

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, Number.isFinite(v) ? v : 0));

/**
 * Floors per-step generation at 0 and caps it at the capacity (same unit as the series, kW).
 * An unknown or non-positive capacity only floors: capping at 0 would hide real output.
 */
export function sanitizeGeneration(values: readonly number[], capacity: number | null | undefined): number[] {
  const cap = typeof capacity === "number" && Number.isFinite(capacity) && capacity > 0 ? capacity : Number.POSITIVE_INFINITY;
  return values.map((v) => clamp(v, 0, cap));
}

/** Caps irradiance at 1300 W/m²; negatives (night-time sensor offset) become 0. */
export function sanitizeIrradiance(values: readonly number[]): number[] {
  return values.map((v) => clamp(v, 0, IRRADIANCE_MAX));
}

/** Clamps module temperature to −40..120 °C. */
export function sanitizeModuleTemperature(values: readonly number[]): number[] {
  return values.map((v) => clamp(v, MODULE_TEMPERATURE_MIN, MODULE_TEMPERATURE_MAX));
}

export type DailyGenerationInput =
  /** Chart (graph) data: the per-step series tells whether the plant produced today. */
  | { source: "chart"; daily: number; alarmCount: Counter; generationSum: number }
  /** Grid data has no series; current output tells instead. */
  | { source: "grid"; daily: number; alarmCount: Counter; iw: Counter };

/**
 * A plant in alarm whose series sums to 0 (chart) or whose current output is 0 (grid) shows 0
 * for today: its daily counter is then a stale value from a device that stopped reporting.
 */
export function effectiveDailyGeneration(input: DailyGenerationInput): number {
  const daily = Number.isFinite(input.daily) ? input.daily : 0;
  if (!(Number(input.alarmCount ?? 0) > 0)) return daily;
  const idle = input.source === "chart" ? input.generationSum === 0 : !(Number(input.iw ?? 0) > 0);
  return idle ? 0 : daily;
}

/** Today's generation of one plant as every screen shows it (SPEC §5 alarm rule applied once). */
export interface TodayGeneration {
  /** Wh; 0 when zeroed. */
  dailys: number;
  /** True when the alarm rule turned a non-zero counter into 0 (screens say why). */
  zeroed: boolean;
}

/**
 * The one place SPEC §5's zeroing rule is decided for a plant's status row, which every screen
 * (plant cards in both views, the main page's monitoring table, watch, detail) reads: the row is
 * grid data (no series), so a plant in alarm whose current output is 0 shows 0 for today.
 * `zeroed` is set only when a non-zero counter was dropped, so "0 because nothing was produced"
 * is not marked.
 */
export function todayGeneration(input: { daily: number; alarmCount: Counter; iw: Counter }): TodayGeneration {
  const daily = Number.isFinite(input.daily) ? input.daily : 0;
  const dailys = effectiveDailyGeneration({ source: "grid", daily, alarmCount: input.alarmCount, iw: input.iw });
  return { dailys, zeroed: dailys === 0 && daily !== 0 };
}

/** Raw plant generation record of SPEC §3 (units: see units.ts). */
export interface RawPlantGeneration {
  times?: string | null;
  days?: string | null;
  his?: string | null;
  iis?: string | null;
  ats?: string | null;
  sts?: string | null;
  capa?: number | null;
  alarm_count?: Counter;
  dailys?: number | string | null;
  iw?: number | string | null;
}

export interface SanitizedPlantGeneration {
  labels: string[];
  /** Per-step generation, kW, within 0..capacity. */
  generation: number[];
  /** Horizontal irradiance, W/m², 0..1300. */
  his: number[];
  /** Plane-of-array irradiance, W/m², 0..1300. */
  iis: number[];
  /** Module temperatures, °C, −40..120. */
  ats: number[];
  sts: number[];
  capacityKw: number;
  /** Today's generation, Wh, after the alarm rule. */
  dailys: number;
}

/**
 * Parses and sanitises one raw record. Every series has exactly one value per timestamp
 * (missing ones are zeros). `source` picks the daily-generation rule (see effectiveDailyGeneration).
 */
export function sanitizePlantGeneration(raw: RawPlantGeneration, source: "chart" | "grid" = "chart"): SanitizedPlantGeneration {
  const labels = parseLabels(raw.times);
  const n = labels.length;
  const capKw = capacityKw(raw.capa);
  const generation = sanitizeGeneration(parseSeries(raw.days, n), capKw);
  const daily = Number(raw.dailys ?? 0);
  const dailys =
    source === "chart"
      ? effectiveDailyGeneration({ source, daily, alarmCount: raw.alarm_count, generationSum: sumSeries(generation) })
      : effectiveDailyGeneration({ source, daily, alarmCount: raw.alarm_count, iw: raw.iw });
  return {
    labels,
    generation,
    his: sanitizeIrradiance(parseSeries(raw.his, n)),
    iis: sanitizeIrradiance(parseSeries(raw.iis, n)),
    ats: sanitizeModuleTemperature(parseSeries(raw.ats, n)),
    sts: sanitizeModuleTemperature(parseSeries(raw.sts, n)),
    capacityKw: capKw,
    dailys,
  };
}
