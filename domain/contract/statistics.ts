/**
 * Payloads of the statistics calls (SPEC §7 Statistics, §3 "Statistics responses"), shared by
 * api/routes/statistics.ts and the portal's model. Units: capacity raw (10 W, SPEC §9), power W, energy Wh,
 * irradiation Wh/m², temperature °C, voltage V, current A, ground-fault current mA; `ts` epoch ms of a step start.
 */
import { z } from "zod";
import { ReportSummary, StatUnit, WithheldReason } from "./shared";
import { UID_PATTERN } from "../fleet";
import { DEFAULT_STAT_UNIT, STAT_UNITS } from "../statistics";

export const REPORT_KINDS = ["integrated", "inverter", "env", "vcb", "acb"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
/** Device kind behind each report tab (the integrated report is built from inverters and sensors). */
export const REPORT_DEVICE_KIND: Record<ReportKind, number> = { integrated: 1, inverter: 1, env: 4, vcb: 7, acb: 8 };

const boolish = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");
const uid = z.string().trim().regex(UID_PATTERN, "not_an_id");
/** SPEC §5: an id list given as a string is wrapped into an array. */
const uidList = z.preprocess(
  (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
  z.array(uid).max(2000, "too_many").optional(),
);
const seq = z.coerce
  .number({ invalid_type_error: "not_an_id" })
  .int("not_an_id")
  .min(0, "not_an_id")
  .max(2_147_483_647, "not_an_id");

/** Scope of a report: devices, RTUs, a group (node and its descendants), one plant, or (none) the member's fleet. */
export const ScopeQuery = z.object({
  deviceUid: uidList,
  rtuUid: uidList,
  isGroup: boolish.optional(),
  group: seq.optional(),
  plant: uid.optional(),
});

export const ReportQuery = ScopeQuery.extend({
  unit: z.enum(STAT_UNITS, { errorMap: () => ({ message: "unknown_unit" }) }).default(DEFAULT_STAT_UNIT),
  start: z.string({ required_error: "required" }).trim().min(1, "required").max(19, "invalid_date"),
  end: z.string({ required_error: "required" }).trim().min(1, "required").max(19, "invalid_date"),
  sunRise: boolish.default(false),
  /** Group statistics: which rows (`plant`, default, or `group` for one row per step of the whole scope). */
  categoryType: z.enum(["plant", "group"], { errorMap: () => ({ message: "unknown_category" }) }).optional(),
  /**
   * A part of the rows only (a page of the screen's table): `offset` rows skipped, at most `limit` answered.
   * Totals, summary, `rowCount` and `series` always cover the whole report. Without them: every row.
   */
  offset: z.coerce
    .number({ invalid_type_error: "invalid_number" })
    .int("invalid_number")
    .min(0, "invalid_number")
    .max(100_000_000, "invalid_number")
    .optional(),
  limit: z.coerce
    .number({ invalid_type_error: "invalid_number" })
    .int("invalid_number")
    .min(0, "invalid_number")
    .max(1_000_000, "invalid_number")
    .optional(),
  /** `series=1`: also the chart's series, one point per step (StatisticsResponse.series). */
  series: boolish.optional(),
});
export type ReportQueryInput = z.input<typeof ReportQuery>;

/** How much of a report its PDF holds: the summary and totals only, or also the steps by day or by hour. */
export const PDF_DETAILS = ["summary", "day", "hour"] as const;
export type PdfDetail = (typeof PDF_DETAILS)[number];

export const ExportQuery = ReportQuery.extend({
  report: z.enum(REPORT_KINDS, { errorMap: () => ({ message: "unknown_report" }) }),
  format: z.enum(["csv", "xlsx", "pdf"], { errorMap: () => ({ message: "unknown_format" }) }),
  lang: z.enum(["ko", "en"]).default("ko"),
  /** PDF only: the summary and totals alone, or also every step by day or by hour (which sets the unit). */
  detail: z.enum(PDF_DETAILS, { errorMap: () => ({ message: "unknown_detail" }) }).optional(),
});

export const StatScope = z.object({
  kind: z.union([z.literal("fleet"), z.literal("group"), z.literal("plant"), z.literal("devices")]),
  /** Node seq, plant uid; absent for the fleet and device lists. */
  uid: z.string().optional(),
  name: z.string(),
});
export type StatScope = z.infer<typeof StatScope>;

export const StatDevice = z.object({
  uid: z.string(),
  name: z.string(),
  kind: z.number(),
  /** Raw capacity (10 W units); null for sensors and breakers. */
  capa: z.number().nullable(),
  plant_uid: z.string().nullable(),
  plantName: z.string().nullable(),
  rtu_uid: z.string().nullable(),
});
export type StatDevice = z.infer<typeof StatDevice>;

/** Every row: one device (or plant, or the scope) and one step. Values are null in a step without data. */
export const RowBase = z.object({
  /** Device uid; plant uid in group statistics; `scope` for the whole scope. */
  device_uid: z.string(),
  ts: z.number(),
  /** 10-minute readings the step is built from, and how many were expected. */
  samples: z.number(),
  expected: z.number(),
});
export type RowBase = z.infer<typeof RowBase>;
export const InverterRow = RowBase.extend({
  energy_wh: z.number().nullable(),
  max_w: z.number().nullable(),
});
export type InverterRow = z.infer<typeof InverterRow>;
export const EnvRow = RowBase.extend({
  iis_wh: z.number().nullable(),
  his_wh: z.number().nullable(),
  avg_sts: z.number().nullable(),
  avg_ats: z.number().nullable(),
});
export type EnvRow = z.infer<typeof EnvRow>;
export const BreakerRow = RowBase.extend({
  avg_v: z.number().nullable(),
  avg_a: z.number().nullable(),
  avg_w: z.number().nullable(),
  max_w: z.number().nullable(),
  energy_wh: z.number().nullable(),
  avg_pf: z.number().nullable(),
  operations: z.number().nullable(),
  max_gf_ma: z.number().nullable(),
});
export type BreakerRow = z.infer<typeof BreakerRow>;
/** Integrated rows per plant (or the scope): generation of its inverters, irradiation of its sensors. */
export const IntegratedRow = RowBase.extend({
  energy_wh: z.number().nullable(),
  max_w: z.number().nullable(),
  iis_wh: z.number().nullable(),
  /**
   * Irradiance coverage of the step (domain/performance.ts bucketCoverage: the sensors' lit steps per inverter's
   * producing steps; the scope's: its plants' weighted by energy); below IRRADIANCE_COVERAGE_MIN the step has no PR.
   */
  iis_cov: z.number().optional().nullable(),
  capa: z.number(),
});
export type IntegratedRow = z.infer<typeof IntegratedRow>;

/** Per device (row key) totals over the period: the sums of its rows, and its completeness %. */
export const RowTotal = z.object({
  device_uid: z.string(),
  /** Expected readings that arrived: per step at most its `expected`. */
  samples: z.number(),
  expected: z.number(),
  completeness: z.number().nullable(),
  energy_wh: z.number().optional().nullable(),
  max_w: z.number().optional().nullable(),
  iis_wh: z.number().optional().nullable(),
  his_wh: z.number().optional().nullable(),
  avg_sts: z.number().optional().nullable(),
  avg_ats: z.number().optional().nullable(),
  avg_v: z.number().optional().nullable(),
  avg_a: z.number().optional().nullable(),
  avg_pf: z.number().optional().nullable(),
  operations: z.number().optional().nullable(),
  max_gf_ma: z.number().optional().nullable(),
  genHours: z.number().optional().nullable(),
  /** Integrated report: PR over the key's steps with energy and irradiance, and why it is withheld (null: it is not). */
  pr: z.number().optional().nullable(),
  pr_withheld: WithheldReason.optional().nullable(),
});
export type RowTotal = z.infer<typeof RowTotal>;

export const SeriesPoint = z.object({
  ts: z.number(),
  value: z.number().nullable(),
  samples: z.number(),
  expected: z.number(),
});
export type SeriesPoint = z.infer<typeof SeriesPoint>;

export const StatisticsResponse = z.object({
  unit: StatUnit,
  /** Seoul wall time 'YYYY-MM-DD HH:mm:ss' of the period's start (inclusive) and end (exclusive). */
  start: z.string(),
  end: z.string(),
  sunRise: z.boolean(),
  /** Where the steps come from: raw 10-minute rows, the hourly or the daily rollup. */
  source: z.union([z.literal("raw"), z.literal("hourly"), z.literal("daily")]),
  scope: StatScope,
  generatedAt: z.number(),
  /** The devices of the report (SPEC §3 deviceInverters: every device, whatever its kind, for the tables). */
  deviceInverters: z.array(StatDevice),
  /** Row key → display name; row key → raw capacity (SPEC §3 deviceNames, deviceCapas). */
  deviceNames: z.record(z.string(), z.string()),
  deviceCapas: z.record(z.string(), z.number().nullable()),
  /** RTU config bits (SPEC §6 gateway bits) of the RTUs involved; [0].config as SPEC §3 names it. */
  rtuConfig: z.array(
    z.object({
      uid: z.string(),
      config: z.number(),
    }),
  ),
  reportInverters: z.array(InverterRow).optional(),
  reportEnvs: z.array(EnvRow).optional(),
  reportVcbs: z.array(BreakerRow).optional(),
  reportAcbs: z.array(BreakerRow).optional(),
  /** Group statistics (integrated report). */
  reportPlants: z.array(IntegratedRow).optional(),
  /** How many rows the report has (the row list holds them all, or the part that offset/limit asked for). */
  rowCount: z.number(),
  /**
   * With series=1: per step (in time order), the scope's total over the report's rows — energy (Wh) summed,
   * or for the environment report the mean plane-of-array irradiation (Wh/m²); null without data — and
   * the readings it is built from and those expected (a gap when fewer arrived).
   */
  series: z.array(SeriesPoint).optional(),
  /** Row key order of the tables. */
  keys: z.array(z.string()),
  totals: z.array(RowTotal),
  summary: ReportSummary,
  /** Device kinds present in the scope: a report tab is hidden when its kind is absent (SPEC §2). */
  kinds: z.array(z.number()),
});
export type StatisticsResponse = z.infer<typeof StatisticsResponse>;

/** GET /rpi/statistics/scope: what the report screen may offer. */
export const StatisticsScopeResponse = z.object({
  scope: StatScope,
  kinds: z.array(z.number()),
  plants: z.array(
    z.object({
      uid: z.string(),
      name: z.string(),
      node_seq: z.number().nullable(),
    }),
  ),
  groups: z.array(
    z.object({
      seq: z.number(),
      name: z.string(),
      parent_seq: z.number().nullable(),
      depth: z.number(),
    }),
  ),
});
export type StatisticsScopeResponse = z.infer<typeof StatisticsScopeResponse>;

// ---- Scheduled reports ----

export const SUBSCRIPTION_FREQUENCIES = ["daily", "weekly", "monthly"] as const;
export type SubscriptionFrequency = (typeof SUBSCRIPTION_FREQUENCIES)[number];

export const SubscriptionBody = z.object({
  report: z.enum(REPORT_KINDS, { errorMap: () => ({ message: "unknown_report" }) }),
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES, { errorMap: () => ({ message: "unknown_frequency" }) }),
  isGroup: boolish.optional(),
  group: seq.optional(),
  plant: uid.optional(),
  email: z.string().trim().email("invalid_email").max(200, "too_long"),
  lang: z.enum(["ko", "en"]).default("ko"),
});

export const Subscription = z.object({
  seq: z.number(),
  report: z.enum(REPORT_KINDS),
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES),
  scope: StatScope,
  email: z.string(),
  lang: z.union([z.literal("ko"), z.literal("en")]),
  created_at: z.number(),
  last_period: z.number().nullable(),
});
export type Subscription = z.infer<typeof Subscription>;
