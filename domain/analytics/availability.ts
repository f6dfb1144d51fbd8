// Availability that tells a data gap from an outage (issue 28 §2; IEC 61724-1:2021 §12 and IEC TS 61724-3 practice).
//
// Steps: one grid of equal steps (τ hours) for a plant, its plane-of-array irradiance G per step, and per inverter its
// AC power and cumulative energy counter per step. Only steps with G above AVAILABILITY_THRESHOLD_WM2 (100 W/m²) count.
// Per inverter i and counted step:
//   - measured (a power reading): available when it produced (P > 0), unavailable otherwise;
//   - no reading: a data gap — neither available nor unavailable. The time-based figure leaves it out and reports it
//     as coverage. The energy-based figure resolves it with the counter: across the run of steps without a reading,
//     the counter of the reading after it against the one before — advanced: the inverter produced (a communication
//     gap, counted available); flat: an outage (unavailable); no counter on either side, or a reset between: unresolved;
//   - inside an exclusion (curtailment order, grid outage, planned maintenance): counted for its kind, in neither figure.
// A step without irradiance while some inverter produced (a sensor fault) cannot be judged sunny or not: an
// irradiance gap, in the coverage of both figures.
//
//   A_time   = Σ P0_i·τ·available / Σ P0_i·τ·(available + unavailable)                 (measured steps only)
//   cov_time = Σ P0_i·τ·(available + unavailable) / Σ P0_i·τ·(… + data gaps + irradiance gaps)
//   A_energy = 1 − E_lost / E_exp, E_exp = Σ expected energy (domain/performance.ts expectedPowerKw · τ) of the decided
//              steps (measured and resolved gaps), E_lost = that of the unavailable ones (measured or flat-counter gaps)
//   cov_energy = decided / (decided + unresolved gaps + irradiance gaps), capacity-weighted hours
// Hours are capacity-weighted plant-equivalent hours: Σ P0_i·τ / Σ P0_i.
//
// Counters: a counter below the previous one (a reset or rollback) or above what the inverter could have made since
// (more than 1.5 × P0 × elapsed hours) is reported and never becomes an energy step, negative or absurd.
import { STC_TEMPERATURE_C } from "../reference-generation";
import { AVAILABILITY_THRESHOLD_WM2, DEFAULT_COEFFICIENTS, expectedPowerKw, type PerformanceCoefficients } from "../performance";

export const EXCLUSION_KINDS = ["curtailment", "grid_outage", "maintenance"] as const;
export type ExclusionKind = (typeof EXCLUSION_KINDS)[number];

/** An interval [from, to) (epoch ms) excluded from availability, of one kind. */
export interface Exclusion {
  from: number;
  to: number;
  kind: ExclusionKind;
}

/**
 * The diagnosis computes availability on 10-minute steps (the raw rows) for a 10-minute unit, and on hourly steps
 * (rollup_hourly: an hour with a row is measured, its mean power and highest counter its reading) otherwise; over
 * at most this many days, so one plant's cost stays bounded (8,784 hourly steps per inverter).
 */
export const AVAILABILITY_WINDOW_MAX_DAYS = 366;

/**
 * At most this many inverter-steps are read for one diagnosis (≈ 34 inverters for a year of hours, a 100-inverter
 * plant for four months), so one page's cost stays bounded whatever the plant's size.
 */
export const AVAILABILITY_MAX_INVERTER_STEPS = 300_000;

/**
 * At most this many inverter-hours are read for the fleet ranking's availability (GET /diagnose/ranking: about 1,000
 * plants of four inverters over a month); plants past it get none.
 */
export const AVAILABILITY_FLEET_MAX_INVERTER_STEPS = 3_000_000;

/** Whether availability is computed for a period of `ms` over `inverters` at a diagnosis unit (see the two bounds). */
export function availabilityWithinBounds(ms: number, inverters: number, unit: number): boolean {
  if (ms > AVAILABILITY_WINDOW_MAX_DAYS * 86_400_000) return false;
  return (ms / (availabilityStepMinutes(unit) * 60_000)) * inverters <= AVAILABILITY_MAX_INVERTER_STEPS;
}

/** Step of the availability grid for a diagnosis unit, minutes. */
export function availabilityStepMinutes(unit: number): 10 | 60 {
  return unit === 10 ? 10 : 60;
}

/** A counter step above this multiple of what the rating allows over the elapsed time is absurd (a jump). */
export const COUNTER_JUMP_FACTOR = 1.5;

