import { describe, expect, it } from "vitest";
import { DAY_MS, alignToStep, civilFromDays, kstDayIndex, kstDayStartMs, kstHourOfDay } from "./time";

describe("time helpers", () => {
  it("civilFromDays agrees with Date", () => {
    for (let days = -800; days < 30000; days += 37) {
      const d = new Date(days * DAY_MS);
      const c = civilFromDays(days);
      expect([c.year, c.month, c.day]).toEqual([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
      const doy = Math.round((Date.UTC(c.year, c.month - 1, c.day) - Date.UTC(c.year, 0, 1)) / DAY_MS) + 1;
      expect(c.dayOfYear).toBe(doy);
    }
  });

  it("KST days start at 15:00 UTC of the previous date", () => {
    const t = Date.UTC(2026, 5, 20, 15, 0); // 2026-06-21 00:00 KST
    expect(kstDayIndex(t)).toBe(kstDayIndex(t - 1) + 1);
    expect(kstDayStartMs(kstDayIndex(t))).toBe(t);
    expect(civilFromDays(kstDayIndex(t))).toMatchObject({ year: 2026, month: 6, day: 21 });
    expect(kstHourOfDay(Date.UTC(2026, 5, 21, 3, 30))).toBeCloseTo(12.5, 9);
    expect(alignToStep(Date.UTC(2026, 0, 1, 0, 17, 5))).toBe(Date.UTC(2026, 0, 1, 0, 10));
  });
});
