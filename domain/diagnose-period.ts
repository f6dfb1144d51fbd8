// Periods of the measurement and diagnosis calls (SPEC §7: 'YYYY-MM-DD HH:mm:ss' windows and a unit in
// minutes). Which units exist, how long a window each may cover, and which store resolution answers it:
// raw 10-minute rows only for short windows, hourly and daily rollups beyond (a year of raw rows is never
// scanned).
import { parseSeoul } from "./seoul-time";

/** Units in minutes: raw 10-minute steps, hourly and daily rollups. */
export const DIAGNOSE_UNITS = [10, 60, 1440] as const;
export type DiagnoseUnit = (typeof DIAGNOSE_UNITS)[number];

/** Longest window per unit, days. */
export const MAX_WINDOW_DAYS: Readonly<Record<DiagnoseUnit, number>> = { 10: 31, 60: 366, 1440: 3_700 };

export type PeriodProblem = "bad_start" | "bad_end" | "start_after_end" | "bad_unit" | "window_too_long";

export interface Period {
  from: number;
  to: number;
  unit: DiagnoseUnit;
}

export function isDiagnoseUnit(v: unknown): v is DiagnoseUnit {
  return (DIAGNOSE_UNITS as readonly unknown[]).includes(v);
}

/** A window in Seoul time and a unit → epoch ms [from, to), or what is wrong with it (field → problem). */
export function checkPeriod(
  start: string,
  end: string,
  unit: number,
): { ok: true; period: Period } | { ok: false; field: "start" | "end" | "unit"; problem: PeriodProblem } {
  const from = parseSeoul(start);
  const to = parseSeoul(end);
  if (from === null) return { ok: false, field: "start", problem: "bad_start" };
  if (to === null) return { ok: false, field: "end", problem: "bad_end" };
  if (!isDiagnoseUnit(unit)) return { ok: false, field: "unit", problem: "bad_unit" };
  if (from >= to) return { ok: false, field: "start", problem: "start_after_end" };
  if (to - from > MAX_WINDOW_DAYS[unit] * 86_400_000) return { ok: false, field: "end", problem: "window_too_long" };
  return { ok: true, period: { from, to, unit } };
}

/** Bucket start of a timestamp at a unit (days are Seoul calendar days). */
export function bucketOf(ts: number, unit: DiagnoseUnit): number {
  const ms = unit * 60_000;
  const offset = unit === 1440 ? 9 * 3_600_000 : 0;
  return ts - ((((ts + offset) % ms) + ms) % ms);
}

/** Bucket keys of [from, to) at a unit, never past `now` (SPEC §4). */
export function bucketKeys(p: Period, now: number): number[] {
  const step = p.unit * 60_000;
  const keys: number[] = [];
  let t = bucketOf(p.from, p.unit);
  if (t < p.from) t += step;
  for (; t < p.to && t <= now; t += step) keys.push(t);
  return keys;
}
