import { describe, expect, it } from "vitest";
import { referenceGenerationKw } from "./reference-generation";
import {
  addSums,
  bucketCoverage,
  checkStrings,
  conversionEfficiency,
  correctedInsolation,
  DEFAULT_COEFFICIENTS,
  deviationFromMedian,
  expectedPowerKw,
  figuresFromSums,
  IRRADIANCE_COVERAGE_MIN,
  median,
  performanceFigures,
  performanceSums,
  reportBucket,
  stepBucket,
  temperatureFactor,
  type PerformanceBucket,
} from "./performance";

/** One hour at constant conditions as six raw steps. */
const hour = (capacityKw: number, powerKw: number | null, g: number | null, t: number | null) =>
  Array.from({ length: 6 }, () => stepBucket({ capacityKw, powerKw, poaWm2: g, moduleC: t }));

describe("IEC 61724-1 worked example (100 kWp, G 800 W/m², T 45 °C, 60 kW)", () => {
  it("C is 0.917 and the expected power 63.8 kW — the SPEC's reference generation", () => {
    expect(temperatureFactor(45)).toBeCloseTo(0.917, 3);
    expect(expectedPowerKw(100, 800, 45)).toBeCloseTo(63.8, 1);
    expect(expectedPowerKw(100, 800, 45)).toBeCloseTo(referenceGenerationKw(100, 800, 45), 9);
  });

  it("PR 0.75, PR_STC 0.818, EPI 0.94, Y_r 0.8 h and Y_f 0.6 h over one hour", () => {
    const f = performanceFigures(hour(100, 60, 800, 45), 100);
    expect(f.referenceYield).toBeCloseTo(0.8, 9);
    expect(f.finalYield).toBeCloseTo(0.6, 9);
    expect(f.performanceRatio).toBeCloseTo(0.75, 9);
    expect(f.performanceRatioStc).toBeCloseTo(0.818, 3);
    expect(f.energyPerformanceIndex).toBeCloseTo(0.94, 2);
    expect(f.expectedKwh).toBeCloseTo(63.8, 1);
    expect("availability" in f).toBe(false);
  });

  it("an hourly rollup bucket (H and Σ G·T·τ) gives the same figures as its six steps", () => {
    const bucket: PerformanceBucket = {
      capacityKw: 100,
      energyKwh: 60,
      insolation: 0.8,
      insolationTemp: 0.8 * 45,
      sunSteps: 6,
      runSteps: 6,
      maxKw: 60,
      hours: 1,
    };
    const a = performanceFigures([bucket], 100);
    const b = performanceFigures(hour(100, 60, 800, 45), 100);
    expect(a.performanceRatioStc).toBeCloseTo(b.performanceRatioStc!, 12);
    expect(a.energyPerformanceIndex).toBeCloseTo(b.energyPerformanceIndex!, 12);
  });
});

