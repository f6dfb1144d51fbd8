import { describe, expect, it } from "vitest";
import { parseSeoul } from "./seoul-time";
import { pageIn, rowsPerPage } from "./statistics-view";
import {
  axisLabel,
  bucketLabel,
  bucketStart,
  bucketStarts,
  co2AvoidedKg,
  completenessPct,
  expectedByBucket,
  isGap,
  parsePeriod,
  reportPr,
  reportRowSums,
  presetPeriod,
  revenueWon,
  spanProblem,
  summarise,
} from "./statistics";

const at = (s: string) => parseSeoul(s)!;

describe("report steps", () => {
  it("aligns sub-day units to the clock and days and months to Seoul midnight", () => {
    expect(bucketLabel(bucketStart(at("2026-03-05 13:47"), "30"), "30")).toBe("2026-03-05 13:30");
    expect(bucketLabel(bucketStart(at("2026-03-05 13:47"), "10"), "10")).toBe("2026-03-05 13:40");
    expect(bucketStart(at("2026-03-05 00:10"), "day")).toBe(at("2026-03-05"));
    expect(bucketLabel(bucketStart(at("2026-03-01 00:00"), "month"), "month")).toBe("2026-03");
  });
  it("lists every step of a period, months of unequal length included", () => {
    const year = presetPeriod("year", at("2026-06-10"));
    expect(bucketStarts(year.start, year.end, "month").map((b) => bucketLabel(b, "month"))).toHaveLength(12);
    expect(bucketStarts(year.start, year.end, "day")).toHaveLength(365);
    const day = presetPeriod("day", at("2026-06-10 15:00"));
    expect(bucketStarts(day.start, day.end, "30")).toHaveLength(48);
    const week = presetPeriod("week", at("2026-11-25"));
    expect(bucketLabel(week.start, "day")).toBe("2026-11-23"); // a Monday
  });
});

describe("periods", () => {
  it("takes a bare end date as the whole day", () => {
    const p = parsePeriod("2026-01-01", "2026-12-31");
    expect(p).toEqual({ start: at("2026-01-01"), end: at("2027-01-01") });
  });
  it("refuses a start after the end and impossible dates", () => {
    expect(parsePeriod("2026-02-02", "2026-02-01")).toEqual({ error: "order" });
    expect(parsePeriod("2026-02-30", "2026-03-01")).toEqual({ error: "start" });
    expect(parsePeriod("2026-02-01", "soon")).toEqual({ error: "end" });
  });
  it("refuses a decade at unit 10 but allows it by day", () => {
    const decade = parsePeriod("2016-01-01", "2025-12-31") as { start: number; end: number };
    expect(spanProblem(decade, "10")).toBe("period_too_long_for_unit");
    expect(spanProblem(decade, "day")).toBeNull();
    expect(spanProblem(parsePeriod("2026-01-01", "2026-01-31") as { start: number; end: number }, "10")).toBeNull();
  });
});

describe("completeness", () => {
  it("expects one reading per 10 minutes, only in daylight when asked, never after the end", () => {
    const d = at("2026-06-10");
    const bounds = [d, d + 3_600_000, d + 2 * 3_600_000];
    expect(expectedByBucket(bounds, d, d + 2 * 3_600_000)).toEqual([6, 6]);
    expect(expectedByBucket(bounds, d, d + 90 * 60_000)).toEqual([6, 3]);
    // daylight 00:30–01:20 → 3 steps in the first hour (00:30, 00:40, 00:50), 2 in the second (01:00, 01:10)
    expect(expectedByBucket(bounds, d, d + 7_200_000, [[d + 30 * 60_000, d + 80 * 60_000]])).toEqual([3, 2]);
  });
  it("says how much of the expected data arrived", () => {
    expect(completenessPct(45, 48)).toBe(93.8);
    expect(completenessPct(50, 48)).toBe(100);
    expect(completenessPct(0, 0)).toBeNull();
    expect(isGap(47, 48)).toBe(true);
    expect(isGap(0, 0)).toBe(false);
  });
});

