// Device models of one plant: inverters, connection boards, environment sensors, VCB and ACB breakers.
// stepPlant() advances a plant by one 10-minute step and writes every device's reading into a reusable
// PlantReadings object; the only state that carries from step to step is energy (per inverter).
import { curtailedAt, degradationFactor, soilingOn, type PlantLosses } from "./losses";
import { hashNormal, hashSeed } from "./random";
import {
  DEFAULT_ORIENTATION,
  clearSkyGhi,
  emptyIrradiance,
  emptySunPosition,
  planeOfArray,
  type IrradianceComponents,
  type PanelOrientation,
  type SunPosition,
  sunPosition,
} from "./solar";
import { HOUR_MS, STEP_MS, alignToStep, kstDayIndex, stepIndex } from "./time";
import { LocalityWeather, localitySeed, type SkyCondition, type WeatherSample } from "./weather";

/** Nominal operating cell temperature, °C. */
export const NOCT_C = 45;
/** Power temperature coefficient, per °C (typical crystalline silicon). */
export const POWER_TEMP_COEFF = -0.004;
/** Voltage temperature coefficient of Vmp, per °C. */
const VOLTAGE_TEMP_COEFF = -0.0032;
/** Below this plane-of-array irradiance the inverter stays in standby. */
export const STARTUP_IRRADIANCE_WM2 = 20;
/** Korean LV grid: 380 V line-to-line, three-phase, 60 Hz. */
export const LV_LINE_VOLTAGE_V = 380;
/** Korean distribution grid: 22.9 kV class. */
export const MV_LINE_VOLTAGE_V = 22_900;
export const GRID_FREQUENCY_HZ = 60;
const SQRT3 = Math.sqrt(3);
const STEP_HOURS = STEP_MS / HOUR_MS;
/** One grid for the whole country: every plant sees the same frequency at the same moment. */
const GRID_SEED = hashSeed("kepco-grid-frequency");
/** Typical Korean specific yield, kWh per kWp per year (for seeding lifetime counters). */
export const TYPICAL_ANNUAL_YIELD_KWH_PER_KW = 1300;

export interface InverterSpec {
  /** Rated AC output, kW (the clipping limit). */
  capacityKw: number;
  /** Array nameplate on this inverter, kWp. Default 1.1 × capacityKw (a usual DC/AC ratio). */
  dcCapacityKw?: number;
  /** DC-side losses (soiling, wiring, mismatch, ageing), 0–1. Default 0.93. */
  derate?: number;
  /** Peak conversion efficiency. Default 0.97. */
  efficiency?: number;
  /** String MPP voltage at STC, V. Default ≈ 650 V ± 5 % per inverter (string length differs). */
  mppVoltageStcV?: number;
}

export interface ConnectionBoardSpec {
  /** Index into PlantSpec.inverters of the inverter this board feeds. */
  inverterIndex: number;
  /** Number of string channels (typically 8–16). */
  channels: number;
}

export interface PlantSpec {
  /** Stable identity of the plant (uid or name): seeds per-device constants and noise. */
  seed: number | string;
  latDeg: number;
  lonDeg: number;
  /** Locality name or seed: plants of one locality share the weather. */
  locality: number | string;
  orientation?: Partial<PanelOrientation>;
  inverters: readonly InverterSpec[];
  connectionBoards?: readonly ConnectionBoardSpec[];
  /** Number of environment sensors (default 1). */
  envSensors?: number;
  /** Number of VCBs (22.9 kV) and ACBs (380 V) (default 1 and 1). */
  vcbs?: number;
  acbs?: number;
  /** Losses beyond the default derate (api/sim/losses.ts); none by default (an ideal plant, for tests). */
  losses?: PlantLosses;
}

/** Source of sky and temperature for a plant; LocalityWeather by default, replaceable (tests, what-ifs). */
export interface WeatherProvider {
  sample(tMs: number, shiftMin: number, out: WeatherSample): WeatherSample;
  /** Sky of a KST day (rain washes soiling off); without it a plant never soils. */
  skyOn?(day: number): SkyCondition;
}

