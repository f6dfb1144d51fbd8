// Contract of the diagnosis calls (SPEC §7 Diagnosis, §3 Compare data set, §5 only kind 1 devices):
// request schemas and answer types, shared by api/routes/diagnose.ts and app/models/diagnose.server.ts.
import { z } from "zod";
import { DIAGNOSE_UNITS } from "../diagnose-period";
import type { AvailabilityResult } from "../analytics/availability";
import type { CurtailmentOrder } from "./curtailment";
import type { IrradianceMode } from "../irradiance";
import type { PerformanceCoefficients, PerformanceFigures, WithheldReason } from "../performance";

const uid = z.string().trim().min(1, "required").max(64, "too_long");
/** Id lists may arrive as one string (a form, a query) or an array. */
const uidList = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : String(v).split(",")),
  z.array(uid).max(500, "too_many"),
);
const unit = z.coerce
  .number({ invalid_type_error: "not_a_number" })
  .int("not_an_integer")
  .refine((u) => (DIAGNOSE_UNITS as readonly number[]).includes(u), "bad_unit");
const window = z.string().trim().min(1, "required").max(19, "too_long");

export const PERIOD_TYPES = ["day", "month", "year", "custom"] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

/** POST /diagnose/produce and /diagnose/generate. */
export const DiagnoseRequestSchema = z.object({
  deviceUids: uidList,
  rtuUids: uidList,
  unit,
  start: window,
  end: window,
  periodType: z.enum(PERIOD_TYPES).default("custom"),
});
export type DiagnoseRequest = z.input<typeof DiagnoseRequestSchema>;

/** Data types of the comparison per device kind. */
export const COMPARE_TYPES = {
  1: ["power", "energy", "dcVoltage", "dcCurrent"],
  2: ["current", "voltage"],
  4: ["poa", "horizontal", "moduleTemp", "ambientTemp"],
} as const;
export type CompareKind = keyof typeof COMPARE_TYPES;
export type CompareType = (typeof COMPARE_TYPES)[CompareKind][number];
export const ALL_COMPARE_TYPES = [...new Set(Object.values(COMPARE_TYPES).flat())] as CompareType[];

/** GET /diagnose/compare: the selection may be left out to reuse the remembered one (SPEC §4). */
export const CompareQuerySchema = z.object({
  start: window,
  end: window,
  unit,
  compareUid: uidList,
  compareKind: z.coerce
    .number()
    .int()
    .refine((k) => k in COMPARE_TYPES, "bad_kind")
    .optional(),
  compareType: z.enum(ALL_COMPARE_TYPES as [CompareType, ...CompareType[]]).optional(),
});

/** GET /diagnose/ranking. */
export const RankingQuerySchema = z.object({ start: window, end: window });

/** PUT /diagnose/coefficients/{plantUid}: γ per °C (signed) and η; null restores the SPEC's value. */
export const CoefficientsSchema = z.object({
  temperatureCoefficient: z.coerce
    .number({ invalid_type_error: "not_a_number" })
    .min(-0.01, "too_small")
    .max(0, "too_large")
    .nullable(),
  systemFactor: z.coerce.number({ invalid_type_error: "not_a_number" }).min(0.5, "too_small").max(1, "too_large").nullable(),
});

export interface DiagnosePeriodEcho {
  start: string;
  end: string;
  unit: number;
  periodType: PeriodType;
}

export interface ProducerRow {
  deviceUid: string;
  name: string;
  plantUid: string;
  plantName: string;
  capacityKw: number;
  energyKwh: number;
  /** Y_f = E / P0, kWh/kWp. */
  specificYield: number | null;
  /** Median Y_f of the requested inverters of the same plant. */
  plantMedian: number | null;
  /** Y_f / median − 1 (−0.4 = 40 % below its siblings). */
  deviation: number | null;
  /** false: the inverter has no rating (domain/diagnose-ranking.ts): no specific yield, left out of the median. */
  rated: boolean;
}

export interface ProduceResponse extends DiagnosePeriodEcho {
  /** Worst first. */
  producers: ProducerRow[];
}