export interface AvailabilityInverter {
  id: string;
  /** Rating P0, kW (an unrated inverter, 0, weighs nothing: domain/diagnose-ranking.ts leaves it out). */
  capacityKw: number;
  /** AC power per step, kW; null = no reading in the step. */
  powerKw: readonly (number | null)[];
  /** Cumulative energy counter read in the step, kWh; null = none. */
  counterKwh: readonly (number | null)[];
}

export interface AvailabilityInput {
  /** Start of each step, epoch ms, ascending. */
  steps: readonly number[];
  /** Step length τ, hours. */
  stepHours: number;
  /** The plant's plane-of-array irradiance per step, W/m²; null = not measured. */
  poaWm2: readonly (number | null)[];
  /** Module temperature per step, °C (the expected energy's correction); null or absent = 25 °C. */
  moduleC?: readonly (number | null)[];
  inverters: readonly AvailabilityInverter[];
  exclusions?: readonly Exclusion[];
  k?: PerformanceCoefficients;
}

export interface CounterAnomaly {
  inverterId: string;
  /** Step start of the reading whose counter broke the sequence. */
  t: number;
  kind: "reset" | "jump";
  fromKwh: number;
  toKwh: number;
}

export interface AvailabilityResult {
  time: {
    availability: number | null;
    coverage: number | null;
    availableHours: number;
    unavailableHours: number;
    /** Sunny steps of an inverter without its reading. */
    gapHours: number;
  };
  energy: {
    availability: number | null;
    coverage: number | null;
    expectedKwh: number;
    lostKwh: number;
    /** Gaps the counter resolved: it advanced (communication gap) or stayed flat (outage); and those it could not. */
    communicationGapHours: number;
    outageGapHours: number;
    unresolvedGapHours: number;
  };
  /** Steps with production but no irradiance (sensor fault): in neither figure, in both coverages. */
  irradianceGapHours: number;
  /** Sunny steps inside exclusions, per kind: hours and the expected energy in them. */
  exclusions: Record<ExclusionKind, { hours: number; expectedKwh: number }>;
  counterAnomalies: CounterAnomaly[];
}

type GapResolution = "communication" | "outage" | "unresolved";

/**
 * The counter of one inverter walked in order: the anomalies (reset, jump), and for each step without a power
 * reading, how its gap resolves.
 */
export function resolveCounter(
  steps: readonly number[],
  stepHours: number,
  inv: AvailabilityInverter,
): { anomalies: CounterAnomaly[]; gaps: (GapResolution | null)[] } {
  const n = steps.length;
  const anomalies: CounterAnomaly[] = [];
  // A broken sequence at step j: the delta ending at j is unusable.
  const broken = new Uint8Array(n);
  let last = -1;
  for (let j = 0; j < n; j++) {
    const c = inv.counterKwh[j];
    if (c === null || c === undefined || !Number.isFinite(c)) continue;
    if (last >= 0) {
      const prev = inv.counterKwh[last]!;
      const hours = (steps[j]! - steps[last]!) / 3_600_000 + stepHours;
      if (c < prev) {
        anomalies.push({ inverterId: inv.id, t: steps[j]!, kind: "reset", fromKwh: prev, toKwh: c });
        broken[j] = 1;
      } else if (inv.capacityKw > 0 && c - prev > COUNTER_JUMP_FACTOR * inv.capacityKw * hours) {
        anomalies.push({ inverterId: inv.id, t: steps[j]!, kind: "jump", fromKwh: prev, toKwh: c });
        broken[j] = 1;
      }
    }
    last = j;
  }
  const gaps: (GapResolution | null)[] = new Array<GapResolution | null>(n).fill(null);
  let j = 0;
  while (j < n) {
    if (inv.powerKw[j] !== null && inv.powerKw[j] !== undefined) {
      j++;
      continue;
    }
    let end = j;
    while (end + 1 < n && (inv.powerKw[end + 1] === null || inv.powerKw[end + 1] === undefined)) end++;
    // The counters around the run: the nearest before it and after it (a counter inside the run is a reading too).
    let before = -1;
    for (let b = j - 1; b >= 0; b--)
      if (isNum(inv.counterKwh[b])) {
        before = b;
        break;
      }
    let after = -1;
    for (let a = end + 1; a < n; a++)
      if (isNum(inv.counterKwh[a])) {
        after = a;
        break;
      }
    let res: GapResolution = "unresolved";
    if (before >= 0 && after >= 0) {
      let clean = true;
      for (let x = before + 1; x <= after; x++) if (broken[x]) clean = false;
      if (clean) res = inv.counterKwh[after]! > inv.counterKwh[before]! ? "communication" : "outage";
    }
    for (let x = j; x <= end; x++) gaps[x] = res;
    j = end + 1;
  }
  return { anomalies, gaps };
}

