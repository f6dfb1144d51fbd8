import { describe, expect, it } from "vitest";
import { performanceFigures, reportBucket } from "../performance";
import { capacityTestPr, prWithAvailability } from "./capacity-test";

// pvcaptest's captest.prtest.perf_ratio on three hourly steps: E = 80, 90, 95 kWh; POA 850, 900, 1000 W/m²; P0 120 kWdc.
const base = { energyKwh: [80, 90, 95], poaWm2: [850, 900, 1000], dcNameplateKw: 120, stepHours: 1 };
const TOL = 1e-6;

describe("capacity-test PR (pvcaptest perf_ratio)", () => {
  it("PR 0.803030 = 265 kWh / (120 kW · 2.75 kWh/m²)", () => {
    const r = capacityTestPr(base);
    expect(Math.abs(r.pr! - 0.80303)).toBeLessThan(TOL);
    expect(r.energyKwh).toBe(265);
    expect(r.expectedKwh).toBeCloseTo(330, 9);
    expect(r.perStep.map((x) => Number(x!.toFixed(6)))).toEqual([0.784314, 0.833333, 0.791667]);
  });

  it("availability 0.9 for the whole test: PR 0.892256", () => {
    expect(Math.abs(capacityTestPr({ ...base, availability: 0.9 }).pr! - 0.892256)).toBeLessThan(TOL);
  });

  it("availability per step [0.9, 1, 0.95]: PR 0.844487", () => {
    expect(Math.abs(capacityTestPr({ ...base, availability: [0.9, 1, 0.95] }).pr! - 0.844487)).toBeLessThan(TOL);
  });

  it("degradation compounds as (1 − d)^year, d = 0.5 %: years 1/2/3 → 0.807066, 0.811121, 0.815197", () => {
    const prs = [1, 2, 3].map((year) => capacityTestPr({ ...base, degradation: 0.005, year }).pr!);
    [0.807066, 0.811121, 0.815197].forEach((want, i) => expect(Math.abs(prs[i]! - want)).toBeLessThan(TOL));
  });

  it("without availability and degradation it is the PR of domain/performance.ts over the same steps", () => {
    const buckets = base.energyKwh.map((e, i) =>
      reportBucket({ capaRaw: 120 * 100, energyWh: e * 1000, poaWhPerM2: base.poaWm2[i]! }),
    );
    expect(performanceFigures(buckets, 120).performanceRatio).toBeCloseTo(capacityTestPr(base).pr!, 12);
  });

  it("PR / A from a PR already computed is the scalar-availability case", () => {
    expect(Math.abs(prWithAvailability(capacityTestPr(base).pr, 0.9)! - 0.892256)).toBeLessThan(TOL);
    expect(prWithAvailability(0.8, 0)).toBeNull();
    expect(prWithAvailability(null, 0.9)).toBeNull();
  });

  it("nothing expected → null; series of unequal length are refused", () => {
    expect(capacityTestPr({ ...base, poaWm2: [0, 0, 0] }).pr).toBeNull();
    expect(() => capacityTestPr({ ...base, poaWm2: [850] })).toThrow(RangeError);
    expect(() => capacityTestPr({ ...base, availability: [1] })).toThrow(RangeError);
  });
});
