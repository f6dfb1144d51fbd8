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
import { DAY_MS, SEOUL_OFFSET_MS, seoulDayIndex, seoulDayStart } from "./seoul-clock";

dayjs.extend(utc);
dayjs.extend(customParseFormat);

export * from "./seoul-clock";

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