describe("performanceFigures", () => {
  it("drops a step missing irradiance or energy from both sums", () => {
    const steps = [
      ...hour(100, 60, 800, 45),
      ...hour(100, 60, 800, 45),
      stepBucket({ capacityKw: 100, powerKw: 90, poaWm2: null, moduleC: 45 }),
      stepBucket({ capacityKw: 100, powerKw: null, poaWm2: 900, moduleC: 45 }),
    ];
    const f = performanceFigures(steps, 100);
    expect(f.dropped).toBe(2);
    // 12 lit steps kept, 1 with energy and no irradiance: coverage 12/13, above IRRADIANCE_COVERAGE_MIN
    expect(f.coverage).toBeCloseTo(12 / 13, 9);
    expect(f.performanceRatio).toBeCloseTo(0.75, 9);
    expect(f.energyKwh).toBeCloseTo(120, 9);
  });

  it("multiplies by C: a hot module raises PR_STC above PR, a cold one lowers it", () => {
    expect(performanceFigures(hour(100, 60, 800, 45), 100).performanceRatioStc!).toBeGreaterThan(0.75);
    expect(performanceFigures(hour(100, 60, 800, 5), 100).performanceRatioStc!).toBeLessThan(0.75);
  });

  it("without a module temperature no correction is made (T = 25 °C)", () => {
    const f = performanceFigures(hour(100, 60, 800, null), 100);
    expect(f.performanceRatioStc).toBeCloseTo(0.75, 9);
    expect(correctedInsolation({ insolation: 0.8, insolationTemp: null }, -0.00415)).toBe(0.8);
  });

  it("downtime loss is the lost energy handed in (availability's, domain/analytics/availability.ts), not its own", () => {
    // 100 kW running in 6 sunny steps; 50 kW down in 6 sunny steps. The caller's availability says the down inverter
    // lost its expected energy: expectedPowerKw(50, 800, 45) kWh over the hour.
    const steps = [...hour(100, 60, 800, 45), ...hour(50, 0, 800, 45)];
    const lost = expectedPowerKw(50, 800, 45);
    const f = performanceFigures(steps, 150, DEFAULT_COEFFICIENTS, lost);
    expect(f.losses.downtimeKwh).toBeCloseTo(lost, 9);
    expect(f.losses.belowReferenceKwh).toBeCloseTo(f.expectedKwh - f.energyKwh - lost - f.losses.clippingKwh, 9);
    expect(performanceFigures(steps, 150).losses.downtimeKwh).toBe(0);
  });

  it("clipping: a step at the rating loses what the reference asked above it", () => {
    const f = performanceFigures([stepBucket({ capacityKw: 100, powerKw: 100, poaWm2: 1300, moduleC: 25 })], 100);
    const exp = expectedPowerKw(100, 1300, 25) / 6;
    expect(f.losses.clippingKwh).toBeCloseTo(exp - 100 / 6, 9);
    expect(f.losses.downtimeKwh).toBe(0);
    expect(f.losses.belowReferenceKwh).toBeCloseTo(0, 9);
  });

  it("the loss breakdown adds up to expected − measured", () => {
    const f = performanceFigures([...hour(100, 40, 700, 50), ...hour(100, 0, 600, 40)], 100, DEFAULT_COEFFICIENTS, 12.5);
    const sum = f.losses.downtimeKwh + f.losses.clippingKwh + f.losses.belowReferenceKwh;
    expect(sum).toBeCloseTo(f.expectedKwh - f.energyKwh, 9);
  });

  it("no buckets, or only dropped ones, give null figures and no division by zero", () => {
    const f = performanceFigures([], 100);
    expect(f.performanceRatio).toBeNull();
    expect(f.energyPerformanceIndex).toBeNull();
    expect(performanceFigures(hour(100, 60, null, 45), 100).performanceRatio).toBeNull();
  });

  it("coefficients are configurable per plant", () => {
    const k = { temperatureCoefficient: -0.0035, systemFactor: 0.9 };
    const f = performanceFigures(hour(100, 60, 800, 45), 100, k);
    expect(f.expectedKwh).toBeCloseTo(100 * 0.8 * (1 - 0.0035 * 20) * 0.9, 9);
    expect(DEFAULT_COEFFICIENTS).toEqual({ temperatureCoefficient: -0.00415, systemFactor: 0.87 });
  });
});

describe("summed buckets (count) and sums", () => {
  const day = (
    capacityKw: number,
    energyKwh: number | null,
    runSteps: number,
    insolation: number | null = 5.2,
  ): PerformanceBucket => ({
    capacityKw,
    energyKwh,
    insolation,
    insolationTemp: insolation === null ? null : insolation * 38,
    sunSteps: 60,
    runSteps,
    maxKw: null,
    hours: 24,
  });

  it("inverters of one rating and the same producing steps add up to one bucket with their count", () => {
    const each = [day(50, 180, 48), day(50, 200, 48), day(50, 190, 48), day(50, null, 48), day(50, null, 48)];
    const apart = performanceFigures(each, 250);
    const together = performanceFigures(
      [
        { ...day(150, 570, 48), count: 3 },
        { ...day(100, null, 48), count: 2 },
      ],
      250,
    );
    for (const k of [
      "energyKwh",
      "expectedKwh",
      "referenceYield",
      "finalYield",
      "performanceRatio",
      "performanceRatioStc",
      "energyPerformanceIndex",
    ] as const) {
      expect(together[k]).toBeCloseTo(apart[k]!, 12);
    }
    expect(together.dropped).toBe(apart.dropped);
    expect(together.dropped).toBe(2);
  });

  it("a count of missing producers keeps the figures but for dropped, and only dropped ones give null figures", () => {
    const f = performanceFigures([day(50, 180, 48), { ...day(0, null, 0), count: 4 }], 50);
    expect(f.dropped).toBe(4);
    expect(f.energyPerformanceIndex).toBeCloseTo(performanceFigures([day(50, 180, 48)], 50).energyPerformanceIndex!, 12);
    expect(performanceFigures([{ ...day(0, null, 0), count: 4 }], 50).energyPerformanceIndex).toBeNull();
  });

  it("figuresFromSums of performanceSums is performanceFigures; sums of parts add up", () => {
    const a = [...hour(100, 40, 700, 50), ...hour(100, 0, 600, 40)];
    const b = [...hour(100, 100, 1300, 25), ...hour(100, 60, null, 45)];
    const k = { temperatureCoefficient: -0.0035, systemFactor: 0.9 };
    expect(figuresFromSums(performanceSums([...a, ...b], k), 100)).toEqual(performanceFigures([...a, ...b], 100, k));
    const sa = performanceSums(a, k);
    const sb = performanceSums(b, k);
    const added = Object.fromEntries(
      Object.keys(sa).map((key) => [key, sa[key as keyof typeof sa] + sb[key as keyof typeof sb]]),
    ) as unknown as typeof sa;
    const whole = performanceFigures([...a, ...b], 100, k);
    const parts = figuresFromSums(added, 100);
    expect(parts.energyPerformanceIndex).toBeCloseTo(whole.energyPerformanceIndex!, 12);
    expect(parts.losses.clippingKwh).toBeCloseTo(whole.losses.clippingKwh, 12);
    expect(parts.dropped).toBe(whole.dropped);
  });
});

