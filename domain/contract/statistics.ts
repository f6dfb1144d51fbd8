/**
 * Payloads of the statistics calls (SPEC §7 Statistics, §3 "Statistics responses"), shared by
 * api/routes/statistics.ts and the portal's model. Units: capacity raw (10 W, SPEC §9), power W, energy Wh,
 * irradiation Wh/m², temperature °C, voltage V, current A, ground-fault current mA; `ts` epoch ms of a step start.
 */
import { z } from "zod";
import { UID_PATTERN } from "../fleet";
import type { WithheldReason } from "../performance";
import { DEFAULT_STAT_UNIT, STAT_UNITS, type ReportSummary, type StatUnit } from "../statistics";

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

export interface StatScope {
  kind: "fleet" | "group" | "plant" | "devices";
  /** Node seq, plant uid; absent for the fleet and device lists. */
  uid?: string;
  name: string;
}

export interface StatDevice {
  uid: string;
  name: string;
  kind: number;
  /** Raw capacity (10 W units); null for sensors and breakers. */
  capa: number | null;
  plant_uid: string | null;
  plantName: string | null;
  rtu_uid: string | null;
}

/** Every row: one device (or plant, or the scope) and one step. Values are null in a step without data. */
export interface RowBase {
  /** Device uid; plant uid in group statistics; `scope` for the whole scope. */
  device_uid: string;
  ts: number;
  /** 10-minute readings the step is built from, and how many were expected. */
  samples: number;
  expected: number;
}
export interface InverterRow extends RowBase {
  energy_wh: number | null;
  max_w: number | null;
}
export interface EnvRow extends RowBase {
  iis_wh: number | null;
  his_wh: number | null;
  avg_sts: number | null;
  avg_ats: number | null;
}
export interface BreakerRow extends RowBase {
  avg_v: number | null;
  avg_a: number | null;
  avg_w: number | null;
  max_w: number | null;
  energy_wh: number | null;
  avg_pf: number | null;
  operations: number | null;
  max_gf_ma: number | null;
}
/** Integrated rows per plant (or the scope): generation of its inverters, irradiation of its sensors. */
export interface IntegratedRow extends RowBase {
  energy_wh: number | null;
  max_w: number | null;
  iis_wh: number | null;
  /**
   * Irradiance coverage of the step (domain/performance.ts bucketCoverage: the sensors' lit steps per inverter's
   * producing steps; the scope's: its plants' weighted by energy); below IRRADIANCE_COVERAGE_MIN the step has no PR.
   */
  iis_cov?: number | null;
  capa: number;
}

/** Per device (row key) totals over the period: the sums of its rows, and its completeness %. */
export interface RowTotal {
  device_uid: string;
  /** Expected readings that arrived: per step at most its `expected`. */
  samples: number;
  expected: number;
  completeness: number | null;
  energy_wh?: number | null;
  max_w?: number | null;
  iis_wh?: number | null;
  his_wh?: number | null;
  avg_sts?: number | null;
  avg_ats?: number | null;
  avg_v?: number | null;
  avg_a?: number | null;
  avg_pf?: number | null;
  operations?: number | null;
  max_gf_ma?: number | null;
  genHours?: number | null;
  /** Integrated report: PR over the key's steps with energy and irradiance, and why it is withheld (null: it is not). */
  pr?: number | null;
  pr_withheld?: WithheldReason | null;
}

export interface StatisticsResponse {
  unit: StatUnit;
  /** Seoul wall time 'YYYY-MM-DD HH:mm:ss' of the period's start (inclusive) and end (exclusive). */
  start: string;
  end: string;
  sunRise: boolean;
  /** Where the steps come from: raw 10-minute rows, the hourly or the daily rollup. */
  source: "raw" | "hourly" | "daily";
  scope: StatScope;
  generatedAt: number;
  /** The devices of the report (SPEC §3 deviceInverters: every device, whatever its kind, for the tables). */
  deviceInverters: StatDevice[];
  /** Row key → display name; row key → raw capacity (SPEC §3 deviceNames, deviceCapas). */
  deviceNames: Record<string, string>;
  deviceCapas: Record<string, number | null>;
  /** RTU config bits (SPEC §6 gateway bits) of the RTUs involved; [0].config as SPEC §3 names it. */
  rtuConfig: Array<{ uid: string; config: number }>;
  reportInverters?: InverterRow[];
  reportEnvs?: EnvRow[];
  reportVcbs?: BreakerRow[];
  reportAcbs?: BreakerRow[];
  /** Group statistics (integrated report). */
  reportPlants?: IntegratedRow[];
  /** How many rows the report has (the row list holds them all, or the part that offset/limit asked for). */
  rowCount: number;
  /**
   * With series=1: per step (in time order), the scope's total over the report's rows — energy (Wh) summed,
   * or for the environment report the mean plane-of-array irradiation (Wh/m²); null without data — and
   * the readings it is built from and those expected (a gap when fewer arrived).
   */
  series?: SeriesPoint[];
  /** Row key order of the tables. */
  keys: string[];
  totals: RowTotal[];
  summary: ReportSummary;
  /** Device kinds present in the scope: a report tab is hidden when its kind is absent (SPEC §2). */
  kinds: number[];
}

export interface SeriesPoint {
  ts: number;
  value: number | null;
  samples: number;
  expected: number;
}

/** GET /rpi/statistics/scope: what the report screen may offer. */
export interface StatisticsScopeResponse {
  scope: StatScope;
  kinds: number[];
  plants: Array<{ uid: string; name: string; node_seq: number | null }>;
  groups: Array<{ seq: number; name: string; parent_seq: number | null; depth: number }>;
}

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

export interface Subscription {
  seq: number;
  report: ReportKind;
  frequency: SubscriptionFrequency;
  scope: StatScope;
  email: string;
  lang: "ko" | "en";
  created_at: number;
  last_period: number | null;
}
