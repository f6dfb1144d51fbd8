import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import {
  addSeoul,
  formatSeoul,
  SEOUL_TZ,
  type SeoulFormat,
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
  it("parses Seoul wall-clock text strictly", () => {
    expect(parseSeoul("2026-03-01 00:00:00")).toBe(MAR1);
    expect(parseSeoul("2026-03-01")).toBe(MAR1);
    expect(parseSeoul("2026-03-01T13:05")).toBe(MAR1 + 13 * 3_600_000 + 5 * 60_000);
    expect(parseSeoul("2026-02-30")).toBeNull();
    expect(parseSeoul("2026-13-01 00:00:00")).toBeNull();
    expect(parseSeoul("yesterday")).toBeNull();
    expect(parseSeoul("")).toBeNull();
  });
  it("formats and parses by the fixed offset exactly as the time zone database does, daylight saving of 1988 included", () => {
    const patterns: SeoulFormat[] = [
      "YYYY-MM-DD",
      "YYYY-MM-DD HH:mm",
      "YYYY-MM-DD HH:mm:ss",
      "HH:mm",
      "MM-DD HH:mm",
      "YYYY-MM",
      "YYYY",
      "MM-DD",
    ];
    // Korea's last daylight saving time: 1988-05-08 02:00 KST to 1988-10-09 03:00 KDT (UTC+10).
    const instants = [
      Date.UTC(1988, 6, 1, 12),
      Date.UTC(1988, 9, 8, 16, 59),
      Date.UTC(1988, 9, 8, 17),
      Date.UTC(1999, 11, 31, 14, 59, 59),
      Date.UTC(1999, 11, 31, 15),
      MAR1 - 1,
      MAR1,
    ];
    let x = 0x2545f491;
    for (let i = 0; i < 100; i++) {
      x = (x * 1_103_515_245 + 12_345) % 2 ** 31; // a fixed pseudo-random walk over 1980–2100
      instants.push(Date.UTC(1980, 0, 1) + Math.floor((x / 2 ** 31) * 120 * 365.25 * 86_400_000));
    }
    for (const ts of instants) {
      for (const p of patterns) expect(formatSeoul(ts, p), `${ts} ${p}`).toBe(dayjs(ts).tz(SEOUL_TZ).format(p));
      const text = formatSeoul(ts, "YYYY-MM-DD HH:mm:ss");
      expect(parseSeoul(text), text).toBe(dayjs.tz(text, "YYYY-MM-DD HH:mm:ss", SEOUL_TZ).valueOf());
    }
    expect(formatSeoul(Date.UTC(1988, 6, 1, 12), "HH:mm")).toBe("22:00");
  });
});
