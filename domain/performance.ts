// Performance figures of IEC 61724-1 over buckets of any length (a 10-minute step, an hour, a day).
//
// A bucket carries sums, so one set of formulas serves raw steps and rollups alike:
//   H  = Σ G·τ / 1000          plane-of-array insolation, kWh/m²
//   HT = Σ G·T·τ / 1000        insolation weighted by module temperature, kWh/m²·°C
// With C = 1 + γ(T − 25), Σ G·C·τ / 1000 = H + γ(HT − 25·H): the temperature correction is linear in T,
// so summing HT in the rollups keeps it exact however coarse the bucket. Multiply by C, never divide.
import { referenceGenerationKw, STC_TEMPERATURE_C, SYSTEM_FACTOR, TEMPERATURE_COEFFICIENT } from "./reference-generation";

/**
 * Irradiance coverage below which no irradiance-based figure (PR, PR_STC, EPI, Y_r) is shown — "—" with the reason
 * instead of a number. Coverage is the share of lit buckets whose plane-of-array irradiance was measured (a bucket
 * whose energy has no irradiance beside it is dropped from both sums; see performanceSums). For one bucket that
 * gathers several steps (an hour, a day of the statistics reports) it is the sensors' lit steps per inverter's
 * producing steps (bucketCoverage): a sensor silent for three hours of a sunny day leaves 0.7 of the day covered,
 * and its energy against the irradiance of the hours that were measured gave PR 125–430 % before (issue 26).
 * At 0.9 a kept figure can be at most 1/0.9 ≈ 11 % high from the steps the sensors missed.
 */
export const IRRADIANCE_COVERAGE_MIN = 0.9;

/** Why a figure is withheld (shown as "—" with this reason). */
export type WithheldReason = "irradiance_coverage";

/**
 * Irradiance coverage of one bucket gathering several steps: the plant's sensors' lit steps (G > 0, mean per sensor
 * that measured) over its inverters' producing steps (mean per inverter), at most 1. No production: 1 when a
 * sensor measured (nothing to compare), null when none did.
 */
export function bucketCoverage(litPerSensor: number | null, runPerInverter: number | null): number | null {
  if (litPerSensor === null || !Number.isFinite(litPerSensor)) return null;
  if (runPerInverter === null || !(runPerInverter > 0)) return 1;
  return Math.min(1, Math.max(0, litPerSensor / runPerInverter));
}

/**
 * A row of a statistics report (one plant or the scope over one step of the report) as a performance bucket: energy
 * and plane-of-array irradiation in Wh and Wh/m², capacity raw (10 W units, SPEC §9). Its irradiance counts only
 * with coverage at or above IRRADIANCE_COVERAGE_MIN (an unknown coverage counts as full): else the bucket has none
 * and is dropped from both sums, like a step without irradiance.
 */
export function reportBucket(input: {
  capaRaw: number;
  energyWh: number | null;
  poaWhPerM2: number | null;
  coverage?: number | null;
}): PerformanceBucket {
  const covered = input.coverage === undefined || input.coverage === null || input.coverage >= IRRADIANCE_COVERAGE_MIN;
  return {
    capacityKw: input.capaRaw / 100,
    energyKwh: input.energyWh === null ? null : input.energyWh / 1000,
    insolation: input.poaWhPerM2 === null || !covered ? null : input.poaWhPerM2 / 1000,
    insolationTemp: null,
    sunSteps: 0,
    runSteps: 0,
    maxKw: null,
    hours: 0,
  };
}

/**
 * Only steps above this plane-of-array irradiance count for availability (IEC 61724-1 practice), W/m². Availability
 * itself has one definition, domain/analytics/availability.ts (issue 28 §2): nothing here computes it. The buckets'
 * sunny and producing steps below serve only to tell, for clipping, what share of a bucket ran.
 */
export const AVAILABILITY_THRESHOLD_WM2 = 100;
/** An inverter at or above this share of its rating is at its limit (clipping). */
export const CLIPPING_SHARE = 0.98;
/**
 * Below this share of its rating an inverter's highest power is certainly not clipping (CLIPPING_SHARE less a margin
 * far above rounding), so its bucket adds up with its siblings' (the diagnosis' grouped sums, api/store/diagnose.ts
 * inverterGroups, and the plant-day rows' `regular` flag, api/telemetry/rollups.ts plantDailySql).
 */
export const MERGE_BELOW_SHARE = 0.975;
if (!(MERGE_BELOW_SHARE < CLIPPING_SHARE)) throw new Error("MERGE_BELOW_SHARE must stay below CLIPPING_SHARE");

