// The losses real plants have and a fresh, perfect simulator would not (issue 26 point 14): soiling that builds up on
// dry days and washes off with rain, module degradation with the plant's age, mismatch and wiring losses, an array
// oversized for its inverters (clipping), a plant curtailed by the grid operator on some afternoons, and a string
// that underperforms. Everything is a pure function of the plant's identity and the time (deterministic randomness,
// api/sim/random.ts): the 90-day history and the live simulator see the same losses.
import { hash01, hashSeed } from "./random";
import { DAY_MS, HOUR_MS, kstDayIndex, kstDayStartMs } from "./time";
import type { SkyCondition } from "./weather";

const YEAR_MS = 365.25 * DAY_MS;

export interface CurtailmentSpec {
  /** Export limit while curtailed, share of the plant's AC rating. */
  limitShare: number;
  /** KST hours of the curtailment window [from, to). */
  fromHour: number;
  toHour: number;
  /** Share of the sunny days (clear or partly cloudy) on which the operator curtails. */
  daysShare: number;
}

export interface WeakStringSpec {
  /** Inverter index whose string underperforms. */
  inverter: number;
  /** Its current as a share of its siblings' (shading by a grown tree, cracked cells, PID), 0–1. */
  output: number;
}

/** A plant's losses beyond the physics' default derate (pv.ts). */
export interface PlantLosses {
  /** Module mismatch and DC/AC wiring (ohmic) losses, constant share lost (0.02–0.05 in practice). */
  mismatchWiring: number;
  /** When the plant was commissioned, UTC ms: its modules' age. */
  commissionedMs: number;
  /** Light-induced degradation in the first year, share (1–2 %). */
  firstYearDegradation: number;
  /** Degradation per year after the first, share (0.4–0.8 %/a for crystalline modules). */
  degradationPerYear: number;
  /** Soiling added per dry day, share. */
  soilingPerDay: number;
  /** Soiling never exceeds this share (wind and dew clean a little). */
  soilingMax: number;
  /** Array DC/AC ratio (pv.ts default 1.1). */
  dcAcRatio?: number;
  /**
   * Active-power limit of the plant's inverters, share of their registered rating: an inverter smaller than the
   * capacity the plant registered (설비용량), or a limit parameter left set. They clip there on bright middays.
   */
  inverterLimitShare?: number;
  curtailment?: CurtailmentSpec;
  weakString?: WeakStringSpec;
}

/** What the demo's named plants have besides the losses every plant has (see DEMO_NAMED_LOSSES). */
export type NamedLoss = "clipping" | "curtailment" | "weakString" | "heavySoiling";

/**
 * The demo fleet's named loss cases, by plant uid (api/sim/fleet.ts names the plants), so diagnosis and reports find
 * what an O&M engineer expects: 영암 에너지파크 1호's inverters are smaller than its registered capacity and clip at 70 %
 * of it on bright middays; 서귀포
 * 솔라팜 1호 is curtailed by the grid operator (제주 출력제어) on some sunny afternoons; 음성 솔라파크 1호's inverter 3
 * has a string at 55 % of its siblings; 상주 솔라팜 1호 stands beside livestock barns and soils fast.
 */
export const DEMO_NAMED_LOSSES: Readonly<Record<string, { kind: NamedLoss; losses: Partial<PlantLosses> }>> = Object.freeze({
  P000108: { kind: "clipping", losses: { inverterLimitShare: 0.7 } },
  P00010F: {
    kind: "curtailment",
    losses: { curtailment: { limitShare: 0.6, fromHour: 11, toHour: 15, daysShare: 0.35 } },
  },
  P000104: { kind: "weakString", losses: { weakString: { inverter: 2, output: 0.55 } } },
  P00010A: { kind: "heavySoiling", losses: { soilingPerDay: 0.006, soilingMax: 0.12 } },
});

/** The newest a demo plant was commissioned (its age counts from here back). */
const DEMO_EPOCH_MS = Date.UTC(2026, 0, 1);

/** The losses of a demo plant: every plant's seeded everyday losses, and its named case if it has one. */
export function demoPlantLosses(uid: string): PlantLosses {
  const seed = hashSeed("losses", uid);
  const u = (k: number) => hash01(seed, k);
  const base: PlantLosses = {
    mismatchWiring: 0.06 + 0.03 * u(1),
    // Built 2018–2025.
    commissionedMs: DEMO_EPOCH_MS - (0.5 + 7.5 * u(2)) * YEAR_MS,
    firstYearDegradation: 0.01 + 0.01 * u(3),
    degradationPerYear: 0.004 + 0.004 * u(4),
    soilingPerDay: 0.002 + 0.003 * u(5),
    soilingMax: 0.04 + 0.05 * u(6),
  };
  return { ...base, ...DEMO_NAMED_LOSSES[uid]?.losses };
}

/** Share of output the modules keep at an age (light-induced degradation, then a constant rate per year). */
export function degradationFactor(
  losses: Pick<PlantLosses, "commissionedMs" | "firstYearDegradation" | "degradationPerYear">,
  tMs: number,
): number {
  const years = Math.max(0, (tMs - losses.commissionedMs) / YEAR_MS);
  const first = Math.min(1, years) * losses.firstYearDegradation;
  return (1 - first) * (1 - losses.degradationPerYear * Math.max(0, years - 1));
}

/** Days of soiling the walk back looks at, at most. */
const SOILING_LOOKBACK_DAYS = 60;

/**
 * Soiling on a KST day, share lost: it grows by soilingPerDay for each dry day since the last rain (capped) and a
 * rainy day washes the modules clean. `skyOn` is the locality's weather (LocalityWeather.skyOn).
 */
export function soilingOn(
  losses: Pick<PlantLosses, "soilingPerDay" | "soilingMax">,
  day: number,
  skyOn: (day: number) => SkyCondition,
): number {
  if (!(losses.soilingPerDay > 0)) return 0;
  const span = Math.min(SOILING_LOOKBACK_DAYS, Math.ceil(losses.soilingMax / losses.soilingPerDay));
  let dry = 0;
  for (; dry < span; dry++) if (skyOn(day - dry) === "rain") break;
  return Math.min(losses.soilingMax, dry * losses.soilingPerDay);
}

/** Whether the plant is curtailed at tMs, given its day's sky. */
export function curtailedAt(curtailment: CurtailmentSpec | undefined, seed: number, tMs: number, sky: SkyCondition): boolean {
  if (!curtailment) return false;
  if (sky !== "clear" && sky !== "partlyCloudy") return false;
  const day = kstDayIndex(tMs);
  const hour = (tMs - kstDayStartMs(day)) / HOUR_MS;
  if (hour < curtailment.fromHour || hour >= curtailment.toHour) return false;
  return hash01(seed, day, 0x63757274) < curtailment.daysShare;
}
