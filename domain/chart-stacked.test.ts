import { describe, expect, it } from "vitest";
import { stackedHourAxisMax, stackedHourBars } from "./chart";

describe("stackedHourBars (SPEC §2 stacked bar card: generation time and irradiance)", () => {
  it("turns each hour's kWh into generation time (÷ capacity) and its irradiance into sun hours (÷ 1000)", () => {
    const bars = stackedHourBars(["10:00", "11:00"], [50, 120], [600, 1300], 100);
    expect(bars).toEqual([
      { label: "10:00", genHours: 0.5, irrHours: 0.6 },
      { label: "11:00", genHours: 1, irrHours: 1.3 },
    ]);
    expect(stackedHourAxisMax(bars)).toBe(2);
  });
  it("floors bad values at 0 and cannot tell generation time without a capacity", () => {
    expect(stackedHourBars(["10:00"], [-5], [Number.NaN], 100)).toEqual([{ label: "10:00", genHours: 0, irrHours: 0 }]);
    expect(stackedHourBars(["10:00"], [50], [], 0)).toEqual([{ label: "10:00", genHours: 0, irrHours: 0 }]);
    expect(stackedHourAxisMax(stackedHourBars(["10:00"], [50], [300], 100))).toBe(1);
  });
});