export interface PerformanceCoefficients {
  /** Power temperature coefficient γ, per °C (negative: −0.00415 = −0.415 %/°C). */
  temperatureCoefficient: number;
  /** η: everything lost between module and meter besides temperature. */
  systemFactor: number;
}

export const DEFAULT_COEFFICIENTS: PerformanceCoefficients = {
  temperatureCoefficient: -TEMPERATURE_COEFFICIENT,
  systemFactor: SYSTEM_FACTOR,
};

/** Temperature factor C = 1 + γ(T − 25). */
export function temperatureFactor(moduleC: number, gamma = DEFAULT_COEFFICIENTS.temperatureCoefficient): number {
  return 1 + gamma * (moduleC - STC_TEMPERATURE_C);
}

/** Expected power P0 · G/1000 · C · η, kW (never negative): the SPEC's reference generation with the plant's γ and η. */
export function expectedPowerKw(
  capacityKw: number,
  poaWm2: number,
  moduleC: number,
  k: PerformanceCoefficients = DEFAULT_COEFFICIENTS,
): number {
  return referenceGenerationKw(capacityKw, poaWm2, moduleC, k);
}

/** One bucket of one inverter (or a plant), with its plant's irradiance. */
export interface PerformanceBucket {
  /** Rated capacity P0 of what produced `energyKwh`, kWp. */
  capacityKw: number;
  /** Energy measured, kWh; null = missing (the bucket is dropped from every sum). */
  energyKwh: number | null;
  /** Plane-of-array insolation H = Σ G·τ/1000, kWh/m²; null = missing. */
  insolation: number | null;
  /** Σ G·T·τ/1000 (kWh/m²·°C); null = no module temperature (no correction: T taken as 25 °C). */
  insolationTemp: number | null;
  /** Steps of the bucket with POA above the availability threshold (clipping's running share). */
  sunSteps: number;
  /** Of those… steps in which the inverter produced (for a raw step: 1 or 0; a rollup: producing steps, capped). */
  runSteps: number;
  /** Highest power in the bucket, kW (clipping shows as a maximum at the rating). */
  maxKw: number | null;
  /** Length of the bucket, h. */
  hours: number;
  /**
   * How many producers' buckets of one step this one stands for (default 1): producers of one rating with the
   * same producing steps add up exactly (every sum below is linear in capacity and energy; only clipping is
   * not, so a summed bucket must carry no maximum: `maxKw` null). Counted so `dropped` stays per producer.
   */
  count?: number;
}

/** Σ G·C·τ/1000 of a bucket: temperature-corrected insolation, kWh/m². */
export function correctedInsolation(b: Pick<PerformanceBucket, "insolation" | "insolationTemp">, gamma: number): number {
  const h = b.insolation ?? 0;
  if (b.insolationTemp === null) return h;
  return Math.max(0, h + gamma * (b.insolationTemp - STC_TEMPERATURE_C * h));
}

/** Reference (expected) energy of a bucket: P0 · Σ G·C·τ/1000 · η, kWh (0 without irradiance). */
export function expectedEnergyKwh(
  b: Pick<PerformanceBucket, "capacityKw" | "insolation" | "insolationTemp">,
  k: PerformanceCoefficients = DEFAULT_COEFFICIENTS,
): number {
  if (b.insolation === null) return 0;
  return b.capacityKw * correctedInsolation(b, k.temperatureCoefficient) * k.systemFactor;
}

export interface LossBreakdown {
  /**
   * Expected energy of the steps the inverters were unavailable, kWh: the energy-based availability's lost energy
   * (domain/analytics/availability.ts), handed to figuresFromSums by the caller; 0 when it was not computed.
   */
  downtimeKwh: number;
  /** Expected energy above the rating that the inverter could not deliver, kWh. */
  clippingKwh: number;
  /** What is left of expected − measured, kWh (negative: the plant beat the reference). */
  belowReferenceKwh: number;
}

export interface PerformanceFigures {
  capacityKw: number;
  /** Σ E, kWh (buckets kept). */
  energyKwh: number;
  /** E_exp = Σ P0·C·G·τ/1000·η, kWh (the reference generation). */
  expectedKwh: number;
  /** Reference yield Y_r = H / 1 kW/m², h. */
  referenceYield: number | null;
  /** Final yield Y_f = E / P0, kWh/kWp (the SPEC's generation hours). */
  finalYield: number | null;
  performanceRatio: number | null;
  performanceRatioStc: number | null;
  /** EPI = E / E_exp. */
  energyPerformanceIndex: number | null;
  losses: LossBreakdown;
  /** Buckets dropped because irradiance or energy was missing (dark steps without readings not counted). */
  dropped: number;
  /** Irradiance coverage: lit buckets kept per those and the ones with energy but no irradiance; null without any. */
  coverage: number | null;
  /** Set when the irradiance-based figures (Y_r, PR, PR_STC, EPI) are withheld (null) and why. */
  withheld: WithheldReason | null;
}

