// Contract of the diagnosis calls (SPEC §7 Diagnosis, §3 Compare data set, §5 only kind 1 devices):
// request schemas and answer types, shared by api/routes/diagnose.ts and app/models/diagnose.server.ts.
import { z } from "zod";
import { AvailabilityResult, IrradianceMode, PerformanceCoefficients, PerformanceFigures, WithheldReason } from "./shared";
import { DIAGNOSE_UNITS } from "../diagnose-period";
import { CurtailmentOrder } from "./curtailment";

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

export const DiagnosePeriodEcho = z.object({
  start: z.string(),
  end: z.string(),
  unit: z.number(),
  periodType: z.enum(PERIOD_TYPES),
});
export type DiagnosePeriodEcho = z.infer<typeof DiagnosePeriodEcho>;

export const ProducerRow = z.object({
  deviceUid: z.string(),
  name: z.string(),
  plantUid: z.string(),
  plantName: z.string(),
  capacityKw: z.number(),
  energyKwh: z.number(),
  /** Y_f = E / P0, kWh/kWp. */
  specificYield: z.number().nullable(),
  /** Median Y_f of the requested inverters of the same plant. */
  plantMedian: z.number().nullable(),
  /** Y_f / median − 1 (−0.4 = 40 % below its siblings). */
  deviation: z.number().nullable(),
  /** false: the inverter has no rating (domain/diagnose-ranking.ts): no specific yield, left out of the median. */
  rated: z.boolean(),
});
export type ProducerRow = z.infer<typeof ProducerRow>;

export const ProduceResponse = DiagnosePeriodEcho.extend({
  /** Worst first. */
  producers: z.array(ProducerRow),
});
export type ProduceResponse = z.infer<typeof ProduceResponse>;

export const PlantAvailability = AvailabilityResult.extend({
  /** Step of the grid it was computed on: 10 (raw rows) or 60 (hourly rollups), minutes. */
  stepMinutes: z.number(),
  counterAnomalyCount: z.number(),
  /** The period's PR over the energy-based availability (capacity-test PR, domain/analytics/capacity-test.ts). */
  performanceRatioAvailable: z.number().nullable(),
});
export type PlantAvailability = z.infer<typeof PlantAvailability>;

export const GenerateResponse = DiagnosePeriodEcho.extend({
  plantUid: z.string(),
  plantName: z.string(),
  capacityKw: z.number(),
  deviceUids: z.array(z.string()),
  coefficients: PerformanceCoefficients,
  /** 'YYYY-MM-DD HH:mm' bucket labels (Seoul). */
  times: z.array(z.string()),
  /** kWh per bucket (blue). */
  generation: z.array(z.number()),
  /** Reference generation, kWh per bucket (green). */
  reference: z.array(z.number()),
  /** Mean plane-of-array irradiance per bucket, W/m² (red). */
  iis: z.array(z.number()),
  /** Mean horizontal irradiance per bucket, W/m². */
  his: z.array(z.number()),
  irradianceMode: IrradianceMode,
  /**
   * `availability`: the time-based availability of `availability` below (domain/analytics/availability.ts, the one
   * definition), repeated beside the other figures; null when it was not computed. `losses.downtimeKwh` is its
   * energy-based lost energy.
   */
  figures: PerformanceFigures.extend({ availability: z.number().nullable() }),
  /**
   * The rating rule (domain/diagnose-ranking.ts): figures, generation and reference are over the rated inverters;
   * "partial" = `unratedDeviceUids` left out, "missing" = none rated, no figures.
   */
  rating: z.union([z.literal("complete"), z.literal("partial"), z.literal("missing")]),
  unratedDeviceUids: z.array(z.string()),
  /**
   * Availability of the rated inverters asked for (domain/analytics/availability.ts): time-based and energy-based,
   * each with its coverage, gaps, exclusions and counter anomalies (at most 20 listed, `counterAnomalyCount` all).
   * Null when the period is out of its bounds (longer than a year, or too many inverter-steps: availabilityWithinBounds).
   */
  availability: PlantAvailability.nullable(),
  /**
   * Curtailment and output-limit orders in the period (domain/curtailment.ts): how many, the hours under them, and on
   * the availability grid the expected and delivered energy of their steps and the energy lost (expected − delivered,
   * never negative; null when availability was out of its bounds). Their steps are left out of PR and availability.
   */
  curtailment: z.object({
    orders: z.number(),
    hours: z.number(),
    expectedKwh: z.number().nullable(),
    actualKwh: z.number().nullable(),
    lostKwh: z.number().nullable(),
    list: z.array(CurtailmentOrder),
  }),
});
export type GenerateResponse = z.infer<typeof GenerateResponse>;

export const CompareSelection = z.object({
  selectedDeviceUid: z.array(z.string()),
  selectedDeviceKind: z.union([z.literal(1), z.literal(2), z.literal(4)]) satisfies z.ZodType<CompareKind>,
  selectedDataType: z.enum(ALL_COMPARE_TYPES as [CompareType, ...CompareType[]]),
});
export type CompareSelection = z.infer<typeof CompareSelection>;

export const CompareResponse = CompareSelection.extend({
  start: z.string(),
  end: z.string(),
  unit: z.number(),
  /** true when the selection came from the member's remembered first selection. */
  remembered: z.boolean(),
  times: z.array(z.string()),
  series: z.array(
    z.object({
      deviceUid: z.string(),
      name: z.string(),
      plantName: z.string(),
      values: z.array(z.number().nullable()),
    }),
  ),
});
export type CompareResponse = z.infer<typeof CompareResponse>;

export const RankingRow = z.object({
  plantUid: z.string(),
  name: z.string(),
  capacityKw: z.number(),
  energyKwh: z.number(),
  expectedKwh: z.number(),
  epi: z.number().nullable(),
  pr: z.number().nullable(),
  /**
   * Time-based availability (domain/analytics/availability.ts, the definition of /diagnose's availability panel) on
   * the plant's hourly grid; null when there was no judged step or the period is out of its bounds.
   */
  availability: z.number().nullable(),
  /** Its coverage: the share of sunny inverter-hours with a reading (data gaps are never counted as available). */
  availabilityCoverage: z.number().nullable(),
  /** Set when EPI and PR are withheld (null) and why: too little of the energy had its irradiance measured. */
  withheld: WithheldReason.nullable(),
  /**
   * Whether every inverter of the plant has a rating (domain/diagnose-ranking.ts): "partial" = the figures are
   * over the rated ones (`unratedInverters` left out), "missing" = none rated, no figures.
   */
  rating: z.union([z.literal("complete"), z.literal("partial"), z.literal("missing")]),
  unratedInverters: z.number(),
});
export type RankingRow = z.infer<typeof RankingRow>;

export const RankingResponse = z.object({
  start: z.string(),
  end: z.string(),
  /** Lowest EPI first; plants without irradiance or energy last. */
  plants: z.array(RankingRow),
});
export type RankingResponse = z.infer<typeof RankingResponse>;

/** PUT /diagnose/coefficients/{plantUid}: the plant's coefficients as saved. */
export const PlantCoefficientsResponse = z.object({ plantUid: z.string(), coefficients: PerformanceCoefficients });
export type PlantCoefficientsResponse = z.infer<typeof PlantCoefficientsResponse>;
