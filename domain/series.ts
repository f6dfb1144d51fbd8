// Series in plant payloads (SPEC §3: comma-separated strings, one value per timestamp) and the
// time-series key rules of SPEC §4.

/**
 * Parses "1.5,,3,abc" into numbers. Blank, non-numeric and non-finite entries become 0, because
 * SPEC §5 fills missing data with zeros and the charts plot numbers. With `length` the result is
 * padded with zeros or cut to exactly that many entries (the number of timestamps).
 */
export function parseSeries(text: string | null | undefined, length?: number): number[] {
  const parts = text == null || text.trim() === "" ? [] : text.split(",");
  const values = parts.map((part) => {
    const trimmed = part.trim();
    const n = trimmed === "" ? 0 : Number(trimmed);
    return Number.isFinite(n) ? n : 0;
  });
  if (length === undefined) return values;
  const n = Math.max(0, Math.floor(length));
  return values.length >= n ? values.slice(0, n) : values.concat(new Array<number>(n - values.length).fill(0));
}

/** Splits a comma-separated label list (e.g. `times`), trimming each label; blank text gives []. */
export function parseLabels(text: string | null | undefined): string[] {
  return text == null || text.trim() === "" ? [] : text.split(",").map((s) => s.trim());
}

/**
 * Joins values with commas. Missing or non-finite values are written blank (they parse back as 0).
 * `decimals` rounds, which also hides float noise such as 0.30000000000000004; trailing zeros dropped.
 */
export function formatSeries(values: readonly (number | null | undefined)[], decimals?: number): string {
  return values
    .map((v) => {
      if (typeof v !== "number" || !Number.isFinite(v)) return "";
      return decimals === undefined ? String(v) : String(Number(v.toFixed(decimals)));
    })
    .join(",");
}

export function sumSeries(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) if (Number.isFinite(v)) sum += v;
  return sum;
}

export const TEN_MINUTES_MS = 10 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;

/** 10-minute keys (the base measurement step) or hourly keys (hourly rollups). */
export type SeriesResolution = "tenMinute" | "hourly";

export function seriesStepMs(resolution: SeriesResolution): number {
  return resolution === "hourly" ? HOUR_MS : TEN_MINUTES_MS;
}

export interface TimeSeriesWindow {
  /** Window start (epoch ms), inclusive; rounded up to a step boundary. */
  from: number;
  /** Window end (epoch ms), exclusive. */
  to: number;
  resolution: SeriesResolution;
  /** Keys after this instant are not produced (SPEC §4 "never go past now"). */
  now: number;
}

/**
 * Epoch-ms keys stepping 10 minutes (1 hour for hourly) from `from` up to `to` (exclusive), never
 * past `now`. Steps are aligned to the epoch, which equals local alignment for Asia/Seoul (UTC+9,
 * no daylight saving). A whole day therefore has 144 ten-minute keys or 24 hourly keys.
 */
export function timeSeriesKeys({ from, to, resolution, now }: TimeSeriesWindow): number[] {
  const step = seriesStepMs(resolution);
  const last = Math.min(to - 1, now);
  const keys: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= last; t += step) keys.push(t);
  return keys;
}

/** Only hourly data (anything coarser than the 10-minute mode) is shifted. */
export function needsHourlyShift(resolution: SeriesResolution): boolean {
  return resolution === "hourly";
}

/**
 * SPEC §4 hourly rule: an hourly bucket keyed by its start hour is plotted at its end hour (the
 * energy of 09:00–10:00 appears at 10:00), so every key moves one hour later; the first entry is
 * skipped because hourly queries start one bucket before the window (it belongs to the previous
 * window). Every series given is cut the same way, keeping keys and values aligned.
 */
export function shiftHourly<T>(
  times: readonly number[],
  ...series: readonly (readonly T[])[]
): { times: number[]; series: T[][] } {
  return {
    times: times.slice(1).map((t) => t + HOUR_MS),
    series: series.map((s) => s.slice(1)),
  };
}