/** Cloudless sky at a fixed clearness with a constant air temperature. */
export function fixedWeather(clearness: number, ambientC: number): WeatherProvider {
  return {
    sample(_tMs, _shiftMin, out) {
      out.sky = "clear";
      out.clearness = clearness;
      out.ambientC = ambientC;
      return out;
    },
  };
}

/** Everything derived once from a PlantSpec, plus scratch objects reused every step. */
export interface PlantModel {
  readonly spec: PlantSpec;
  readonly seed: number;
  readonly orientation: Readonly<PanelOrientation>;
  readonly weather: WeatherProvider;
  /** Minutes by which this plant sees its locality's clouds early/late. */
  readonly cloudShiftMin: number;
  readonly inverterCount: number;
  readonly acCapacityKw: Float64Array;
  readonly dcCapacityKw: Float64Array;
  readonly derate: Float64Array;
  readonly efficiency: Float64Array;
  readonly vmpStcV: Float64Array;
  /** Per-inverter constant factor (module binning, string lengths): 0.97–1.02. */
  readonly mismatch: Float64Array;
  /** Total connection-board channels per inverter. */
  readonly channelsPerInverter: Int32Array;
  /** ACB / VCB each inverter's output flows through (round-robin). */
  readonly acbOfInverter: Int32Array;
  readonly vcbOfInverter: Int32Array;
  readonly totalAcCapacityKw: number;
  /** This plant's steady grid voltage offset (position on the feeder), fraction. */
  readonly gridVoltageBias: number;
  readonly scratch: { sun: SunPosition; irradiance: IrradianceComponents; weather: WeatherSample };
  /** The plant's losses (spec.losses) and its soiling of the KST day last stepped (carried day to day). */
  readonly losses: PlantLosses | null;
  readonly soiling: { day: number; share: number };
}

export interface PlantState {
  /** UTC ms of the last reading (aligned to the 10-minute grid). */
  tMs: number;
  /** KST day index the today-counters belong to. */
  kstDay: number;
  todayKwh: Float64Array;
  totalKwh: Float64Array;
  /** AC power at tMs, kW (trapezoidal energy integration). */
  lastAcKw: Float64Array;
}

/** Fault/degradation inputs for one step (see faults.ts: FaultFrame satisfies this). */
export interface PlantConditions {
  /** Per inverter: active fault code (0 = none). A faulted inverter stops producing. */
  inverterFaultCode: ArrayLike<number>;
  /** Per inverter: output multiplier, 1 = healthy (0.3–0.6 while underperforming). */
  inverterOutputFactor: ArrayLike<number>;
  /** Per inverter: 1 when the loss is dead strings, visible as zero channels on the connection board. */
  inverterStringLoss?: ArrayLike<number>;
  /**
   * Per inverter: strings with a blown fuse. Each takes its share of the array off the inverter's DC input
   * and reads 0 A on its connection-board channel (at a fixed, seeded position).
   */
  inverterDeadStrings?: ArrayLike<number>;
}

export interface InverterReading {
  /** Producing power (not standby, not faulted). */
  running: boolean;
  /** Active fault code, 0 = none. */
  faultCode: number;
  dcVoltageV: number;
  dcCurrentA: number;
  dcPowerKw: number;
  /** Line-to-line AC voltage (mean of RS/ST/TR), V. */
  acVoltageV: number;
  /** Phase current, A. */
  acCurrentA: number;
  acPowerKw: number;
  /** 0 when not producing. */
  powerFactor: number;
  frequencyHz: number;
  /** Heatsink-side estimate of module temperature the inverter used, °C. */
  moduleTempC: number;
  /** Energy since 00:00 KST, kWh. */
  todayKwh: number;
  /** Lifetime energy, kWh. */
  totalKwh: number;
}

export interface ConnectionBoardReading {
  /** DC bus voltage, V. */
  voltageV: number;
  /** Per-channel string current, A. */
  channelCurrentA: Float64Array;
  totalCurrentA: number;
  powerKw: number;
}

