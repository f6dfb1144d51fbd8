/**
 * The Seoul clock by plain arithmetic on the fixed UTC+9 offset (see seoul-time.ts, which re-exports all of this
 * and adds the calendar arithmetic and parsing that use dayjs): the part the browser needs to write times, without
 * dayjs in its script.
 */
export const SEOUL_TZ = "Asia/Seoul";
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** The gateway reporting interval: every reading is for a 10-minute step. */
export const STEP_MS = 10 * MINUTE_MS;
/** UTC+9 all year (no DST since 1988): exact for calendar days, usable inside SQL. */
export const SEOUL_OFFSET_MS = 9 * HOUR_MS;

/** Epoch ms of 00:00 Seoul time of the day containing ts. */
export const seoulDayStart = (ts: number): number => ts - ((((ts + SEOUL_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS);
/** Days since 1970-01-01 in Seoul. */
export const seoulDayIndex = (ts: number): number => Math.floor((ts + SEOUL_OFFSET_MS) / DAY_MS);
/** Epoch ms of 00:00 Seoul time of a day index (the inverse of seoulDayIndex). */
export const seoulDayIndexStart = (day: number): number => day * DAY_MS - SEOUL_OFFSET_MS;
/** Hours since Seoul midnight, 0 ≤ h < 24 (fractional). */
export const seoulHourOfDay = (ts: number): number => (ts - seoulDayStart(ts)) / HOUR_MS;

export type SeoulFormat =
  "YYYY-MM-DD" | "YYYY-MM-DD HH:mm" | "YYYY-MM-DD HH:mm:ss" | "HH:mm" | "MM-DD HH:mm" | "YYYY-MM" | "YYYY" | "MM-DD";

/** Years 0–9999: toISOString writes 'YYYY-MM-DDTHH:mm:ss.sssZ' (outside them a sign and six digits). */
const ISO_MIN = Date.UTC(0, 0, 1) - SEOUL_OFFSET_MS;
const ISO_MAX = Date.UTC(10000, 0, 1) - SEOUL_OFFSET_MS;

/** toISOString's layout for a year outside 0–9999 (written as a plain number, as dayjs did). */
function wideIso(wall: number): string {
  const d = new Date(wall);
  const two = (n: number) => String(n).padStart(2, "0");
  const date = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/**
 * Formats epoch ms in Seoul time with a fixed, locale-free pattern (24-hour clock, 00–23): the same text in
 * Node and every browser. Cheap enough for every row of a report export (a slice of toISOString).
 */
export function formatSeoul(ts: number, pattern: SeoulFormat = "YYYY-MM-DD HH:mm"): string {
  if (Number.isNaN(ts)) return "Invalid Date";
  const s = ts >= ISO_MIN && ts < ISO_MAX ? new Date(ts + SEOUL_OFFSET_MS).toISOString() : wideIso(ts + SEOUL_OFFSET_MS);
  switch (pattern) {
    case "YYYY-MM-DD":
      return s.slice(0, 10);
    case "YYYY-MM-DD HH:mm":
      return `${s.slice(0, 10)} ${s.slice(11, 16)}`;
    case "YYYY-MM-DD HH:mm:ss":
      return `${s.slice(0, 10)} ${s.slice(11, 19)}`;
    case "HH:mm":
      return s.slice(11, 16);
    case "MM-DD HH:mm":
      return `${s.slice(5, 10)} ${s.slice(11, 16)}`;
    case "YYYY-MM":
      return s.slice(0, 7);
    case "YYYY":
      return s.slice(0, 4);
    case "MM-DD":
      return s.slice(5, 10);
  }
}
