/**
 * Time as users see it: Asia/Seoul, everywhere, on both sides — the one module that writes and reads Seoul
 * times (status screens, statistics and diagnosis labels, series keys, forms). Korea has kept UTC+9 without
 * daylight saving since 1988, so everything here is plain arithmetic on that fixed offset: no Intl, no zone
 * database. Intl is what made server and browser disagree (one ICU writes the hour after midnight as "24:05"
 * with hour12:false, another "00:05"; "PM" against "오후"), and dayjs's timezone plugin goes through Intl too.
 * dayjs is used in UTC mode only (its calendar arithmetic and strict parsing), on the wall clock shifted by
 * the offset. Times before 1988 (DST in 1987–88, UTC+8:30 until 1961) are written by the same offset.
 */
import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat.js";
import utc from "dayjs/plugin/utc.js";

dayjs.extend(utc);
dayjs.extend(customParseFormat);

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

/** The Seoul wall clock of ts as a UTC dayjs (calendar arithmetic without a zone); `.valueOf() - offset` maps back. */
const wall = (ts: number) => dayjs.utc(ts + SEOUL_OFFSET_MS);
const fromWall = (d: dayjs.Dayjs): number => d.valueOf() - SEOUL_OFFSET_MS;

export const seoulMonthStart = (ts: number): number => fromWall(wall(ts).startOf("month"));
export const seoulYearStart = (ts: number): number => fromWall(wall(ts).startOf("year"));
/** ts moved by whole Seoul calendar units (months keep the day where it exists, like dayjs). */
export const addSeoul = (ts: number, n: number, unit: "day" | "week" | "month" | "year"): number =>
  fromWall(wall(ts).add(n, unit));
/** Start of the Seoul calendar period (day, ISO-less week starting Monday, month, year) containing ts. */
export function seoulPeriodStart(ts: number, unit: "day" | "week" | "month" | "year"): number {
  if (unit === "day") return seoulDayStart(ts);
  if (unit === "week") {
    const day = seoulDayStart(ts);
    const weekday = (seoulDayIndex(ts) + 3) % 7; // 1970-01-01 was a Thursday; 0 = Monday
    return day - weekday * DAY_MS;
  }
  return fromWall(wall(ts).startOf(unit));
}

export type SeoulFormat =
  "YYYY-MM-DD" | "YYYY-MM-DD HH:mm" | "YYYY-MM-DD HH:mm:ss" | "HH:mm" | "MM-DD HH:mm" | "YYYY-MM" | "YYYY" | "MM-DD";

/** Years 0–9999: toISOString writes 'YYYY-MM-DDTHH:mm:ss.sssZ' (outside them a sign and six digits). */
const ISO_MIN = Date.UTC(0, 0, 1) - SEOUL_OFFSET_MS;
const ISO_MAX = Date.UTC(10000, 0, 1) - SEOUL_OFFSET_MS;

/**
 * Formats epoch ms in Seoul time with a fixed, locale-free pattern (24-hour clock, 00–23): the same text in
 * Node and every browser. Cheap enough for every row of a report export (a slice of toISOString).
 */
export function formatSeoul(ts: number, pattern: SeoulFormat = "YYYY-MM-DD HH:mm"): string {
  if (!(ts >= ISO_MIN && ts < ISO_MAX)) return wall(ts).format(pattern); // "Invalid Date" for NaN
  const s = new Date(ts + SEOUL_OFFSET_MS).toISOString();
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

const ACCEPTED = ["YYYY-MM-DD HH:mm:ss", "YYYY-MM-DD HH:mm", "YYYY-MM-DDTHH:mm:ss", "YYYY-MM-DDTHH:mm", "YYYY-MM-DD"];

/**
 * Parses a Seoul wall-clock time ('YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm', the same with 'T', or a bare
 * 'YYYY-MM-DD' for midnight) strictly: "2026-02-30", "2026-13-01" or "24:00" is null, not a later day.
 */
export function parseSeoul(text: string): number | null {
  const s = text.trim();
  for (const f of ACCEPTED) {
    if (s.length !== f.length) continue;
    const d = dayjs.utc(s, f, true);
    if (d.isValid()) return fromWall(d);
  }
  return null;
}