export interface EnvSensorReading {
  /** Horizontal irradiance, W/m². */
  his: number;
  /** Plane-of-array (inclined) irradiance, W/m². */
  iis: number;
  /** Module (surface) temperature, °C. */
  sts: number;
  /** Ambient temperature, °C. */
  ats: number;
}

export interface BreakerReading {
  kind: 7 | 8;
  closed: boolean;
  /** Line voltages, V. */
  voltageRsV: number;
  voltageStV: number;
  voltageTrV: number;
  /** Phase currents, A. */
  currentRA: number;
  currentSA: number;
  currentTA: number;
  /** Active power exported, kW. */
  powerKw: number;
  powerFactor: number;
  frequencyHz: number;
  /** Ground-fault (zero-sequence) current, mA. */
  groundFaultMa: number;
}

export interface PlantReadings {
  /** UTC ms the readings are for. */
  tMs: number;
  sunElevationDeg: number;
  sky: SkyCondition;
  clearness: number;
  /** True values the sensors see (before sensor error), W/m² and °C. */
  ghi: number;
  poa: number;
  ambientC: number;
  moduleC: number;
  inverters: InverterReading[];
  connectionBoards: ConnectionBoardReading[];
  envSensors: EnvSensorReading[];
  vcbs: BreakerReading[];
  acbs: BreakerReading[];
  plantAcKw: number;
  plantTodayKwh: number;
  plantTotalKwh: number;
}

/** Module temperature from ambient and plane-of-array irradiance (NOCT model), °C. */
export function moduleTemperature(ambientC: number, poaWm2: number, noctC = NOCT_C): number {
  return ambientC + ((noctC - 20) / 800) * poaWm2;
}

/** Inverter conversion efficiency at a load fraction: lower at light load. */
export function inverterEfficiency(peak: number, loadFraction: number): number {
  if (loadFraction <= 0) return 0;
  const eta = peak - 0.002 / Math.max(loadFraction, 0.01);
  return eta < 0.8 ? 0.8 : eta;
}

/**
 * Steady-state inverter output for given conditions (no noise): the physics every reading is built on.
 * Returns AC kW (clipped at capacity, 0 below start-up irradiance).
 */
export function inverterAcPowerKw(
  poaWm2: number,
  moduleC: number,
  inv: Required<Pick<InverterSpec, "capacityKw" | "dcCapacityKw" | "derate" | "efficiency">>,
): number {
  if (poaWm2 < STARTUP_IRRADIANCE_WM2) return 0;
  const dc = inv.dcCapacityKw * (poaWm2 / 1000) * (1 + POWER_TEMP_COEFF * (moduleC - 25)) * inv.derate;
  const ac = dc * inverterEfficiency(inv.efficiency, dc / inv.capacityKw);
  return ac > inv.capacityKw ? inv.capacityKw : ac;
}

/** Lifetime energy of an array that has run for `years` at the Korean typical yield, kWh. */
export function estimateLifetimeKwh(capacityKw: number, years: number): number {
  return capacityKw * TYPICAL_ANNUAL_YIELD_KWH_PER_KW * years;
}

