import { describe, expect, it } from "vitest";
import { mulberry32 } from "../random";
import { addOneYear, percentileSorted, yearOnYearDegradation, type DailyValue } from "./degradation";

const DAY = 86_400_000;

/** Daily data 2012-01-01 … 2015-01-01: y = 1 − 0.005 · days/365 + uniform noise of ±0.0005 (seeded). */
function synthetic(seed = 2012): DailyValue[] {
  const rand = mulberry32(seed);
  const start = Date.UTC(2012, 0, 1);
  const end = Date.UTC(2015, 0, 1);
  const out: DailyValue[] = [];
  for (let t = start; t <= end; t += DAY) {
    const days = (t - start) / DAY;
    out.push({ t, value: 1 - (0.005 * days) / 365 + (rand() * 2 - 1) * 0.0005 });
  }
  return out;
}

describe("year-on-year degradation (rdtools degradation_year_on_year)", () => {
  it("−0.50 %/yr on three years of daily data falling 0.5 %/yr with ±0.0005 noise, with its interval", () => {
    const data = synthetic();
    expect(data).toHaveLength(1097);
    const r = yearOnYearDegradation(data, { seed: 1 });
    if (!r.ok) throw new Error(r.reason);
    expect(r.ratePctPerYear.toFixed(2)).toBe("-0.50");
    expect(r.renormalizingFactor).toBeCloseTo(1 - (0.005 * 182) / 365, 3);
    // Every point from 2013-01-01 on has a partner a calendar year before.
    expect(r.slopes).toHaveLength(1097 - 366);
    const [lo, hi] = r.interval;
    expect(lo).toBeLessThan(r.ratePctPerYear);
    expect(hi).toBeGreaterThan(r.ratePctPerYear);
    // The noise of one slope is at most ±0.1 %/yr; the 68.2 % interval of the median of 731 is far narrower.
    expect(hi - lo).toBeGreaterThan(0);
    expect(hi - lo).toBeLessThan(0.01);
    expect(r.exceedanceLevel).toBeLessThanOrEqual(lo);
    // The figures of this data and seed (data seed 2012, resampling seed 1), fixed so a change of method shows.
    expect(r.ratePctPerYear).toBeCloseTo(-0.5011906090364504, 12);
    expect(lo).toBeCloseTo(-0.503899847480449, 12);
    expect(hi).toBeCloseTo(-0.49892406508803555, 12);
    expect(r.exceedanceLevel).toBeCloseTo(-0.5047495056744067, 12);
    // Deterministic: the same seed gives the same interval; another seed a close one.
    const again = yearOnYearDegradation(data, { seed: 1 });
    expect(again.ok && again.interval).toEqual(r.interval);
    const other = yearOnYearDegradation(data, { seed: 99 });
    if (!other.ok) throw new Error(other.reason);
    expect(Math.abs(other.interval[0] - lo)).toBeLessThan(0.002);
  });

  it("without noise every slope is exactly the rate over the first year's median", () => {
    const start = Date.UTC(2012, 0, 1);
    const data = Array.from({ length: 1097 }, (_, d) => ({ t: start + d * DAY, value: 1 - (0.005 * d) / 365 }));
    const r = yearOnYearDegradation(data, { recenter: false, reps: 200 });
    if (!r.ok) throw new Error(r.reason);
    for (const s of r.slopes) expect(s.pctPerYear).toBeCloseTo(-0.5, 9);
    expect(r.interval[0]).toBeCloseTo(-0.5, 9);
    expect(r.interval[1]).toBeCloseTo(-0.5, 9);
  });

  it("29 February pairs with 28 February a year later; a calendar year of a leap year is 366 days", () => {
    expect(new Date(addOneYear(Date.UTC(2012, 1, 29))).toISOString().slice(0, 10)).toBe("2013-02-28");
    expect(addOneYear(Date.UTC(2012, 0, 1)) - Date.UTC(2012, 0, 1)).toBe(366 * DAY);
  });

  it("says what is missing: less than two years, sub-daily data", () => {
    const short = synthetic().slice(0, 700);
    expect(yearOnYearDegradation(short)).toEqual({ ok: false, reason: "needs_two_years" });
    expect(yearOnYearDegradation([])).toEqual({ ok: false, reason: "needs_two_years" });
    const hourly = [
      { t: 0, value: 1 },
      { t: 3_600_000, value: 1 },
    ];
    expect(yearOnYearDegradation(hourly)).toEqual({ ok: false, reason: "sub_daily" });
  });

  it("percentiles interpolate linearly between ranks (numpy's default)", () => {
    expect(percentileSorted([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentileSorted([1, 2, 3, 4], 15.9)).toBeCloseTo(1.477, 12);
    expect(percentileSorted([10], 84.1)).toBe(10);
  });
});