const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? a / b : null);

/**
 * The IEC 61724-1 figures of a set of buckets (one inverter's, or every inverter's of a plant). Buckets
 * missing irradiance or energy are dropped from both sums; P0 of the result is the largest bucket capacity
 * of one inverter summed over the distinct producers the caller passed (`capacityKw` argument).
 */
export function performanceFigures(
  buckets: readonly PerformanceBucket[],
  capacityKw: number,
  k: PerformanceCoefficients = DEFAULT_COEFFICIENTS,
  downtimeKwh = 0,
): PerformanceFigures {
  return figuresFromSums(performanceSums(buckets, k), capacityKw, downtimeKwh);
}

/**
 * The sums the figures are ratios of. Each is a sum over kept buckets, so a store may add them up itself
 * (over days, plants…) with the same per-bucket terms as performanceSums, and hand them to figuresFromSums.
 */
export interface PerformanceSums {
  /** Σ E, kWh. */
  energy: number;
  /** Σ P0·Σ G·C·τ/1000·η, kWh. */
  expected: number;
  /** Σ P0·H (for Y_r of a capacity mix). */
  yieldRefWeighted: number;
  /** Σ P0·Σ G·C·τ/1000. */
  corrWeighted: number;
  clipping: number;
  /** Producer buckets dropped, and counted in all. */
  dropped: number;
  total: number;
  /** Producer buckets kept that were lit (energy or irradiance above 0). */
  kept: number;
  /** Producer buckets dropped for want of irradiance beside their energy: with `kept`, the irradiance coverage. */
  noIrradiance: number;
}

/** The per-bucket terms of the figures, summed (buckets missing irradiance or energy dropped from every sum). */
export function performanceSums(
  buckets: readonly PerformanceBucket[],
  k: PerformanceCoefficients = DEFAULT_COEFFICIENTS,
): PerformanceSums {
  let energy = 0;
  let expected = 0;
  let yieldRefWeighted = 0;
  let corrWeighted = 0;
  let clipping = 0;
  let dropped = 0;
  let total = 0;
  let kept = 0;
  let noIrradiance = 0;
  for (const b of buckets) {
    const n = b.count ?? 1;
    total += n;
    if (b.energyKwh === null || b.insolation === null || !Number.isFinite(b.energyKwh) || !Number.isFinite(b.insolation)) {
      // A night step without an inverter reading is no gap: inverters sleep in the dark.
      if (b.energyKwh !== null || (b.insolation ?? 0) > 0) dropped += n;
      if (b.energyKwh !== null && b.energyKwh > 0 && b.insolation === null) noIrradiance += n;
      continue;
    }
    const corr = correctedInsolation(b, k.temperatureCoefficient);
    const exp = expectedEnergyKwh(b, k);
    if (b.energyKwh > 0 || b.insolation > 0) kept += n;
    energy += b.energyKwh;
    expected += exp;
    yieldRefWeighted += b.capacityKw * b.insolation;
    corrWeighted += b.capacityKw * corr;
    // At its limit: in a bucket whose highest power reached the rating, what the reference asked beyond
    // what was delivered (in the share of its sunny steps it ran) was clipped. Exact for a raw step (E = P0·τ there).
    if (b.maxKw !== null && b.capacityKw > 0 && b.maxKw >= CLIPPING_SHARE * b.capacityKw) {
      const running = b.sunSteps > 0 ? Math.min(b.runSteps, b.sunSteps) / b.sunSteps : 1;
      clipping += Math.max(0, exp * running - b.energyKwh);
    }
  }
  return {
    energy,
    expected,
    yieldRefWeighted,
    corrWeighted,
    clipping,
    dropped,
    total,
    kept,
    noIrradiance,
  };
}

/** Two sets of sums added (each a sum over its own buckets, so the total is the sum over both). */
export function addSums(a: PerformanceSums, b: PerformanceSums): PerformanceSums {
  return {
    energy: a.energy + b.energy,
    expected: a.expected + b.expected,
    yieldRefWeighted: a.yieldRefWeighted + b.yieldRefWeighted,
    corrWeighted: a.corrWeighted + b.corrWeighted,
    clipping: a.clipping + b.clipping,
    dropped: a.dropped + b.dropped,
    total: a.total + b.total,
    kept: a.kept + b.kept,
    noIrradiance: a.noIrradiance + b.noIrradiance,
  };
}