export function createPlantModel(spec: PlantSpec, options: { weather?: WeatherProvider } = {}): PlantModel {
  const seed = typeof spec.seed === "string" ? hashSeed("plant", spec.seed) : spec.seed >>> 0;
  const n = spec.inverters.length;
  const acCapacityKw = new Float64Array(n);
  const dcCapacityKw = new Float64Array(n);
  const derate = new Float64Array(n);
  const efficiency = new Float64Array(n);
  const vmpStcV = new Float64Array(n);
  const mismatch = new Float64Array(n);
  const channelsPerInverter = new Int32Array(n);
  const acbOfInverter = new Int32Array(n);
  const vcbOfInverter = new Int32Array(n);
  const acbs = spec.acbs ?? 1;
  const vcbs = spec.vcbs ?? 1;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const inv = spec.inverters[i]!;
    if (!(inv.capacityKw > 0)) throw new RangeError(`inverter ${i}: capacityKw must be > 0`);
    acCapacityKw[i] = inv.capacityKw;
    dcCapacityKw[i] = inv.dcCapacityKw ?? inv.capacityKw * (spec.losses?.dcAcRatio ?? 1.1);
    derate[i] = inv.derate ?? 0.93;
    efficiency[i] = inv.efficiency ?? 0.97;
    vmpStcV[i] = inv.mppVoltageStcV ?? 650 * (1 + 0.05 * clampUnit(hashNormal(seed, i, 0x766d70) / 2));
    mismatch[i] = 0.995 + 0.025 * clampUnit(hashNormal(seed, i, 0x6d6d) / 2);
    acbOfInverter[i] = acbs > 0 ? i % acbs : -1;
    vcbOfInverter[i] = vcbs > 0 ? i % vcbs : -1;
    total += inv.capacityKw;
  }
  for (const cb of spec.connectionBoards ?? []) {
    if (cb.inverterIndex < 0 || cb.inverterIndex >= n)
      throw new RangeError(`connection board refers to missing inverter ${cb.inverterIndex}`);
    channelsPerInverter[cb.inverterIndex]! += cb.channels;
  }
  const orientation: PanelOrientation = { ...DEFAULT_ORIENTATION, ...spec.orientation };
  const wSeed = typeof spec.locality === "string" ? localitySeed(spec.locality) : spec.locality >>> 0;
  return {
    spec,
    seed,
    orientation,
    weather: options.weather ?? new LocalityWeather(wSeed, spec.latDeg, spec.lonDeg),
    cloudShiftMin: 20 * clampUnit(hashNormal(seed, 0, 0x636c64) / 2),
    inverterCount: n,
    acCapacityKw,
    dcCapacityKw,
    derate,
    efficiency,
    vmpStcV,
    mismatch,
    channelsPerInverter,
    acbOfInverter,
    vcbOfInverter,
    totalAcCapacityKw: total,
    gridVoltageBias: 0.012 * clampUnit(hashNormal(seed, 0, 0x677662) / 2),
    scratch: { sun: emptySunPosition(), irradiance: emptyIrradiance(), weather: { sky: "clear", clearness: 1, ambientC: 0 } },
    losses: spec.losses ?? null,
    soiling: { day: Number.NaN, share: 0 },
  };
}

/**
 * Soiling of the plant on a KST day, share lost: one more dry day's dust on yesterday's (capped), none after rain.
 * Stepping forward costs one sky lookup a day; a jump (the first step, a restart) walks back through the dry days.
 */
export function plantSoiling(model: PlantModel, day: number): number {
  const losses = model.losses;
  const skyOn = model.weather.skyOn?.bind(model.weather);
  if (!losses || !skyOn || !(losses.soilingPerDay > 0)) return 0;
  const memo = model.soiling;
  if (memo.day === day) return memo.share;
  memo.share =
    memo.day === day - 1
      ? skyOn(day) === "rain"
        ? 0
        : Math.min(losses.soilingMax, memo.share + losses.soilingPerDay)
      : soilingOn(losses, day, skyOn);
  memo.day = day;
  return memo.share;
}

export interface InitialEnergy {
  /** Lifetime kWh: one number (split by capacity) or one per inverter. */
  totalKwh?: number | ArrayLike<number>;
  /** Energy already produced today, kWh (per inverter), when starting mid-day. */
  todayKwh?: ArrayLike<number>;
}

/** State at tMs (rounded down to the 10-minute grid). Start backfills at a KST midnight for clean counters. */
export function createPlantState(model: PlantModel, tMs: number, initial: InitialEnergy = {}): PlantState {
  const n = model.inverterCount;
  const t = alignToStep(tMs);
  const todayKwh = new Float64Array(n);
  const totalKwh = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const tot = initial.totalKwh;
    totalKwh[i] =
      tot === undefined ? 0 : typeof tot === "number" ? (tot * model.acCapacityKw[i]!) / model.totalAcCapacityKw : (tot[i] ?? 0);
    todayKwh[i] = initial.todayKwh?.[i] ?? 0;
  }
  return { tMs: t, kstDay: kstDayIndex(t), todayKwh, totalKwh, lastAcKw: new Float64Array(n) };
}