const isNum = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

function exclusionAt(t: number, exclusions: readonly Exclusion[]): ExclusionKind | null {
  for (const e of exclusions) if (t >= e.from && t < e.to) return e.kind;
  return null;
}

/** Time- and energy-based availability of one plant with coverage, exclusions and counter anomalies (see header). */
export function plantAvailability(input: AvailabilityInput): AvailabilityResult {
  const { steps, stepHours: tau, poaWm2 } = input;
  const k = input.k ?? DEFAULT_COEFFICIENTS;
  const exclusions = input.exclusions ?? [];
  const inverters = input.inverters.filter((i) => i.capacityKw > 0);
  const fleetKw = inverters.reduce((s, i) => s + i.capacityKw, 0);
  const resolved = inverters.map((inv) => resolveCounter(steps, tau, inv));
  const h = (kw: number) => (fleetKw > 0 ? (kw * tau) / fleetKw : 0);

  let avail = 0;
  let unavail = 0;
  let gap = 0;
  let comm = 0;
  let outage = 0;
  let unresolved = 0;
  let irrGap = 0;
  let expected = 0;
  let lost = 0;
  const excl: AvailabilityResult["exclusions"] = {
    curtailment: { hours: 0, expectedKwh: 0 },
    grid_outage: { hours: 0, expectedKwh: 0 },
    maintenance: { hours: 0, expectedKwh: 0 },
  };

  for (let s = 0; s < steps.length; s++) {
    const g = poaWm2[s];
    if (g === null || g === undefined || !Number.isFinite(g)) {
      // Unknown sun: a gap only where some inverter shows it was day (it produced).
      if (inverters.some((inv) => (inv.powerKw[s] ?? 0) > 0)) irrGap += fleetKw;
      continue;
    }
    if (!(g > AVAILABILITY_THRESHOLD_WM2)) continue;
    const kind = exclusionAt(steps[s]!, exclusions);
    const t = input.moduleC?.[s] ?? STC_TEMPERATURE_C;
    inverters.forEach((inv, i) => {
      const exp = expectedPowerKw(inv.capacityKw, g, t, k) * tau;
      if (kind) {
        excl[kind].hours += h(inv.capacityKw);
        excl[kind].expectedKwh += exp;
        return;
      }
      const p = inv.powerKw[s];
      if (isNum(p)) {
        expected += exp;
        if (p > 0) avail += inv.capacityKw;
        else {
          unavail += inv.capacityKw;
          lost += exp;
        }
        return;
      }
      gap += inv.capacityKw;
      const r = resolved[i]!.gaps[s];
      if (r === "communication") {
        comm += inv.capacityKw;
        expected += exp;
      } else if (r === "outage") {
        outage += inv.capacityKw;
        expected += exp;
        lost += exp;
      } else unresolved += inv.capacityKw;
    });
  }

  const measured = avail + unavail;
  const decided = measured + comm + outage;
  return {
    time: {
      availability: measured > 0 ? avail / measured : null,
      coverage: measured + gap + irrGap > 0 ? measured / (measured + gap + irrGap) : null,
      availableHours: h(avail),
      unavailableHours: h(unavail),
      gapHours: h(gap),
    },
    energy: {
      availability: expected > 0 ? 1 - lost / expected : null,
      coverage: decided + unresolved + irrGap > 0 ? decided / (decided + unresolved + irrGap) : null,
      expectedKwh: expected,
      lostKwh: lost,
      communicationGapHours: h(comm),
      outageGapHours: h(outage),
      unresolvedGapHours: h(unresolved),
    },
    irradianceGapHours: h(irrGap),
    exclusions: excl,
    counterAnomalies: resolved.flatMap((r) => r.anomalies),
  };
}

/**
 * Energy of one inverter from its counter over the steps: the sum of its non-negative, physically possible deltas
 * (a reset or a jump adds nothing and is reported by resolveCounter).
 */
export function counterEnergyKwh(steps: readonly number[], stepHours: number, inv: AvailabilityInverter): number {
  const { anomalies } = resolveCounter(steps, stepHours, inv);
  const bad = new Set(anomalies.map((a) => a.t));
  let total = 0;
  let last: number | null = null;
  for (let j = 0; j < steps.length; j++) {
    const c = inv.counterKwh[j];
    if (!isNum(c)) continue;
    if (last !== null && !bad.has(steps[j]!)) total += c - last;
    last = c;
  }
  return total;
}
