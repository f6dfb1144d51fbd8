import { describe, expect, it } from "vitest";
import { plantAvailability } from "./analytics/availability";
import { orderProblems } from "./contract/curtailment";
import { curtailmentExclusions, curtailmentLoss, formatOrderLimit, inOrder, orderHours, withoutEnergyOf } from "./curtailment";
import { figuresFromSums, performanceFigures, performanceSums, stepBucket } from "./performance";

const H = 3_600_000;
// One 100 kW inverter, hourly steps at 800 W/m² and 25 °C (C = 1): expected 100 × 0.8 × 0.87 = 69.6 kWh per hour.
// It delivered 60, 30 (held down by an order) and 70 kWh.
const grid = {
  steps: [0, H, 2 * H],
  stepHours: 1,
  poaWm2: [800, 800, 800],
  moduleC: [25, 25, 25],
  inverters: [{ id: "a", capacityKw: 100, powerKw: [60, 30, 70], counterKwh: [null, null, null] }],
};

describe("curtailment orders: lost energy", () => {
  it("expected minus delivered inside the order: 69.6 − 30 = 39.6 kWh", () => {
    const loss = curtailmentLoss(grid, [{ from: H, to: 2 * H }], 0, 3 * H);
    expect(loss).toEqual({ orders: 1, hours: 1, expectedKwh: expect.any(Number), actualKwh: 30, lostKwh: expect.any(Number) });
    expect(loss.expectedKwh).toBeCloseTo(69.6, 9);
    expect(loss.lostKwh).toBeCloseTo(39.6, 9);
  });

  it("never negative: a step above its expected energy loses nothing (70 > 69.6)", () => {
    const loss = curtailmentLoss(grid, [{ from: H, to: 3 * H }], 0, 3 * H);
    expect(loss.hours).toBe(2);
    expect(loss.expectedKwh).toBeCloseTo(139.2, 9);
    expect(loss.actualKwh).toBe(100);
    expect(loss.lostKwh).toBeCloseTo(39.6, 9);
  });

  it("a step without irradiance or a reading adds nothing; orders outside the period are not counted", () => {
    const g = { ...grid, poaWm2: [800, null, 800], inverters: [{ ...grid.inverters[0]!, powerKw: [60, 30, null] }] };
    expect(curtailmentLoss(g, [{ from: 0, to: 3 * H }], 0, 3 * H).lostKwh).toBeCloseTo(9.6, 9);
    expect(curtailmentLoss(grid, [{ from: 5 * H, to: 6 * H }], 0, 3 * H)).toEqual({
      orders: 0,
      hours: 0,
      expectedKwh: 0,
      actualKwh: 0,
      lostKwh: 0,
    });
  });

  it("hours: overlapping orders count once and are cut to the period", () => {
    expect(
      orderHours(
        [
          { from: 0, to: 2 * H },
          { from: H, to: 3 * H },
          { from: 5 * H, to: 9 * H },
        ],
        H / 2,
        6 * H,
      ),
    ).toBe(3.5);
  });
});

describe("curtailment orders: left out of PR and of availability", () => {
  const buckets = grid.inverters[0]!.powerKw.map((p) =>
    stepBucket({ capacityKw: 100, powerKw: p, poaWm2: 800, moduleC: 25, stepHours: 1 }),
  );
  const orders = [{ from: H, to: 2 * H }];

  it("PR over all three hours 160 / (100 × 2.4) = 0.6667; without the order's hour 130 / (100 × 1.6) = 0.8125", () => {
    expect(performanceFigures(buckets, 100).performanceRatio).toBeCloseTo(160 / 240, 9);
    const kept = buckets.filter((_, i) => !inOrder(grid.steps[i]!, orders));
    expect(performanceFigures(kept, 100).performanceRatio).toBeCloseTo(0.8125, 9);
  });

  it("a day read whole less the order's hour gives the same PR (withoutEnergyOf)", () => {
    const day = performanceSums(buckets);
    const hour = performanceSums([buckets[1]!]);
    expect(figuresFromSums(withoutEnergyOf(day, hour), 100).performanceRatio).toBeCloseTo(0.8125, 9);
  });

  it("availability: the order's hour is an exclusion of kind curtailment, in neither figure", () => {
    const a = plantAvailability({ ...grid, exclusions: curtailmentExclusions(orders) });
    expect(a.exclusions.curtailment.hours).toBe(1);
    expect(a.exclusions.curtailment.expectedKwh).toBeCloseTo(69.6, 9);
    expect(a.time.availableHours).toBe(2);
  });
});

describe("an order's own checks", () => {
  const base = {
    start: "2026-05-01 10:00",
    end: "2026-05-01 12:00",
    limitValue: 50,
    limitUnit: "kw" as const,
    source: "kpx" as const,
    note: "",
  };
  it("end after start; a kW limit within the capacity; a % limit at most 100", () => {
    expect(orderProblems(base, 100)).toEqual({});
    expect(orderProblems({ ...base, end: "2026-05-01 09:00" }, 100)).toEqual({ end: "end_before_start" });
    expect(orderProblems({ ...base, end: base.start }, 100)).toEqual({ end: "end_before_start" });
    expect(orderProblems({ ...base, limitValue: 101 }, 100)).toEqual({ limitValue: "above_capacity" });
    expect(orderProblems({ ...base, limitUnit: "pct", limitValue: 101 }, 1000)).toEqual({ limitValue: "above_100_pct" });
  });
});

describe("formatOrderLimit", () => {
  it("words a kW limit, and a share of the capacity with its kW", () => {
    expect(formatOrderLimit({ limitUnit: "kw", limitValue: 50, limitKw: 50 })).toBe("50.0 kW");
    expect(formatOrderLimit({ limitUnit: "pct", limitValue: 60, limitKw: 59.88 })).toBe("60.0 % (59.9 kW)");
  });
});