describe("comparisons", () => {
  it("median of odd and even counts, ignoring non-finite values", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([NaN, 5])).toBe(5);
    expect(median([])).toBeNull();
  });

  it("inverter comparison: Y_f / median − 1", () => {
    expect(deviationFromMedian(3, 4)).toBeCloseTo(-0.25, 12);
    expect(deviationFromMedian(4, 0)).toBeNull();
    expect(deviationFromMedian(null, 4)).toBeNull();
  });

  it("string comparison flags a blown string against its board's median, not at night", () => {
    const day = checkStrings([8.1, 8.0, 0, 7.9, 8.2]);
    expect(day.median).toBe(8.0);
    expect(day.strings.filter((s) => s.low).map((s) => s.channel)).toEqual([3]);
    expect(day.strings[0]!.ratio).toBeCloseTo(8.1 / 8, 12);
    expect(checkStrings([0, 0, 0.1, 0]).strings.some((s) => s.low)).toBe(false);
  });

  it("conversion efficiency AC/DC, null when idle or absurd", () => {
    expect(conversionEfficiency(9_700, 10_000)).toBeCloseTo(0.97, 12);
    expect(conversionEfficiency(0, 0)).toBeNull();
    expect(conversionEfficiency(12_000, 10_000)).toBeNull();
  });
});

describe("sums of parts", () => {
  it("the sums of two sets of buckets added are the sums of both together (a store may add plant-days to groups)", () => {
    const a = [stepBucket({ capacityKw: 100, powerKw: 60, poaWm2: 800, moduleC: 45 }), ...hour(50, null, 700, 30)];
    const b = [stepBucket({ capacityKw: 100, powerKw: 99, poaWm2: 1000, moduleC: 25 }), ...hour(50, 20, 400, 35)];
    const both = performanceSums([...a, ...b]);
    const added = addSums(performanceSums(a), performanceSums(b));
    for (const k of Object.keys(both) as Array<keyof typeof both>) expect(added[k], k).toBeCloseTo(both[k], 9);
    expect(added.dropped).toBe(6);
    expect(figuresFromSums(added, 150).energyPerformanceIndex).toBeCloseTo(
      performanceFigures([...a, ...b], 150).energyPerformanceIndex!,
      12,
    );
  });
});

describe("irradiance coverage (issue 26)", () => {
  it("a bucket's coverage: sensors' lit steps per inverter's producing steps, at most 1", () => {
    expect(bucketCoverage(63, 63)).toBe(1);
    expect(bucketCoverage(80, 63)).toBe(1);
    expect(bucketCoverage(45, 63)).toBeCloseTo(45 / 63, 9);
    expect(bucketCoverage(null, 63)).toBeNull();
    expect(bucketCoverage(10, 0)).toBe(1);
  });
  it("withholds PR, PR_STC, EPI and Y_r below IRRADIANCE_COVERAGE_MIN; Y_f stays", () => {
    // 10 sunny steps, the sensor silent in 3 of them: coverage 0.7
    const steps = Array.from({ length: 10 }, (_, i) =>
      stepBucket({ capacityKw: 100, powerKw: 60, poaWm2: i < 3 ? null : 800, moduleC: 45 }),
    );
    const f = figuresFromSums(performanceSums(steps), 100);
    expect(f.coverage).toBeCloseTo(0.7, 9);
    expect(f.withheld).toBe("irradiance_coverage");
    expect(f.performanceRatio).toBeNull();
    expect(f.performanceRatioStc).toBeNull();
    expect(f.energyPerformanceIndex).toBeNull();
    expect(f.referenceYield).toBeNull();
    expect(f.finalYield).toBeCloseTo(0.7, 9);
    const ok = figuresFromSums(performanceSums(steps.slice(2)), 100);
    expect(ok.coverage).toBeCloseTo(7 / 8, 9);
    expect(IRRADIANCE_COVERAGE_MIN).toBeGreaterThan(7 / 8);
    const full = figuresFromSums(performanceSums(steps.slice(3)), 100);
    expect(full.withheld).toBeNull();
    expect(full.performanceRatio).toBeCloseTo(0.75, 9);
  });
  it("a report row with too little coverage has no irradiance in the sums", () => {
    expect(reportBucket({ capaRaw: 10_000, energyWh: 1000, poaWhPerM2: 500, coverage: 0.5 }).insolation).toBeNull();
    expect(reportBucket({ capaRaw: 10_000, energyWh: 1000, poaWhPerM2: 500, coverage: 0.95 }).insolation).toBe(0.5);
  });
});
