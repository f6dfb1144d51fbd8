import { describe, expect, it } from "vitest";
import {
  addSeoul,
  formatSeoul,
  parseSeoul,
  seoulDayIndex,
  seoulDayIndexStart,
  seoulDayStart,
  seoulHourOfDay,
  seoulMonthStart,
  seoulPeriodStart,
  seoulYearStart,
} from "./seoul-time";

// 2026-03-01 00:00 KST = 2026-02-28 15:00 UTC
const MAR1 = Date.UTC(2026, 1, 28, 15);

describe("Seoul calendar", () => {
  it("days start at Seoul midnight", () => {
    expect(seoulDayStart(MAR1 + 5 * 3_600_000)).toBe(MAR1);
    expect(seoulDayStart(MAR1 - 1)).toBe(MAR1 - 86_400_000);
    expect(seoulHourOfDay(MAR1 + 90 * 60_000)).toBe(1.5);
    expect(seoulDayIndex(MAR1) - seoulDayIndex(MAR1 - 1)).toBe(1);
  });
  it("months and years follow the Seoul calendar, not UTC", () => {
    expect(seoulMonthStart(MAR1 + 1)).toBe(MAR1);
    expect(seoulMonthStart(MAR1 - 1)).toBe(Date.UTC(2026, 0, 31, 15));
    expect(seoulYearStart(MAR1)).toBe(Date.UTC(2025, 11, 31, 15));
    expect(addSeoul(MAR1, 1, "month")).toBe(Date.UTC(2026, 2, 31, 15));
    expect(addSeoul(MAR1, -1, "day")).toBe(MAR1 - 86_400_000);
  });
  it("a day index maps back to its Seoul midnight", () => {
    expect(seoulDayIndexStart(seoulDayIndex(MAR1 + 7 * 3_600_000))).toBe(MAR1);
    expect(seoulDayIndexStart(seoulDayIndex(MAR1 - 1))).toBe(MAR1 - 86_400_000);
  });
  it("walks month starts across a year end (the partition maintenance's loop)", () => {
    const starts: string[] = [];
    for (let m = seoulMonthStart(Date.UTC(2025, 10, 30, 16)); m <= MAR1; m = addSeoul(m, 1, "month"))
      starts.push(formatSeoul(m, "YYYY-MM-DD HH:mm"));
    expect(starts).toEqual(["2025-12-01 00:00", "2026-01-01 00:00", "2026-02-01 00:00", "2026-03-01 00:00"]);
    // The hand-made offset formula this replaces gave the same instants.
    expect(seoulMonthStart(MAR1 + 40 * 86_400_000)).toBe(Date.UTC(2026, 3, 1) - 9 * 3_600_000);
  });
  it("weeks start on Monday", () => {
    // 2026-03-01 is a Sunday: its week began Monday 2026-02-23
    expect(formatSeoul(seoulPeriodStart(MAR1 + 3_600_000, "week"), "YYYY-MM-DD HH:mm")).toBe("2026-02-23 00:00");
  });
  it("formats with a fixed 24-hour pattern", () => {
    expect(formatSeoul(MAR1 + 13 * 3_600_000 + 5 * 60_000)).toBe("2026-03-01 13:05");
    expect(formatSeoul(MAR1, "YYYY-MM-DD HH:mm:ss")).toBe("2026-03-01 00:00:00");
  });
  it("writes 00:05 KST as 00 (never 24), 23:59, and month and year ends", () => {
    const at = (y: number, mo: number, d: number, h: number, mi: number) => Date.UTC(y, mo - 1, d, h, mi) - 9 * 3_600_000;
    expect(formatSeoul(at(2026, 11, 27, 0, 5), "HH:mm")).toBe("00:05");
    expect(formatSeoul(at(2026, 11, 27, 0, 5), "YYYY-MM-DD HH:mm:ss")).toBe("2026-11-27 00:05:00");
    expect(formatSeoul(at(2026, 11, 26, 23, 59))).toBe("2026-11-26 23:59");
    // Month end (and a leap day), year end: the Seoul date, not the UTC one 9 hours behind.
    expect(formatSeoul(at(2028, 2, 29, 23, 59), "YYYY-MM-DD")).toBe("2028-02-29");
    expect(formatSeoul(at(2028, 3, 1, 0, 0), "MM-DD HH:mm")).toBe("03-01 00:00");
    expect(formatSeoul(at(2025, 12, 31, 23, 59), "YYYY-MM-DD HH:mm")).toBe("2025-12-31 23:59");
    expect(formatSeoul(at(2026, 1, 1, 0, 5), "YYYY")).toBe("2026");
    expect(formatSeoul(at(2026, 1, 1, 0, 5), "YYYY-MM")).toBe("2026-01");
    expect(formatSeoul(at(2026, 1, 1, 0, 5), "MM-DD")).toBe("01-01");
    expect(seoulMonthStart(at(2026, 1, 1, 0, 5))).toBe(at(2026, 1, 1, 0, 0));
    expect(seoulYearStart(at(2025, 12, 31, 23, 59))).toBe(at(2025, 1, 1, 0, 0));
    expect(addSeoul(at(2026, 1, 31, 0, 5), 1, "month")).toBe(at(2026, 2, 28, 0, 5));
    expect(parseSeoul("2026-11-27 00:05")).toBe(at(2026, 11, 27, 0, 5));
    expect(parseSeoul("2025-12-31T23:59:00")).toBe(at(2025, 12, 31, 23, 59));
    expect(parseSeoul("2026-11-27 24:05")).toBeNull();
    expect(parseSeoul("2026-11-27 23:60")).toBeNull();
    expect(formatSeoul(Number.NaN)).toBe("Invalid Date");
  });
  it("agrees with the zone database (Intl, Asia/Seoul, h23) from 1989 on, every hour and minute of the clock", () => {
    const intl = new Intl.DateTimeFormat("en-CA", {
      timeZone: "Asia/Seoul",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    const viaIntl = (ts: number) => {
      const p = Object.fromEntries(intl.formatToParts(ts).map((x) => [x.type, x.value]));
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
    };
    for (let ts = Date.UTC(1989, 0, 1); ts < Date.UTC(2045, 0, 1); ts += 3_600_000 * 241 + 7 * 60_000)
      expect(formatSeoul(ts)).toBe(viaIntl(ts));
  });
  it("parses Seoul wall-clock text strictly", () => {
    expect(parseSeoul("2026-03-01 00:00:00")).toBe(MAR1);
    expect(parseSeoul("2026-03-01")).toBe(MAR1);
    expect(parseSeoul("2026-03-01T13:05")).toBe(MAR1 + 13 * 3_600_000 + 5 * 60_000);
    expect(parseSeoul("2026-02-30")).toBeNull();
    expect(parseSeoul("2026-13-01 00:00:00")).toBeNull();
    expect(parseSeoul("yesterday")).toBeNull();
    expect(parseSeoul("")).toBeNull();
  });
});