export interface GenerateResponse extends DiagnosePeriodEcho {
  plantUid: string;
  plantName: string;
  capacityKw: number;
  deviceUids: string[];
  coefficients: PerformanceCoefficients;
  /** 'YYYY-MM-DD HH:mm' bucket labels (Seoul). */
  times: string[];
  /** kWh per bucket (blue). */
  generation: number[];
  /** Reference generation, kWh per bucket (green). */
  reference: number[];
  /** Mean plane-of-array irradiance per bucket, W/m² (red). */
  iis: number[];
  /** Mean horizontal irradiance per bucket, W/m². */
  his: number[];
  irradianceMode: IrradianceMode;
  /**
   * `availability`: the time-based availability of `availability` below (domain/analytics/availability.ts, the one
   * definition), repeated beside the other figures; null when it was not computed. `losses.downtimeKwh` is its
   * energy-based lost energy.
   */
  figures: PerformanceFigures & { availability: number | null };
  /**
   * The rating rule (domain/diagnose-ranking.ts): figures, generation and reference are over the rated inverters;
   * "partial" = `unratedDeviceUids` left out, "missing" = none rated, no figures.
   */
  rating: "complete" | "partial" | "missing";
  unratedDeviceUids: string[];
  /**
   * Availability of the rated inverters asked for (domain/analytics/availability.ts): time-based and energy-based,
   * each with its coverage, gaps, exclusions and counter anomalies (at most 20 listed, `counterAnomalyCount` all).
   * Null when the period is out of its bounds (longer than a year, or too many inverter-steps: availabilityWithinBounds).
   */
  availability: PlantAvailability | null;
  /**
   * Curtailment and output-limit orders in the period (domain/curtailment.ts): how many, the hours under them, and on
   * the availability grid the expected and delivered energy of their steps and the energy lost (expected − delivered,
   * never negative; null when availability was out of its bounds). Their steps are left out of PR and availability.
   */
  curtailment: {
    orders: number;
    hours: number;
    expectedKwh: number | null;
    actualKwh: number | null;
    lostKwh: number | null;
    list: CurtailmentOrder[];
  };
}

export interface PlantAvailability extends AvailabilityResult {
  /** Step of the grid it was computed on: 10 (raw rows) or 60 (hourly rollups), minutes. */
  stepMinutes: number;
  counterAnomalyCount: number;
  /** The period's PR over the energy-based availability (capacity-test PR, domain/analytics/capacity-test.ts). */
  performanceRatioAvailable: number | null;
}

export interface CompareSelection {
  selectedDeviceUid: string[];
  selectedDeviceKind: CompareKind;
  selectedDataType: CompareType;
}

export interface CompareResponse extends CompareSelection {
  start: string;
  end: string;
  unit: number;
  /** true when the selection came from the member's remembered first selection. */
  remembered: boolean;
  times: string[];
  series: Array<{ deviceUid: string; name: string; plantName: string; values: Array<number | null> }>;
}

export interface RankingRow {
  plantUid: string;
  name: string;
  capacityKw: number;
  energyKwh: number;
  expectedKwh: number;
  epi: number | null;
  pr: number | null;
  /**
   * Time-based availability (domain/analytics/availability.ts, the definition of /diagnose's availability panel) on
   * the plant's hourly grid; null when there was no judged step or the period is out of its bounds.
   */
  availability: number | null;
  /** Its coverage: the share of sunny inverter-hours with a reading (data gaps are never counted as available). */
  availabilityCoverage: number | null;
  /** Set when EPI and PR are withheld (null) and why: too little of the energy had its irradiance measured. */
  withheld: WithheldReason | null;
  /**
   * Whether every inverter of the plant has a rating (domain/diagnose-ranking.ts): "partial" = the figures are
   * over the rated ones (`unratedInverters` left out), "missing" = none rated, no figures.
   */
  rating: "complete" | "partial" | "missing";
  unratedInverters: number;
}

export interface RankingResponse {
  start: string;
  end: string;
  /** Lowest EPI first; plants without irradiance or energy last. */
  plants: RankingRow[];
}