function emptyBreaker(kind: 7 | 8): BreakerReading {
  return {
    kind,
    closed: true,
    voltageRsV: 0,
    voltageStV: 0,
    voltageTrV: 0,
    currentRA: 0,
    currentSA: 0,
    currentTA: 0,
    powerKw: 0,
    powerFactor: 0,
    frequencyHz: 0,
    groundFaultMa: 0,
  };
}

/** Allocate a readings object shaped for this plant; pass it to every stepPlant call to avoid garbage. */
export function createPlantReadings(model: PlantModel): PlantReadings {
  const spec = model.spec;
  return {
    tMs: 0,
    sunElevationDeg: 0,
    sky: "clear",
    clearness: 0,
    ghi: 0,
    poa: 0,
    ambientC: 0,
    moduleC: 0,
    inverters: spec.inverters.map(() => ({
      running: false,
      faultCode: 0,
      dcVoltageV: 0,
      dcCurrentA: 0,
      dcPowerKw: 0,
      acVoltageV: 0,
      acCurrentA: 0,
      acPowerKw: 0,
      powerFactor: 0,
      frequencyHz: 0,
      moduleTempC: 0,
      todayKwh: 0,
      totalKwh: 0,
    })),
    connectionBoards: (spec.connectionBoards ?? []).map((cb) => ({
      voltageV: 0,
      channelCurrentA: new Float64Array(cb.channels),
      totalCurrentA: 0,
      powerKw: 0,
    })),
    envSensors: Array.from({ length: spec.envSensors ?? 1 }, () => ({ his: 0, iis: 0, sts: 0, ats: 0 })),
    vcbs: Array.from({ length: spec.vcbs ?? 1 }, () => emptyBreaker(7)),
    acbs: Array.from({ length: spec.acbs ?? 1 }, () => emptyBreaker(8)),
    plantAcKw: 0,
    plantTodayKwh: 0,
    plantTotalKwh: 0,
  };
}

