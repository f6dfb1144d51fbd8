// Time arithmetic the simulator needs, without Date allocations in hot loops. The Seoul calendar itself is
// written once, in domain/seoul-time.ts; the simulator's names for it ("KST") are the same functions.
import { DAY_MS, STEP_MS } from "../../domain/seoul-time";

export { DAY_MS, HOUR_MS, MINUTE_MS, STEP_MS } from "../../domain/seoul-time";
export const STEPS_PER_DAY = DAY_MS / STEP_MS;
export {
  /** Index of the KST calendar day containing tMs (days since 1970-01-01 KST). */
  seoulDayIndex as kstDayIndex,
  /** UTC ms of 00:00 KST of the given KST day index. */
  seoulDayIndexStart as kstDayStartMs,
  /** Hours since KST midnight, 0 ≤ h < 24 (fractional). */
  seoulHourOfDay as kstHourOfDay,
} from "../../domain/seoul-time";

/** Round down to the 10-minute step grid. */
export function alignToStep(tMs: number): number {
  return Math.floor(tMs / STEP_MS) * STEP_MS;
}

/** Global step number; stable key for per-step deterministic noise. */
export function stepIndex(tMs: number): number {
  return Math.floor(tMs / STEP_MS);
}

export interface CivilDate {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
  /** 1–366 */
  dayOfYear: number;
}

/** Proleptic Gregorian date of a day count since 1970-01-01 (Hinnant's civil_from_days). */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doyFromMarch = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doyFromMarch + 2) / 153);
  const day = doyFromMarch - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const dayOfYear = month <= 2 ? doyFromMarch - 305 : doyFromMarch + 60 + (leap ? 1 : 0);
  return { year, month, day, dayOfYear };
}

/** KST calendar date of a KST day index. */
export function kstCivilDate(day: number): CivilDate {
  return civilFromDays(day);
}
