// Performance ratio the way a capacity test computes it (pvcaptest's captest.prtest.perf_ratio, after NREL's
// "Performance Parameters for Grid-Connected PV Systems" and IEC 61724-1:2021 §10.3):
//
//   PR = Σ E_i / Σ (A_i · P0 · G_i / 1000 · (1 − d)^year · τ)
//
// E_i measured energy of step i, G_i plane-of-array irradiance, τ the step length in hours, P0 the DC nameplate,
// A_i the availability of the step (one number for the whole test, or one per step), d the yearly degradation
// allowance. Availability and degradation lower the expected energy (the denominator): a plant 90 % available is
// asked for 90 % of the energy. Σ P0 · G_i · τ / 1000 is the P0-weighted reference yield of domain/performance.ts
// (its `yieldRefWeighted`), so PR with A = 1 and d = 0 equals its performanceRatio over the same steps.

export interface CapacityTestInput {
  /** Measured energy per step, kWh (any unit, as long as `dcNameplateKw` · τ matches it). */
  energyKwh: readonly number[];
  /** Plane-of-array irradiance per step, W/m². */
  poaWm2: readonly number[];
  /** DC nameplate P0, kW. */
  dcNameplateKw: number;
  /** Step length τ, hours (1 for hourly steps). */
  stepHours: number;
  /** Availability: one share for the whole test, or one per step (default 1). */
  availability?: number | readonly number[];
  /** Yearly degradation allowance d as a share (0.005 = 0.5 %/year); with `year`, (1 − d)^year. */
  degradation?: number;
  /** Year of operation the degradation compounds over (default 1, as pvcaptest). */
  year?: number;
}

export interface CapacityTestResult {
  pr: number | null;
  energyKwh: number;
  expectedKwh: number;
  /** E_i / expected_i per step (null where nothing was expected). */
  perStep: (number | null)[];
}

/** The capacity-test PR (see the header); null when nothing was expected. Throws on series of unequal length. */
export function capacityTestPr(input: CapacityTestInput): CapacityTestResult {
  const { energyKwh, poaWm2, dcNameplateKw, stepHours } = input;
  const avail = input.availability ?? 1;
  if (energyKwh.length !== poaWm2.length) throw new RangeError("energy and irradiance differ in length");
  if (typeof avail !== "number" && avail.length !== poaWm2.length) throw new RangeError("availability differs in length");
  const derate = Math.pow(1 - (input.degradation ?? 0), input.year ?? 1);
  let energy = 0;
  let expected = 0;
  const perStep: (number | null)[] = [];
  for (let i = 0; i < poaWm2.length; i++) {
    const a = typeof avail === "number" ? avail : avail[i]!;
    const exp = a * dcNameplateKw * (poaWm2[i]! / 1000) * derate * stepHours;
    energy += energyKwh[i]!;
    expected += exp;
    perStep.push(exp > 0 ? energyKwh[i]! / exp : null);
  }
  return { pr: expected > 0 ? energy / expected : null, energyKwh: energy, expectedKwh: expected, perStep };
}

/**
 * PR with one availability for the whole period: Σ E / (A · Σ P0·G/1000·τ) = PR / A — capacityTestPr's scalar case,
 * from a PR already computed (the diagnosis' IEC 61724-1 PR and the plant's energy-based availability). Null when
 * either is missing or the availability is 0.
 */
export function prWithAvailability(pr: number | null, availability: number | null): number | null {
  if (pr === null || availability === null || !(availability > 0)) return null;
  return pr / availability;
}