function clampUnit(x: number): number {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

// Noise channels: (device index << 4 | channel) keys keep every quantity's noise independent.
const NOISE_DC = 1;
const NOISE_VDC = 2;
const NOISE_VAC = 3;
const NOISE_PF = 4;
const NOISE_HZ = 5;
const NOISE_CB = 6;
const NOISE_ENV = 7;
const NOISE_BRK = 8;

/**
 * Advance the plant one 10-minute step: readings for state.tMs + 10 min, energy integrated over the step,
 * today-counters reset at 00:00 KST (the 00:00 reading already shows 0). Mutates `state` and `out`.
 */
export function stepPlant(
  model: PlantModel,
  state: PlantState,
  conditions?: PlantConditions,
  out: PlantReadings = createPlantReadings(model),
): PlantReadings {
  const t = state.tMs + STEP_MS;
  const step = stepIndex(t);
  const seed = model.seed;
  const spec = model.spec;
  const { sun, irradiance, weather } = model.scratch;

  // Sky and sun.
  sunPosition(t, spec.latDeg, spec.lonDeg, sun);
  model.weather.sample(t, model.cloudShiftMin, weather);
  const ghi = clearSkyGhi(sun.cosZenith) * weather.clearness;
  planeOfArray(ghi, sun, model.orientation, irradiance);
  const poa = irradiance.poa;
  const ambientC = weather.ambientC;
  const moduleC = moduleTemperature(ambientC, poa);
  const sunUp = sun.elevationDeg > -0.833;

  // Grid: one national frequency; a plant-local voltage that rises with its own infeed.
  const frequency = GRID_FREQUENCY_HZ + 0.02 * clampUnit(hashNormal(GRID_SEED, step, 0) / 2.5);
  const newDay = kstDayIndex(t) !== state.kstDay;
  if (newDay) state.kstDay = kstDayIndex(t);

  // Losses of a real plant (api/sim/losses.ts): mismatch and wiring, the modules' age, today's soiling, and the
  // grid operator's export limit while it curtails.
  const losses = model.losses;
  const lossFactor = losses
    ? (1 - losses.mismatchWiring) * degradationFactor(losses, t) * (1 - plantSoiling(model, state.kstDay))
    : 1;
  const limitShare = losses && curtailedAt(losses.curtailment, seed, t, weather.sky) ? losses.curtailment!.limitShare : 1;
  const weak = losses?.weakString;

  let plantAc = 0;
  let plantToday = 0;
  let plantTotal = 0;
  // First pass: power. (Voltage depends on the plant's total infeed, so AC electricals come after.)
  for (let i = 0; i < model.inverterCount; i++) {
    const r = out.inverters[i]!;
    const faultCode = conditions ? conditions.inverterFaultCode[i]! | 0 : 0;
    const factor = conditions ? conditions.inverterOutputFactor[i]! : 1;
    const cap = model.acCapacityKw[i]!;
    const strings = model.channelsPerInverter[i]!;
    const blown = strings > 0 ? Math.min(strings, conditions?.inverterDeadStrings?.[i] ?? 0) : 0;
    // An underperforming string gives only its `output` share (on the inverter's last channel, unless that is blown).
    const weakLoss = weak && weak.inverter === i && strings > blown ? 1 - weak.output : 0;
    const stringShare = strings > 0 ? 1 - (blown + weakLoss) / strings : 1;
    const limitKw = cap * limitShare * (losses?.inverterLimitShare ?? 1);
    let dcKw = 0;
    let acKw = 0;
    let dcV = 0;
    const vmp =
      sunUp && poa > 1 ? model.vmpStcV[i]! * (1 + VOLTAGE_TEMP_COEFF * (moduleC - 25)) * (1 + 0.035 * Math.log(poa / 1000)) : 0;
    if (faultCode === 0 && poa >= STARTUP_IRRADIANCE_WM2) {
      const available =
        model.dcCapacityKw[i]! *
        (poa / 1000) *
        (1 + POWER_TEMP_COEFF * (moduleC - 25)) *
        model.derate[i]! *
        model.mismatch[i]! *
        factor *
        stringShare *
        lossFactor *
        (1 + 0.003 * hashNormal(seed, (i << 4) | NOISE_DC, step));
      const eta = inverterEfficiency(model.efficiency[i]!, available / cap);
      acKw = available * eta;
      dcKw = available;
      dcV = vmp;
      if (acKw >= limitKw) {
        // Clipping (or the curtailment's export limit): the MPPT walks towards open circuit, drawing only what the
        // AC side may deliver.
        acKw = limitKw;
        dcKw = limitKw / eta;
        dcV = vmp * (1 + 0.12 * (1 - dcKw / available));
      }
      dcV *= 1 + 0.002 * hashNormal(seed, (i << 4) | NOISE_VDC, step);
    } else if (vmp > 0) {
      // Standby or tripped in daylight: no current drawn, the strings sit at open-circuit voltage.
      dcV = vmp * 1.2;
    }
    r.faultCode = faultCode;
    r.running = acKw > 0;
    r.dcPowerKw = dcKw;
    r.dcVoltageV = dcV;
    r.dcCurrentA = dcV > 0 ? (dcKw * 1000) / dcV : 0;
    r.acPowerKw = acKw;
    r.moduleTempC = moduleC;

    // Energy: trapezoid over the step; the day boundary belongs to the new day (00:00 shows 0).
    const e = (state.lastAcKw[i]! + acKw) * 0.5 * STEP_HOURS;
    state.lastAcKw[i] = acKw;
    state.totalKwh[i]! += e;
    state.todayKwh[i] = newDay ? 0 : state.todayKwh[i]! + e;
    r.todayKwh = state.todayKwh[i]!;
    r.totalKwh = state.totalKwh[i]!;

    plantAc += acKw;
    plantToday += r.todayKwh;
    plantTotal += r.totalKwh;
  }
  const plantLoad = model.totalAcCapacityKw > 0 ? plantAc / model.totalAcCapacityKw : 0;
  const lvVoltage = LV_LINE_VOLTAGE_V * (1 + model.gridVoltageBias + 0.015 * plantLoad);

  for (let i = 0; i < model.inverterCount; i++) {
    const r = out.inverters[i]!;
    const key = i << 4;
    r.acVoltageV = lvVoltage * (1 + 0.003 * hashNormal(seed, key | NOISE_VAC, step));
    r.frequencyHz = frequency + 0.003 * hashNormal(seed, key | NOISE_HZ, step);
    if (r.running) {
      const load = r.acPowerKw / model.acCapacityKw[i]!;
      const pf = 0.99 - (0.05 * Math.max(0, 0.1 - load)) / 0.1 + 0.002 * hashNormal(seed, key | NOISE_PF, step);
      r.powerFactor = pf > 1 ? 1 : pf;
      r.acCurrentA = (r.acPowerKw * 1000) / (SQRT3 * r.acVoltageV * r.powerFactor);
    } else {
      r.powerFactor = 0;
      r.acCurrentA = 0;
    }
  }

  // Connection boards: strings of the inverter share its DC current.
  const boards = spec.connectionBoards ?? [];
  for (let b = 0; b < boards.length; b++) {
    const cb = boards[b]!;
    const inv = out.inverters[cb.inverterIndex]!;
    const r = out.connectionBoards[b]!;
    const channelsTotal = model.channelsPerInverter[cb.inverterIndex]!;
    const stringLoss = conditions?.inverterStringLoss?.[cb.inverterIndex] === 1;
    const factor = conditions ? conditions.inverterOutputFactor[cb.inverterIndex]! : 1;
    // Dead strings: the loss shows as channels reading zero, first on the first board of the inverter.
    const dead = stringLoss ? Math.min(channelsTotal - 1, Math.round((1 - factor) * channelsTotal)) : 0;
    // Blown fuses: at a seeded position among the inverter's strings, after the dead ones above.
    const blown = Math.min(channelsTotal - dead, conditions?.inverterDeadStrings?.[cb.inverterIndex] ?? 0);
    const blownAt = blown > 0 ? dead + (hashSeed(seed, cb.inverterIndex, 0x66757365) % (channelsTotal - dead - blown + 1)) : -1;
    const live = channelsTotal - dead - blown;
    // The underperforming string (losses.weakString) is the inverter's last channel; dead or blown, it reads 0 anyway.
    const weakAt = weak && weak.inverter === cb.inverterIndex ? channelsTotal - 1 : -1;
    const weakLive = weakAt >= dead && !(blown > 0 && weakAt >= blownAt && weakAt < blownAt + blown);
    const weight = weakAt >= 0 && weakLive ? weak!.output : 1;
    const perChannel = live > 0 ? inv.dcCurrentA / (live - 1 + (weakAt >= 0 && weakLive ? weight : 1)) : 0;
    let channelBase = 0;
    for (let p = 0; p < b; p++) if (boards[p]!.inverterIndex === cb.inverterIndex) channelBase += boards[p]!.channels;
    let sum = 0;
    const noiseKey = ((b + 1) << 12) | NOISE_CB;
    for (let c = 0; c < cb.channels; c++) {
      const at = channelBase + c;
      const isDead = at < dead || (blown > 0 && at >= blownAt && at < blownAt + blown);
      const share = at === weakAt ? weight : 1;
      const a =
        isDead || perChannel === 0
          ? 0
          : Math.max(0, perChannel * share * (1 + 0.02 * hashNormal(seed, noiseKey + (c << 4), step)));
      r.channelCurrentA[c] = a;
      sum += a;
    }
    r.totalCurrentA = sum;
    // The board sits upstream of the DC cable: a volt or two above the inverter terminals when loaded.
    r.voltageV = inv.dcVoltageV > 0 ? inv.dcVoltageV + 0.004 * sum + 0.5 * hashNormal(seed, noiseKey | 0x8000, step) : 0;
    r.powerKw = (r.voltageV * sum) / 1000;
  }

  // Environment sensors: a pyranometer pair plus module and air temperature probes, each with its own error.
  for (let s = 0; s < out.envSensors.length; s++) {
    const r = out.envSensors[s]!;
    const key = ((s + 1) << 8) | NOISE_ENV;
    const gain = 1 + 0.015 * clampUnit(hashNormal(seed, key, 0) / 2); // calibration, constant
    r.his = sunUp && ghi > 0 ? Math.max(0, ghi * gain * (1 + 0.005 * hashNormal(seed, key, step))) : 0;
    r.iis = sunUp && poa > 0 ? Math.max(0, poa * gain * (1 + 0.005 * hashNormal(seed, key + 16, step))) : 0;
    r.sts = moduleC + 0.3 * hashNormal(seed, key + 32, step);
    r.ats = ambientC + 0.2 * hashNormal(seed, key + 48, step);
  }

  // Breakers: ACB on the 380 V side of the plant's inverters, VCB at the 22.9 kV grid connection.
  fillBreakers(
    out.acbs,
    model.acbOfInverter,
    out.inverters,
    LV_LINE_VOLTAGE_V * (1 + model.gridVoltageBias + 0.012 * plantLoad),
    0.998,
    frequency,
    seed,
    0x100,
    step,
  );
  fillBreakers(
    out.vcbs,
    model.vcbOfInverter,
    out.inverters,
    MV_LINE_VOLTAGE_V * (1 + 0.5 * model.gridVoltageBias + 0.008 * plantLoad),
    0.985,
    frequency,
    seed,
    0x200,
    step,
  );

  out.tMs = t;
  out.sunElevationDeg = sun.elevationDeg;
  out.sky = weather.sky;
  out.clearness = weather.clearness;
  out.ghi = ghi;
  out.poa = poa;
  out.ambientC = ambientC;
  out.moduleC = moduleC;
  out.plantAcKw = plantAc;
  out.plantTodayKwh = plantToday;
  out.plantTotalKwh = plantTotal;
  state.tMs = t;
  return out;
}

function fillBreakers(
  breakers: BreakerReading[],
  breakerOfInverter: Int32Array,
  inverters: readonly InverterReading[],
  lineVoltage: number,
  efficiency: number,
  frequency: number,
  seed: number,
  keyBase: number,
  step: number,
): void {
  for (let k = 0; k < breakers.length; k++) {
    const r = breakers[k]!;
    let p = 0;
    for (let i = 0; i < inverters.length; i++) if (breakerOfInverter[i] === k) p += inverters[i]!.acPowerKw;
    p *= efficiency; // transformer / cable losses between inverters and this breaker
    const key = keyBase + (k << 4) + NOISE_BRK;
    r.closed = true;
    r.voltageRsV = lineVoltage * (1 + 0.002 * hashNormal(seed, key, step));
    r.voltageStV = lineVoltage * (1 + 0.002 * hashNormal(seed, key + 1, step));
    r.voltageTrV = lineVoltage * (1 + 0.002 * hashNormal(seed, key + 2, step));
    r.frequencyHz = frequency;
    r.powerKw = p;
    if (p > 0) {
      r.powerFactor = Math.min(1, 0.99 + 0.002 * hashNormal(seed, key + 3, step));
      const vMean = (r.voltageRsV + r.voltageStV + r.voltageTrV) / 3;
      const i = (p * 1000) / (SQRT3 * vMean * r.powerFactor);
      // Slight phase imbalance, summing to three times the balanced current.
      const dr = 0.01 * hashNormal(seed, key + 4, step);
      const ds = 0.01 * hashNormal(seed, key + 5, step);
      r.currentRA = i * (1 + dr);
      r.currentSA = i * (1 + ds);
      r.currentTA = i * (1 - dr - ds);
    } else {
      r.powerFactor = 0;
      r.currentRA = r.currentSA = r.currentTA = 0;
    }
    // Leakage through cable capacitance and insulation: a few mA, a little higher when exporting.
    r.groundFaultMa = Math.max(0, 3 + 2 * Math.min(1, p / 1000) + 0.8 * hashNormal(seed, key + 6, step));
  }
}
