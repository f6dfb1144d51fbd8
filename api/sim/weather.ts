// Weather per locality and KST day: a sky condition with Korean seasonal odds (the changma monsoon in late
// June–July), an intra-day clearness factor scaling clear-sky irradiance, and ambient temperature.
// Everything is a pure function of (locality seed, day, time): backfilled history and live data agree.
import { Rng, hashNormal, hashSeed, normalCdf } from "./random";
import { sunTimes } from "./solar";
import { HOUR_MS, kstCivilDate, kstDayIndex, kstDayStartMs } from "./time";

export type SkyCondition = "clear" | "partlyCloudy" | "overcast" | "rain";
export const SKY_CONDITIONS: readonly SkyCondition[] = ["clear", "partlyCloudy", "overcast", "rain"];

/** Clearness never drops below this: even heavy rain leaves some diffuse light. */
export const MIN_CLEARNESS = 0.05;
export const MAX_CLEARNESS = 1;

/** Odds of [clear, partly cloudy, overcast, rain] by month (Jan…Dec), central Korea. */
const MONTHLY_SKY_ODDS: ReadonlyArray<readonly [number, number, number, number]> = [
  [0.45, 0.3, 0.17, 0.08],
  [0.42, 0.32, 0.17, 0.09],
  [0.34, 0.35, 0.19, 0.12],
  [0.32, 0.35, 0.19, 0.14],
  [0.32, 0.36, 0.18, 0.14],
  [0.24, 0.38, 0.22, 0.16],
  [0.14, 0.32, 0.28, 0.26],
  [0.22, 0.38, 0.2, 0.2],
  [0.33, 0.35, 0.17, 0.15],
  [0.45, 0.32, 0.13, 0.1],
  [0.38, 0.32, 0.18, 0.12],
  [0.42, 0.3, 0.18, 0.1],
];
/** Changma (장마): roughly 22 June – 25 July, the sky is mostly overcast or raining. */
const MONSOON_ODDS = [0.07, 0.25, 0.35, 0.33] as const;
const MONSOON_FIRST_DOY = 173;
const MONSOON_LAST_DOY = 206;

/** Monthly mean air temperature, °C, for Seoul-latitude Korea (KMA 1991–2020 normals, rounded). */
const MONTHLY_MEAN_C = [-2.0, 0.5, 6.0, 12.5, 18.0, 22.5, 25.5, 26.0, 21.5, 15.0, 7.5, 0.5] as const;
const REFERENCE_LAT = 37.57;
/** Ambient temperature peaks mid-afternoon (KST hours). */
const T_MAX_HOUR = 14.5;

/** A seed shared by every locality: fronts and the monsoon cover the whole peninsula at once. */
const NATIONAL_SEED = hashSeed("korea-synoptic");
/** Share of the day's sky draw that is national rather than local (Gaussian copula weight). */
const NATIONAL_WEIGHT = 0.75;

export interface DayWeather {
  /** KST day index. */
  day: number;
  sky: SkyCondition;
  /** Typical clearness between clouds (partly cloudy) or overall level (others). */
  baseClearness: number;
  /** Transmission under a passing cloud (partly cloudy days). */
  cloudTransmission: number;
  /** Threshold on the cloud field: higher → fewer clouds. */
  cloudThreshold: number;
  /** Amplitude of slow variation in clearness. */
  variability: number;
  /** Linear drift of clearness from 06:00 to 18:00 (e.g. clearing in the afternoon). */
  trend: number;
  /** Periods (h), phases (rad) and weights of the cloud field's sines. */
  periods: Float64Array;
  phases: Float64Array;
  weights: Float64Array;
  /** Temperature at sunrise and at mid-afternoon, °C. */
  tMinC: number;
  tMaxC: number;
  /** KST hour of sunrise (fractional). */
  sunriseHour: number;
}

