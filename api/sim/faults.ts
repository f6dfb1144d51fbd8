// Seeded fault injection. Episodes are drawn per (plant, device, KST day) from a Poisson process, so the
// episodes active at any instant are a pure function of the seed and the time: a 90-day backfill and the
// live simulator see exactly the same history.
import { Rng, hashSeed } from "./random";
import { DAY_MS, HOUR_MS, MINUTE_MS, kstCivilDate, kstDayIndex, kstDayStartMs } from "./time";

export type FaultKind = "inverterFault" | "commLoss" | "rtuOffline" | "underperformance";
export const FAULT_KINDS: readonly FaultKind[] = ["inverterFault", "commLoss", "rtuOffline", "underperformance"];

export interface InverterFaultCode {
  /** Numeric code as the inverter reports it (one bit of its fault register). */
  code: number;
  /** The same code as the gateway's hex string, e.g. '0x0008'. */
  hex: string;
  nameKo: string;
  nameEn: string;
  /** Alarm level 1–4 (interest, caution, warning, severe). */
  level: 1 | 2 | 3 | 4;
}

function fault(bit: number, nameKo: string, nameEn: string, level: 1 | 2 | 3 | 4): InverterFaultCode {
  const code = 1 << bit;
  return { code, hex: `0x${code.toString(16).toUpperCase().padStart(4, "0")}`, nameKo, nameEn, level };
}

/** Inverter fault register bits, as on common Korean three-phase string/central inverters. */
export const INVERTER_FAULT_CODES: readonly InverterFaultCode[] = Object.freeze([
  fault(0, "DC 과전압", "DC overvoltage", 3),
  fault(1, "DC 저전압", "DC undervoltage", 2),
  fault(2, "DC 과전류", "DC overcurrent", 3),
  fault(3, "계통 과전압", "Grid overvoltage", 2),
  fault(4, "계통 저전압", "Grid undervoltage", 2),
  fault(5, "계통 주파수 이상", "Grid frequency abnormal", 2),
  fault(6, "계통 정전", "Grid outage", 3),
  fault(7, "절연 저항 이상", "Insulation resistance fault", 3),
  fault(8, "인버터 과온", "Inverter overtemperature", 3),
  fault(9, "DC 지락", "DC ground fault", 4),
  fault(10, "출력 과전류", "AC overcurrent", 3),
  fault(11, "IGBT 이상", "IGBT fault", 4),
  fault(12, "누설 전류 이상", "Residual current fault", 3),
  fault(13, "냉각팬 이상", "Cooling fan fault", 1),
]);

const CODE_INDEX = new Map(INVERTER_FAULT_CODES.map((c) => [c.code, c]));

export function faultCodeInfo(code: number): InverterFaultCode | undefined {
  return CODE_INDEX.get(code);
}