/**
 * The IEC 61724-1 figures from their sums; P0 is the `capacityKw` argument (see performanceFigures). `downtimeKwh`:
 * the energy-based availability's lost energy over the same period (domain/analytics/availability.ts), when known.
 */
export function figuresFromSums(s: PerformanceSums, capacityKw: number, downtimeKwh = 0): PerformanceFigures {
  const { energy, expected, yieldRefWeighted, corrWeighted, clipping, dropped } = s;
  const downtime = downtimeKwh;
  const meanP0 = capacityKw > 0 ? capacityKw : 0;
  const referenceYield = meanP0 > 0 && corrWeighted >= 0 ? yieldRefWeighted / meanP0 : null;
  const finalYield = ratio(energy, meanP0);
  const kept = s.total - dropped;
  const coverage = s.kept + s.noIrradiance > 0 ? s.kept / (s.kept + s.noIrradiance) : null;
  // Too little of the energy had its irradiance measured: no irradiance-based figure (it would be too high).
  const withheld: WithheldReason | null = coverage !== null && coverage < IRRADIANCE_COVERAGE_MIN ? "irradiance_coverage" : null;
  const shown = kept > 0 && !withheld;
  return {
    capacityKw: meanP0,
    energyKwh: energy,
    expectedKwh: expected,
    referenceYield: shown ? referenceYield : null,
    finalYield: kept ? finalYield : null,
    performanceRatio: shown ? ratio(energy, yieldRefWeighted) : null,
    performanceRatioStc: shown ? ratio(energy, corrWeighted) : null,
    energyPerformanceIndex: shown ? ratio(energy, expected) : null,
    losses: {
      downtimeKwh: downtime,
      clippingKwh: clipping,
      belowReferenceKwh: expected - energy - downtime - clipping,
    },
    dropped,
    coverage,
    withheld,
  };
}

/** A raw 10-minute step as a bucket (τ = 1/6 h). */
export function stepBucket(input: {
  capacityKw: number;
  powerKw: number | null;
  poaWm2: number | null;
  moduleC: number | null;
  stepHours?: number;
}): PerformanceBucket {
  const tau = input.stepHours ?? 1 / 6;
  const g = input.poaWm2;
  const p = input.powerKw;
  return {
    capacityKw: input.capacityKw,
    energyKwh: p === null ? null : p * tau,
    insolation: g === null ? null : (g * tau) / 1000,
    insolationTemp: g === null || input.moduleC === null ? null : (g * input.moduleC * tau) / 1000,
    sunSteps: g !== null && g > AVAILABILITY_THRESHOLD_WM2 ? 1 : 0,
    runSteps: p !== null && p > 0 ? 1 : 0,
    maxKw: p,
    hours: tau,
  };
}

/** Median of finite numbers; null for none. */
export function median(values: readonly number[]): number | null {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

/** Inverter comparison: Y_f / median(Y_f of its plant) − 1 (null when the median is 0 or missing). */
export function deviationFromMedian(value: number | null, med: number | null): number | null {
  if (value === null || med === null || !(med > 0)) return null;
  return value / med - 1;
}

/** A string is flagged when its current is below this share of its board's median. */
export const STRING_LOW_SHARE = 0.75;
/** …and only when the board's median is above this current, A (dawn, dusk and night say nothing). */
export const STRING_MIN_MEDIAN_A = 0.5;

export interface StringCheck {
  channel: number;
  currentA: number;
  /** current / median of its board. */
  ratio: number | null;
  low: boolean;
}

/** String comparison: each channel's current against the median of its board. */
export function checkStrings(currents: readonly number[]): { median: number | null; strings: StringCheck[] } {
  const med = median(currents);
  const judged = med !== null && med > STRING_MIN_MEDIAN_A;
  return {
    median: med,
    strings: currents.map((a, i) => {
      const r = med !== null && med > 0 ? a / med : null;
      return { channel: i + 1, currentA: a, ratio: r, low: judged && r !== null && r < STRING_LOW_SHARE };
    }),
  };
}

/** Conversion efficiency AC/DC as a share (null when the DC side is idle or the numbers are absurd). */
export function conversionEfficiency(acW: number | null, dcW: number | null): number | null {
  if (acW === null || dcW === null || !(dcW > 0) || acW < 0) return null;
  const e = acW / dcW;
  return e > 1.05 ? null : Math.min(1, e);
}