export interface WeatherSample {
  sky: SkyCondition;
  /** Fraction of clear-sky irradiance reaching the ground, 0.05–1. */
  clearness: number;
  /** Ambient air temperature, °C. */
  ambientC: number;
}

function skyOdds(dayOfYear: number, month: number): readonly number[] {
  if (dayOfYear >= MONSOON_FIRST_DOY && dayOfYear <= MONSOON_LAST_DOY) return MONSOON_ODDS;
  return MONTHLY_SKY_ODDS[month - 1]!;
}

function skyFromUniform(u: number, odds: readonly number[]): SkyCondition {
  let acc = 0;
  for (let i = 0; i < 4; i++) {
    acc += odds[i]!;
    if (u < acc) return SKY_CONDITIONS[i]!;
  }
  return "rain";
}

/** Seasonal mean temperature at a day of year, interpolated between mid-month normals, with latitude. */
export function seasonalMeanC(dayOfYear: number, latDeg: number): number {
  const m = ((dayOfYear - 15.5) / 30.44 + 12) % 12; // 0 = mid-January
  const i0 = Math.floor(m);
  const f = m - i0;
  const base = MONTHLY_MEAN_C[i0 % 12]! * (1 - f) + MONTHLY_MEAN_C[(i0 + 1) % 12]! * f;
  // South is warmer, much more so in winter (Jeju January ≈ +6 °C vs Seoul −2 °C).
  const winterness = 0.5 + 0.5 * Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365.25);
  const perDegree = 0.4 + 1.6 * winterness;
  return base + (REFERENCE_LAT - latDeg) * perDegree;
}

/**
 * Weather of one locality. Cheap to construct; memoises a few recent days, so one instance per locality
 * (or per plant) stepping forward in time costs a handful of trig calls per step.
 */
export class LocalityWeather {
  private readonly cache = new Map<number, DayWeather>();
  private readonly skyCache = new Map<number, SkyCondition>();

  constructor(
    readonly seed: number,
    readonly latDeg: number,
    readonly lonDeg: number,
  ) {}

  /** Sky condition of a KST day: persistent weather (today often repeats yesterday) with seasonal odds. */
  skyOn(day: number): SkyCondition {
    const hit = this.skyCache.get(day);
    if (hit !== undefined) return hit;
    let sky: SkyCondition | null = null;
    // Walk back while "today repeats yesterday"; the chain is short (p ≈ 0.35–0.5) and capped.
    let d = day;
    for (let depth = 0; depth < 8; depth++) {
      const date = kstCivilDate(d);
      const monsoon = date.dayOfYear >= MONSOON_FIRST_DOY && date.dayOfYear <= MONSOON_LAST_DOY;
      const zPersist =
        Math.sqrt(NATIONAL_WEIGHT) * hashNormal(NATIONAL_SEED, d, 2) +
        Math.sqrt(1 - NATIONAL_WEIGHT) * hashNormal(this.seed, d, 2);
      const persist = normalCdf(zPersist) < (monsoon ? 0.5 : 0.35);
      if (!persist || depth === 7) {
        const z =
          Math.sqrt(NATIONAL_WEIGHT) * hashNormal(NATIONAL_SEED, d, 1) +
          Math.sqrt(1 - NATIONAL_WEIGHT) * hashNormal(this.seed, d, 1);
        sky = skyFromUniform(normalCdf(z), skyOdds(date.dayOfYear, date.month));
        break;
      }
      d -= 1;
    }
    const result = sky ?? "clear";
    this.remember(this.skyCache, day, result);
    return result;
  }

  /** All parameters of a KST day (memoised). */
  day(day: number): DayWeather {
    const hit = this.cache.get(day);
    if (hit) return hit;
    const dw = this.computeDay(day);
    this.remember(this.cache, day, dw);
    return dw;
  }

  private remember<V>(map: Map<number, V>, key: number, value: V): void {
    if (map.size >= 16) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(key, value);
  }