/** Hex string of a fault register value (several bits may be set), e.g. 0x0088. */
export function faultHex(code: number): string {
  return `0x${(code >>> 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Relative likelihood of each code, before the hour/season adjustments below. */
const BASE_WEIGHTS: Readonly<Record<string, number>> = {
  "DC 과전압": 5,
  "DC 저전압": 3,
  "DC 과전류": 3,
  "계통 과전압": 24,
  "계통 저전압": 9,
  "계통 주파수 이상": 7,
  "계통 정전": 4,
  "절연 저항 이상": 11,
  "인버터 과온": 8,
  "DC 지락": 5,
  "출력 과전류": 4,
  "IGBT 이상": 2,
  "누설 전류 이상": 6,
  "냉각팬 이상": 4,
};

/** Pick a plausible code for a fault starting at this KST hour and month. */
function drawFaultCode(rng: Rng, hour: number, month: number): number {
  const summer = month >= 6 && month <= 8;
  const winter = month === 12 || month <= 2;
  const weights = INVERTER_FAULT_CODES.map((c) => {
    let w = BASE_WEIGHTS[c.nameKo] ?? 1;
    // Grid voltage peaks with midday PV infeed on rural feeders.
    if (c.nameKo === "계통 과전압" && hour >= 11 && hour <= 15) w *= 2;
    // Dew and wet modules: insulation and leakage trips at morning start-up.
    if ((c.nameKo === "절연 저항 이상" || c.nameKo === "누설 전류 이상") && hour < 10) w *= 2.5;
    // Hot afternoons cook inverters; cold bright mornings push open-circuit voltage up.
    if ((c.nameKo === "인버터 과온" || c.nameKo === "냉각팬 이상") && summer && hour >= 12) w *= 3;
    if (c.nameKo === "DC 과전압" && winter && hour < 11) w *= 3;
    return w;
  });
  return INVERTER_FAULT_CODES[rng.weightedIndex(weights)]!.code;
}

export type UnderperformanceCause = "soiling" | "shading" | "stringFailure";

export interface FaultEpisode {
  kind: FaultKind;
  /** Inverter index (inverterFault, underperformance), device index (commLoss) or RTU index (rtuOffline). */
  index: number;
  startMs: number;
  endMs: number;
  /** inverterFault: the fault code. */
  code?: number;
  /** underperformance: output multiplier 0.3–0.6. */
  factor?: number;
  cause?: UnderperformanceCause;
}

/** Episodes per device per 30 days at intensity 1, and how long they last. */
export interface FaultRate {
  perMonth: number;
  minDurationMs: number;
  maxDurationMs: number;
  /** KST hours in which an episode may start. */
  startHours: readonly [number, number];
}

export const BASE_FAULT_RATES: Readonly<Record<FaultKind, FaultRate>> = Object.freeze({
  // Trips happen while the inverter is running, i.e. in daylight.
  inverterFault: { perMonth: 1, minDurationMs: 20 * MINUTE_MS, maxDurationMs: 3 * HOUR_MS, startHours: [8, 17] },
  commLoss: { perMonth: 1.5, minDurationMs: 10 * MINUTE_MS, maxDurationMs: 3 * HOUR_MS, startHours: [0, 24] },
  rtuOffline: { perMonth: 3, minDurationMs: 30 * MINUTE_MS, maxDurationMs: 6 * HOUR_MS, startHours: [0, 24] },
  // Soiling and dead strings last until someone cleans or repairs: hours to days.
  underperformance: { perMonth: 0.12, minDurationMs: 3 * HOUR_MS, maxDurationMs: 3 * DAY_MS, startHours: [6, 18] },
});

/**
 * Intensity for a ~35-plant demo fleet: several episodes of every kind active at any daytime moment
 * (≈ 4 inverter faults, 3–4 silent devices, 2–3 offline RTUs, 4 underperforming inverters).
 */
export const DEMO_FAULT_INTENSITY = 8;

export interface PlantFaultLayout {
  /** Plant identity (uid or name). */
  seed: number | string;
  inverters: number;
  /** Every device that can stop answering (inverters included), in the caller's device order. */
  devices: number;
  rtus: number;
}

/**
 * A defect that stays until someone repairs it: a blown string fuse (its string reads 0 A on the connection
 * board and the inverter loses that string's share) or a failing inverter (derating, a tired IGBT stack).
 */
export interface StandingDefect {
  inverter: number;
  /** Strings of this inverter that carry no current. */
  deadStrings?: number;
  /** Output multiplier of a failing inverter, 0–1. */
  factor?: number;
}

/**
 * The demo fleet's standing defects, by plant uid (api/sim/fleet.ts names the plants): the measurement and
 * diagnosis screens must find them — a blown string at 화성 솔라팜 1호 (inverter 2), a failing inverter at
 * 서산 솔라파크 2호 (inverter 2, under half its sibling's yield).
 */
export const DEMO_STANDING_DEFECTS: Readonly<Record<string, readonly StandingDefect[]>> = Object.freeze({
  P000100: [{ inverter: 1, deadStrings: 1 }],
  P000113: [{ inverter: 1, factor: 0.45 }],
});

export interface FaultOptions {
  /** Multiplier on every rate (1 = realistic, DEMO_FAULT_INTENSITY for the demo), or one per kind. */
  intensity?: number | Partial<Record<FaultKind, number>>;
  rates?: Partial<Record<FaultKind, FaultRate>>;
  /**
   * Spread of per-plant proneness (log-normal sigma). Some sites are simply troublesome: an old inverter
   * model, a weak LTE signal, a dusty farm road. 0 makes every plant alike. Default 0.5.
   */
  pronenessSigma?: number;
  /** Standing defects; default: the demo fleet's for this plant uid (DEMO_STANDING_DEFECTS). */
  standing?: readonly StandingDefect[];
}

/** Per-step fault state of a plant; satisfies pv.ts PlantConditions. */
export interface FaultFrame {
  /** Per inverter: active fault code, 0 = none. */
  inverterFaultCode: Int32Array;
  /** Per inverter: 1 = healthy, else the underperformance multiplier. */
  inverterOutputFactor: Float64Array;
  /** Per inverter: 1 while the underperformance is dead strings. */
  inverterStringLoss: Uint8Array;
  /** Per inverter: strings with a blown fuse (standing defects). */
  inverterDeadStrings: Uint8Array;
  /** Per device: 1 while the device does not answer its RTU. */
  deviceCommLost: Uint8Array;
  /** Per RTU: 1 while the RTU cannot reach the server. */
  rtuOffline: Uint8Array;
}

const KIND_SALT: Readonly<Record<FaultKind, number>> = { inverterFault: 11, commLoss: 23, rtuOffline: 37, underperformance: 51 };

/** Deterministic fault schedule of one plant. Memoises the episode lists of recently used days. */
export class FaultSchedule {
  readonly seed: number;
  private readonly rates: Record<FaultKind, FaultRate>;
  private readonly intensity: Record<FaultKind, number>;
  private readonly lookbackDays: number;
  private readonly cache = new Map<number, FaultEpisode[]>();
  private readonly standing: readonly StandingDefect[];

  constructor(
    readonly layout: PlantFaultLayout,
    options: FaultOptions = {},
  ) {
    this.seed = typeof layout.seed === "string" ? hashSeed("faults", layout.seed) : hashSeed("faults", layout.seed >>> 0);
    this.rates = { ...BASE_FAULT_RATES, ...options.rates };
    this.standing = options.standing ?? (typeof layout.seed === "string" ? (DEMO_STANDING_DEFECTS[layout.seed] ?? []) : []);
    const inten = options.intensity ?? 1;
    const sigma = options.pronenessSigma ?? 0.5;
    // Mean-one log-normal, so the fleet-wide rate stays what the table says.
    const proneness = Math.exp(new Rng(hashSeed(this.seed, "proneness")).normal(-(sigma * sigma) / 2, sigma));
    this.intensity = {} as Record<FaultKind, number>;
    for (const k of FAULT_KINDS) this.intensity[k] = (typeof inten === "number" ? inten : (inten[k] ?? 1)) * proneness;
    let maxDur = 0;
    for (const k of FAULT_KINDS) maxDur = Math.max(maxDur, this.rates[k].maxDurationMs);
    this.lookbackDays = Math.ceil(maxDur / DAY_MS) + 1;
  }

  /** Episodes that start on a KST day, every kind and device, sorted by start. */
  episodesStartingOn(day: number): readonly FaultEpisode[] {
    const hit = this.cache.get(day);
    if (hit) return hit;
    const list: FaultEpisode[] = [];
    const date = kstCivilDate(day);
    const dayStart = kstDayStartMs(day);
    const counts: Record<FaultKind, number> = {
      inverterFault: this.layout.inverters,
      commLoss: this.layout.devices,
      rtuOffline: this.layout.rtus,
      underperformance: this.layout.inverters,
    };
    for (const kind of FAULT_KINDS) {
      const rate = this.rates[kind];
      const lambda = (rate.perMonth / 30) * this.intensity[kind];
      if (lambda <= 0) continue;
      for (let index = 0; index < counts[kind]; index++) {
        const rng = new Rng(hashSeed(this.seed, KIND_SALT[kind], index, day));
        const n = rng.poisson(lambda);
        for (let e = 0; e < n; e++) {
          const hour = rng.uniform(rate.startHours[0], rate.startHours[1]);
          const startMs = dayStart + Math.floor((hour * HOUR_MS) / MINUTE_MS) * MINUTE_MS;
          const endMs = startMs + Math.round(rng.logUniform(rate.minDurationMs, rate.maxDurationMs) / MINUTE_MS) * MINUTE_MS;
          const ep: FaultEpisode = { kind, index, startMs, endMs };
          if (kind === "inverterFault") ep.code = drawFaultCode(rng, hour, date.month);
          if (kind === "underperformance") {
            ep.factor = rng.uniform(0.3, 0.6);
            ep.cause = rng.pick(["soiling", "shading", "stringFailure"] as const);
          }
          list.push(ep);
        }
      }
    }
    list.sort((a, b) => a.startMs - b.startMs);
    if (this.cache.size >= 32) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(day, list);
    return list;
  }

  /** Episodes overlapping [fromMs, toMs). */
  episodesBetween(fromMs: number, toMs: number): FaultEpisode[] {
    const result: FaultEpisode[] = [];
    const first = kstDayIndex(fromMs) - this.lookbackDays;
    const last = kstDayIndex(toMs - 1);
    for (let d = first; d <= last; d++)
      for (const ep of this.episodesStartingOn(d)) if (ep.startMs < toMs && ep.endMs > fromMs) result.push(ep);
    return result;
  }

  /** Episodes active at tMs (start ≤ t < end). */
  activeAt(tMs: number): FaultEpisode[] {
    return this.episodesBetween(tMs, tMs + 1);
  }

  /** Fault state at tMs written into `out` (allocated if omitted). */
  frameAt(tMs: number, out: FaultFrame = createFaultFrame(this.layout)): FaultFrame {
    out.inverterFaultCode.fill(0);
    out.inverterOutputFactor.fill(1);
    out.inverterStringLoss.fill(0);
    out.inverterDeadStrings.fill(0);
    out.deviceCommLost.fill(0);
    out.rtuOffline.fill(0);
    for (const d of this.standing) {
      if (d.inverter < 0 || d.inverter >= out.inverterOutputFactor.length) continue;
      if (d.deadStrings) out.inverterDeadStrings[d.inverter] = d.deadStrings;
      if (d.factor !== undefined)
        out.inverterOutputFactor[d.inverter] = Math.min(out.inverterOutputFactor[d.inverter]!, d.factor);
    }
    const today = kstDayIndex(tMs);
    for (let d = today - this.lookbackDays; d <= today; d++) {
      for (const ep of this.episodesStartingOn(d)) {
        if (ep.startMs > tMs) break; // sorted by start
        if (ep.endMs <= tMs) continue;
        switch (ep.kind) {
          case "inverterFault":
            if (ep.index < out.inverterFaultCode.length) out.inverterFaultCode[ep.index] = ep.code ?? 0;
            break;
          case "underperformance":
            if (ep.index < out.inverterOutputFactor.length) {
              out.inverterOutputFactor[ep.index] = Math.min(out.inverterOutputFactor[ep.index]!, ep.factor ?? 1);
              if (ep.cause === "stringFailure") out.inverterStringLoss[ep.index] = 1;
            }
            break;
          case "commLoss":
            if (ep.index < out.deviceCommLost.length) out.deviceCommLost[ep.index] = 1;
            break;
          case "rtuOffline":
            if (ep.index < out.rtuOffline.length) out.rtuOffline[ep.index] = 1;
            break;
        }
      }
    }
    return out;
  }
}

export function createFaultFrame(layout: Pick<PlantFaultLayout, "inverters" | "devices" | "rtus">): FaultFrame {
  return {
    inverterFaultCode: new Int32Array(layout.inverters),
    inverterOutputFactor: new Float64Array(layout.inverters).fill(1),
    inverterStringLoss: new Uint8Array(layout.inverters),
    inverterDeadStrings: new Uint8Array(layout.inverters),
    deviceCommLost: new Uint8Array(layout.devices),
    rtuOffline: new Uint8Array(layout.rtus),
  };
}