describe("summary figures", () => {
  it("computes Y_f, PR, CO₂ and revenue from the documented constants", () => {
    // 100 kWp (raw 10 000), 500 kWh, 6 kWh/m² of plane-of-array irradiation: Y_f 5 h, Y_r 6 h, PR 0.833
    const one = reportRowSums([{ energy_wh: 500_000, iis_wh: 6_000 }], 10_000);
    expect(reportPr(one, 10_000).pr).toBeCloseTo(5 / 6, 6);
    expect(reportPr(reportRowSums([{ energy_wh: 500_000, iis_wh: null }], 10_000), 10_000).pr).toBeNull();
    expect(co2AvoidedKg(1_000_000)).toBeCloseTo(459.4, 6);
    expect(revenueWon(1_000_000)).toEqual({ smp: 130_000, rec: 70_000, total: 200_000 });
    const s = summarise({
      capa: 10_000,
      energyWh: 500_000,
      peakW: 80_000,
      irradiationWh: 6_000,
      sums: one,
      samples: 90,
      expected: 100,
      hideCo2: true,
      hideRevenue: false,
    });
    expect(s.genHours).toBe(5);
    expect(s.pr).toBeCloseTo(5 / 6, 6);
    expect(s.co2_kg).toBeUndefined();
    expect(s.revenue?.total).toBe(100_000);
    expect(s.completeness).toBe(90);
  });
});

describe("step labels (formatSeoul's fixed offset)", () => {
  it("write the Seoul step across midnight, month and year ends", () => {
    const newYear = Date.UTC(2025, 11, 31, 15, 0); // 2026-01-01 00:00 KST
    expect(bucketLabel(newYear, "60")).toBe("2026-01-01 00:00");
    expect(bucketLabel(newYear - 60_000, "10")).toBe("2025-12-31 23:59");
    expect(bucketLabel(newYear, "day")).toBe("2026-01-01");
    expect(bucketLabel(newYear - 1, "month")).toBe("2025-12");
    expect(axisLabel(newYear + 5 * 60_000, "10", true)).toBe("00:05");
    expect(axisLabel(newYear + 5 * 60_000, "10", false)).toBe("01-01 00:05");
    expect(axisLabel(newYear - 1, "day", false)).toBe("12-31");
  });
});

describe("step table pages", () => {
  it("pages 100 rows on screen and 500 in the print view, and maps a page between them by its first row", () => {
    expect(rowsPerPage({ print: false })).toBe(100);
    expect(rowsPerPage({ print: true })).toBe(500);
    // Screen page 7 shows rows 601–700: the print view's page 2 (rows 501–1000) holds them.
    expect(pageIn({ page: 7, print: false }, true)).toBe(2);
    expect(pageIn({ page: 1, print: false }, true)).toBe(1);
    // Back: the print view's page 2 starts at row 501, the screen's page 6.
    expect(pageIn({ page: 2, print: true }, false)).toBe(6);
  });
});

describe("PR with a sensor fault (issue 26)", () => {
  // 100 kWp plant, a sunny day in 30-minute rows: 40 kWh and 500 Wh/m² per row over 16 rows (PR 0.8). The sensor
  // is silent for 6 rows: those rows have energy and no irradiance, or (a whole day in one row) 0.62 coverage.
  const rows = Array.from({ length: 16 }, (_, i) => ({
    energy_wh: 40_000,
    iis_wh: i < 6 ? null : 500,
    iis_cov: i < 6 ? null : 1,
  }));
  it("drops a step missing G from both sums: PR stays the plant's, never above 1", () => {
    const { pr, withheld } = reportPr(reportRowSums(rows.slice(0, 12), 10_000), 10_000);
    // 6 of 12 lit rows kept: coverage 0.5, below the threshold — withheld, not a number
    expect(pr).toBeNull();
    expect(withheld).toBe("irradiance_coverage");
    const most = reportPr(reportRowSums([...rows.slice(5), ...rows.slice(6)], 10_000), 10_000);
    // 1 dropped of 21: coverage 0.95, kept; PR over the kept rows is the true 0.8
    expect(most.withheld).toBeNull();
    expect(most.pr).toBeCloseTo(0.8, 9);
  });
  it("a day row whose sensor covered too little of the production has no PR (it was 1.3)", () => {
    const day = { energy_wh: 640_000, iis_wh: 5_000, iis_cov: 10 / 16 };
    const r = reportPr(reportRowSums([day], 10_000), 10_000);
    expect(r.pr).toBeNull();
    expect(r.withheld).toBe("irradiance_coverage");
    // The sum of the day energy against the hours measured would have been 640 / (100 × 5) = 1.28.
    expect(reportPr(reportRowSums([{ ...day, iis_cov: 1 }], 10_000), 10_000).pr).toBeCloseTo(1.28, 9);
  });
});
