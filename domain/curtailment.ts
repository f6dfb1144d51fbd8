// Curtailment and output-limit orders in the diagnosis (issue 28 §3). An order holds a plant at or below a limit over
// [from, to): its steps are neither the plant's fault nor its performance, so
//   - availability counts them as exclusions of kind "curtailment" (domain/analytics/availability.ts), in neither figure;
//   - PR, PR_STC and EPI leave them out of their sums (a step belongs to an order when its start lies inside it, the
//     rule availability uses too);
//   - the energy lost to the order is reported: per step inside an order, the expected energy of the inverters that
//     reported (domain/performance.ts expectedPowerKw · τ, the SPEC's reference with the plant's γ and η) minus what
//     they delivered, never negative; a step without irradiance has no expected energy and adds nothing; an inverter
//     without a reading adds to neither side.
import type { AvailabilityInput, Exclusion } from "./analytics/availability";
import { DEFAULT_COEFFICIENTS, expectedPowerKw, type PerformanceCoefficients, type PerformanceSums } from "./performance";
import { STC_TEMPERATURE_C } from "./reference-generation";
import { formatNumber } from "./units";
import type { CurtailmentOrder } from "./contract/curtailment";

/** An order's limit as every screen shows it: "50.0 kW", or "60.0 % (59.9 kW)" for a share of the capacity. */
export function formatOrderLimit(o: Pick<CurtailmentOrder, "limitUnit" | "limitValue" | "limitKw">): string {
  return o.limitUnit === "pct"
    ? `${formatNumber(o.limitValue, 1)} % (${formatNumber(o.limitKw, 1)} kW)`
    : `${formatNumber(o.limitValue, 1)} kW`;
}

export interface OrderInterval {
  from: number;
  to: number;
}

/** Whether a step starting at `t` lies in an order. */
export function inOrder(t: number, orders: readonly OrderInterval[]): boolean {
  for (const o of orders) if (t >= o.from && t < o.to) return true;
  return false;
}

/** The orders as availability exclusions of kind "curtailment". */
export function curtailmentExclusions(orders: readonly OrderInterval[]): Exclusion[] {
  return orders.map((o) => ({ from: o.from, to: o.to, kind: "curtailment" as const }));
}

/** Hours of [from, to) covered by the orders (overlapping orders counted once). */
export function orderHours(orders: readonly OrderInterval[], from: number, to: number): number {
  const parts = orders
    .map((o) => [Math.max(o.from, from), Math.min(o.to, to)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of parts) {
    const start = Math.max(a, end);
    if (b > start) total += b - start;
    end = Math.max(end, b);
  }
  return total / 3_600_000;
}

export interface CurtailmentLoss {
  /** Orders overlapping the period. */
  orders: number;
  /** Hours of the period under an order. */
  hours: number;
  /** Expected and delivered energy of the steps inside orders, kWh (inverters with a reading). */
  expectedKwh: number;
  actualKwh: number;
  /** Σ per step max(0, expected − delivered), kWh. */
  lostKwh: number;
}

/** The energy lost to the orders over a plant's availability grid (see header), within [from, to). */
export function curtailmentLoss(
  grid: Pick<AvailabilityInput, "steps" | "stepHours" | "poaWm2" | "moduleC" | "inverters">,
  orders: readonly OrderInterval[],
  from: number,
  to: number,
  k: PerformanceCoefficients = DEFAULT_COEFFICIENTS,
): CurtailmentLoss {
  const within = orders.filter((o) => o.to > from && o.from < to);
  let expected = 0;
  let actual = 0;
  let lost = 0;
  const tau = grid.stepHours;
  grid.steps.forEach((t, s) => {
    if (!inOrder(t, within)) return;
    const g = grid.poaWm2[s];
    if (g === null || g === undefined || !Number.isFinite(g)) return;
    const temp = grid.moduleC?.[s] ?? STC_TEMPERATURE_C;
    let exp = 0;
    let act = 0;
    for (const inv of grid.inverters) {
      const p = inv.powerKw[s];
      if (p === null || p === undefined || !Number.isFinite(p) || !(inv.capacityKw > 0)) continue;
      exp += expectedPowerKw(inv.capacityKw, g, temp, k) * tau;
      act += Math.max(0, p) * tau;
    }
    expected += exp;
    actual += act;
    lost += Math.max(0, exp - act);
  });
  return { orders: within.length, hours: orderHours(within, from, to), expectedKwh: expected, actualKwh: actual, lostKwh: lost };
}

/**
 * Sums `a` without the energy terms of `b` (a subset of a's steps read at a finer step, e.g. the hours inside orders
 * of days read whole): energy, expected energy, Σ P0·H, Σ P0·H_corr and clipping. The bucket counts (coverage,
 * dropped) stay a's: they count a's buckets, which b's are parts of.
 */
export function withoutEnergyOf(a: PerformanceSums, b: PerformanceSums): PerformanceSums {
  const less = (x: number, y: number) => Math.max(0, x - y);
  return {
    ...a,
    energy: less(a.energy, b.energy),
    expected: less(a.expected, b.expected),
    yieldRefWeighted: less(a.yieldRefWeighted, b.yieldRefWeighted),
    corrWeighted: less(a.corrWeighted, b.corrWeighted),
    clipping: less(a.clipping, b.clipping),
  };
}