  private computeDay(day: number): DayWeather {
    const sky = this.skyOn(day);
    const rng = new Rng(hashSeed(this.seed, day, "day"));
    const date = kstCivilDate(day);

    let baseClearness: number;
    let variability: number;
    let trend: number;
    let cloudThreshold = 2; // no passing clouds unless partly cloudy
    let cloudTransmission = 1;
    switch (sky) {
      case "clear":
        baseClearness = rng.uniform(0.94, 1.0);
        variability = rng.uniform(0.005, 0.02);
        trend = rng.uniform(-0.03, 0.02);
        break;
      case "partlyCloudy":
        baseClearness = rng.uniform(0.88, 1.0);
        variability = rng.uniform(0.02, 0.05);
        trend = rng.uniform(-0.1, 0.1);
        cloudThreshold = rng.uniform(-0.35, 0.55);
        cloudTransmission = rng.uniform(0.25, 0.55);
        break;
      case "overcast":
        baseClearness = rng.uniform(0.2, 0.42);
        variability = rng.uniform(0.04, 0.1);
        trend = rng.uniform(-0.12, 0.12);
        break;
      default:
        baseClearness = rng.uniform(0.07, 0.18);
        variability = rng.uniform(0.02, 0.05);
        trend = rng.uniform(-0.05, 0.05);
    }
    const n = 4;
    const periods = new Float64Array(n);
    const phases = new Float64Array(n);
    const weights = new Float64Array(n);
    let wsum = 0;
    for (let i = 0; i < n; i++) {
      // Cloud passages from ~25 minutes to a few hours.
      periods[i] = rng.logUniform(0.4, 4);
      phases[i] = rng.uniform(0, 2 * Math.PI);
      weights[i] = rng.uniform(0.5, 1);
      wsum += weights[i]!;
    }
    // Normalise so the field spans roughly −1…1 (sum of sines ⇒ sd ≈ 0.5).
    for (let i = 0; i < n; i++) weights[i] = (weights[i]! / wsum) * 1.6;

    // Temperature: seasonal mean + a smooth multi-day anomaly + sky effects.
    const mean = seasonalMeanC(date.dayOfYear, this.latDeg);
    let anomaly = 0;
    const w = [0.55, 0.45, 0.35, 0.25];
    for (let k = 0; k < 4; k++) anomaly += w[k]! * hashNormal(this.seed, day - k, 0x7e3);
    anomaly *= 2.6 / Math.hypot(0.55, 0.45, 0.35, 0.25);
    const spring = date.month >= 3 && date.month <= 5;
    const diurnalRange =
      sky === "clear" ? (spring ? 12 : 10) : sky === "partlyCloudy" ? (spring ? 10 : 8) : sky === "overcast" ? 5 : 3;
    // Sunny summer days run hot and grey ones cool; in winter clear skies mean cold radiative nights.
    const warmSeason = date.month >= 5 && date.month <= 9;
    const coldSeason = date.month >= 11 || date.month <= 2;
    const skyShift =
      sky === "clear"
        ? warmSeason
          ? 1.5
          : coldSeason
            ? -1
            : 0.5
        : sky === "rain"
          ? warmSeason
            ? -2
            : 0
          : sky === "overcast"
            ? warmSeason
              ? -1
              : 0.5
            : 0;
    const range = diurnalRange * rng.uniform(0.85, 1.15);
    const tMean = mean + anomaly + skyShift;

    const st = sunTimes(kstDayStartMs(day) + 12 * HOUR_MS, this.latDeg, this.lonDeg);
    const sunriseHour = st.sunriseMs === null ? 6 : (st.sunriseMs - kstDayStartMs(day)) / HOUR_MS;

    return {
      day,
      sky,
      baseClearness,
      cloudTransmission,
      cloudThreshold,
      variability,
      trend,
      periods,
      phases,
      weights,
      tMinC: tMean - range / 2,
      tMaxC: tMean + range / 2,
      sunriseHour,
    };
  }

