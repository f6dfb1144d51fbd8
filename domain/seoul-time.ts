/**
 * Time as users see it: Asia/Seoul, everywhere, on both sides. Korea has kept UTC+9 without daylight saving
 * since 1988, so calendar days in the hot paths (rollups in SQL, the simulator) are exact with the fixed
 * offset below; months, years, parsing and formatting go through dayjs with its timezone plugin, with a fixed
 * 24-hour format so the server and the browser render the same text (no "AM"/"오전" mismatch on hydration).
 */
import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat.js";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";

dayjs.extend(utc);
dayjs.extend(timezone);
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

const seoul = (ts: number) => dayjs(ts).tz(SEOUL_TZ);

export const seoulMonthStart = (ts: number): number => seoul(ts).startOf("month").valueOf();
export const seoulYearStart = (ts: number): number => seoul(ts).startOf("year").valueOf();
/** ts moved by whole Seoul calendar units (months keep the day where it exists, like dayjs). */
export const addSeoul = (ts: number, n: number, unit: "day" | "week" | "month" | "year"): number =>
  seoul(ts).add(n, unit).valueOf();
/** Start of the Seoul calendar period (day, ISO-less week starting Monday, month, year) containing ts. */
export function seoulPeriodStart(ts: number, unit: "day" | "week" | "month" | "year"): number {
  if (unit === "day") return seoulDayStart(ts);
  if (unit === "week") {
    const day = seoulDayStart(ts);
    const weekday = (seoulDayIndex(ts) + 3) % 7; // 1970-01-01 was a Thursday; 0 = Monday
    return day - weekday * DAY_MS;
  }
  return seoul(ts).startOf(unit).valueOf();
}

export type SeoulFormat =
  "YYYY-MM-DD" | "YYYY-MM-DD HH:mm" | "YYYY-MM-DD HH:mm:ss" | "HH:mm" | "MM-DD HH:mm" | "YYYY-MM" | "YYYY" | "MM-DD";

/**
 * Since the end of Korea's last daylight saving time (1988-10-09 03:00 KDT) the offset is UTC+9 all year: times from
 * then on are formatted and parsed by arithmetic (dayjs's timezone plugin asks Intl for every call, about 0.2 ms each:
 * the largest item of the alarm screen's server render); earlier ones, and those past year 9999, go through dayjs.
 */
const FIXED_OFFSET_SINCE = Date.UTC(1988, 9, 8, 17);
const FIXED_OFFSET_UNTIL = Date.UTC(9999, 11, 31) - SEOUL_OFFSET_MS;
const fixedOffset = (ts: number) => ts >= FIXED_OFFSET_SINCE && ts < FIXED_OFFSET_UNTIL;

/** Formats epoch ms in Seoul time with a fixed, locale-free pattern (24-hour clock). */
export function formatSeoul(ts: number, pattern: SeoulFormat = "YYYY-MM-DD HH:mm"): string {
  if (!fixedOffset(ts)) return seoul(ts).format(pattern);
  const iso = new Date(ts + SEOUL_OFFSET_MS).toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ
  switch (pattern) {
    case "YYYY-MM-DD":
      return iso.slice(0, 10);
    case "YYYY-MM-DD HH:mm":
      return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
    case "YYYY-MM-DD HH:mm:ss":
      return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
    case "HH:mm":
      return iso.slice(11, 16);
    case "MM-DD HH:mm":
      return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
    case "YYYY-MM":
      return iso.slice(0, 7);
    case "YYYY":
      return iso.slice(0, 4);
    case "MM-DD":
      return iso.slice(5, 10);
  }
  return seoul(ts).format(pattern);
}

const ACCEPTED = ["YYYY-MM-DD HH:mm:ss", "YYYY-MM-DD HH:mm", "YYYY-MM-DDTHH:mm:ss", "YYYY-MM-DDTHH:mm", "YYYY-MM-DD"];

/**
 * Parses a Seoul wall-clock time ('YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm', the same with 'T', or a bare
 * 'YYYY-MM-DD' for midnight) strictly: "2026-02-30" or "2026-13-01" is null, not a day in March.
 */
export function parseSeoul(text: string): number | null {
  const s = text.trim();
  for (const f of ACCEPTED) {
    if (s.length !== f.length) continue;
    if (!dayjs(s, f, true).isValid()) continue;
    const fixed = dayjs.utc(s, f).valueOf() - SEOUL_OFFSET_MS;
    if (fixedOffset(fixed)) return fixed;
    const d = dayjs.tz(s, f, SEOUL_TZ);
    if (d.isValid()) return d.valueOf();
  }
  return null;
}