  /**
   * Clearness (0.05–1) at tMs. `shiftMin` displaces the cloud field in time, so two plants in the same
   * locality see the same clouds a few minutes apart.
   */
  clearnessAt(tMs: number, shiftMin = 0): number {
    const day = kstDayIndex(tMs);
    const dw = this.day(day);
    const h = (tMs - kstDayStartMs(day)) / HOUR_MS;
    return clearnessOf(dw, h + shiftMin / 60);
  }

  /** Ambient temperature, °C: minimum at sunrise, maximum ≈ 14:30 KST, cosine segments between. */
  ambientAt(tMs: number): number {
    const day = kstDayIndex(tMs);
    const today = this.day(day);
    const h = (tMs - kstDayStartMs(day)) / HOUR_MS;
    if (h >= today.sunriseHour && h <= T_MAX_HOUR) {
      const f = (h - today.sunriseHour) / (T_MAX_HOUR - today.sunriseHour);
      return today.tMinC + (today.tMaxC - today.tMinC) * 0.5 * (1 - Math.cos(Math.PI * f));
    }
    // Falling branch: from a day's afternoon maximum to the next day's sunrise minimum.
    const from = h > T_MAX_HOUR ? today : this.day(day - 1);
    const to = h > T_MAX_HOUR ? this.day(day + 1) : today;
    const hh = h > T_MAX_HOUR ? h : h + 24;
    const span = to.sunriseHour + 24 - T_MAX_HOUR;
    const f = (hh - T_MAX_HOUR) / span;
    return to.tMinC + (from.tMaxC - to.tMinC) * 0.5 * (1 + Math.cos(Math.PI * f));
  }

  /** Sky, clearness and ambient temperature at tMs. */
  sample(tMs: number, shiftMin = 0, out?: WeatherSample): WeatherSample {
    const o = out ?? { sky: "clear", clearness: 1, ambientC: 0 };
    o.sky = this.day(kstDayIndex(tMs)).sky;
    o.clearness = this.clearnessAt(tMs, shiftMin);
    o.ambientC = this.ambientAt(tMs);
    return o;
  }
}

/** Clearness of a day at KST hour h (may be fractional or slightly outside 0–24). */
export function clearnessOf(dw: DayWeather, h: number): number {
  let field = 0;
  for (let i = 0; i < dw.periods.length; i++)
    field += dw.weights[i]! * Math.sin((2 * Math.PI * h) / dw.periods[i]! + dw.phases[i]!);
  const drift = dw.trend * Math.max(-1, Math.min(1, (h - 12) / 6));
  let c: number;
  if (dw.sky === "partlyCloudy") {
    // A smooth step on the cloud field: shadows with soft edges rather than square pulses.
    const shade = 1 / (1 + Math.exp(-(field - dw.cloudThreshold) / 0.08));
    const slow = dw.variability * Math.sin((2 * Math.PI * h) / 5.3 + dw.phases[0]!);
    c = (dw.baseClearness + slow) * (1 - shade * (1 - dw.cloudTransmission)) + drift;
  } else {
    c = dw.baseClearness + dw.variability * field + drift;
  }
  return c < MIN_CLEARNESS ? MIN_CLEARNESS : c > MAX_CLEARNESS ? MAX_CLEARNESS : c;
}

/** Seed of a locality's weather from its name (e.g. '전라남도 영암군'). */
export function localitySeed(locality: string): number {
  return hashSeed("locality", locality);
}

/** Convenience one-shot sample (constructs a LocalityWeather; use the class in loops). */
export function weatherAt(locality: string | number, tMs: number, latDeg: number, lonDeg: number): WeatherSample {
  const seed = typeof locality === "string" ? localitySeed(locality) : locality;
  return new LocalityWeather(seed, latDeg, lonDeg).sample(tMs);
}
