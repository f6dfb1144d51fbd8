/**
 * One statistics report from a checked request: the scope (member-scoped), the period snapped to whole steps,
 * the rows chunk by chunk, their totals and the summary. Used by the JSON calls, the exports and the
 * scheduled reports alike, so all three show the same numbers.
 */
import type { Kysely } from "kysely";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  REPORT_DEVICE_KIND,
  type ReportKind,
  type RowBase,
  type SeriesPoint,
  type StatisticsResponse,
} from "../../domain/contract/statistics";
import { DEVICE_KIND } from "../../domain/device";
import type { PerformanceSums } from "../../domain/performance";
import { formatSeoul } from "../../domain/seoul-time";
import { hasService } from "../../domain/service-bits";
import {
  bucketStart,
  nextBucket,
  parsePeriod,
  reportRowSums,
  spanProblem,
  summarise,
  UNIT_SOURCE,
  type Period,
  type StatUnit,
} from "../../domain/statistics";
import { badRequest } from "../http";
import { refreshPlantStatDays } from "../store/plant-stat-days";
import type { Database } from "../store/schema";
import {
  deviceReportChunks,
  familyOf,
  plantReportChunks,
  reportContext,
  resolveScope,
  Totals,
  type ReportContext,
  type ResolvedScope,
  type ScopeSelection,
} from "../store/statistics";
import { reachOf } from "../store/visibility";

export interface ReportRequest extends ScopeSelection {
  unit: StatUnit;
  start: string;
  end: string;
  sunRise: boolean;
  categoryType?: "plant" | "group";
  /** A window of the rows (a page of the screen's table); totals and series still cover every row. */
  offset?: number;
  limit?: number;
  /** Also the chart's series per step. */
  series?: boolean;
}

/** The period of a request, snapped out to whole steps; 400 with a field message when it is not valid. */
export function checkedPeriod(q: Pick<ReportRequest, "start" | "end" | "unit">): Period {
  const parsed = parsePeriod(q.start, q.end);
  if ("error" in parsed) {
    if (parsed.error === "order") throw badRequest("invalid_input", { end: "start_after_end" });
    throw badRequest("invalid_input", { [parsed.error]: "invalid_date" });
  }
  const period = { start: bucketStart(parsed.start, q.unit), end: nextBucket(bucketStart(parsed.end - 1, q.unit), q.unit) };
  const problem = spanProblem(period, q.unit);
  if (problem) throw badRequest("invalid_input", { unit: problem });
  return period;
}

export interface PreparedReport {
  report: ReportKind;
  resolved: ResolvedScope;
  ctx: ReportContext;
  hideCo2: boolean;
  hideRevenue: boolean;
  names: Record<string, string>;
  plantNames: Record<string, string>;
  capas: Record<string, number | null>;
  /** false: the integrated report sums the daily rollup itself even at unit day (the tests' reference path). */
  plantDays?: boolean;
}

/** Resolves a report's scope for a member (member-scoped: a foreign device, plant or group throws its 404). */
export type ScopeResolver = (
  claims: Pick<AccessClaims, "id" | "scope" | "apiToken">,
  sel: ScopeSelection,
  fleetName: string,
) => Promise<ResolvedScope>;

/** The scope read from the store: the member's reach, then what the selection names within it. */
export const storeScope =
  (db: Kysely<Database>): ScopeResolver =>
  async (claims, sel, fleetName) =>
    resolveScope(db, await reachOf(db, claims), sel, fleetName);

/**
 * `claims`: who the report is for (their reach and service bits); the scheduler passes a member read from the store.
 * `resolve`: where the scope comes from (the API's routes keep resolved scopes, api/routes/statistics.ts).
 */
export async function prepareReport(
  db: Kysely<Database>,
  claims: Pick<AccessClaims, "id" | "scope" | "service">,
  report: ReportKind,
  q: ReportRequest,
  now: number,
  fleetName: string,
  resolve: ScopeResolver = storeScope(db),
): Promise<PreparedReport> {
  const period = checkedPeriod(q);
  const resolved = await resolve(claims, q, fleetName);
  const ctx = reportContext(resolved, period, q.unit, q.sunRise, now);
  const names: Record<string, string> = {};
  const plantNames: Record<string, string> = {};
  const capas: Record<string, number | null> = {};
  for (const p of resolved.plants) {
    plantNames[p.uid] = p.name;
    if (report === "integrated") {
      names[p.uid] = p.name;
      capas[p.uid] = p.capa;
    }
  }
  if (report === "integrated") {
    names.scope = resolved.scope.name;
    capas.scope = resolved.plants.reduce((a, p) => a + p.capa, 0);
  } else {
    for (const d of resolved.devices) {
      names[d.uid] = d.name;
      capas[d.uid] = d.capa;
      if (d.plant_uid) plantNames[d.uid] = d.plantName ?? "";
    }
  }
  return {
    report,
    resolved,
    ctx,
    names,
    plantNames,
    capas,
    hideCo2: hasService(claims.service, "co2Hide"),
    hideRevenue: hasService(claims.service, "recSmpHide"),
  };
}

/** Rows of the report, chunk by chunk (`rows`: about how many a device report's chunk holds; the store's default). */
export function reportChunks(
  db: Kysely<Database>,
  p: PreparedReport,
  per: "plant" | "group" = "plant",
  rows?: number,
): AsyncGenerator<Array<RowBase & Record<string, unknown>>> {
  if (p.report === "integrated") return integratedChunks(db, p, per) as AsyncGenerator<Array<RowBase & Record<string, unknown>>>;
  return deviceReportChunks(db, p.ctx, p.report, p.resolved.devices, rows) as AsyncGenerator<
    Array<RowBase & Record<string, unknown>>
  >;
}

/** The integrated report; at unit day it reads the plants' kept days (migration 0016), brought up to date first. */
async function* integratedChunks(db: Kysely<Database>, p: PreparedReport, per: "plant" | "group") {
  const plantDays = p.plantDays !== false && p.ctx.unit === "day";
  if (plantDays) await refreshPlantStatDays(db, [...p.ctx.plants.keys()]);
  yield* plantReportChunks(db, p.ctx, p.resolved.devices, per, { plantDays });
}

export function newTotals(p: PreparedReport): Totals {
  return new Totals(familyOf(p.report), (key) => p.capas[key] ?? null);
}

/**
 * The scope's sensors for the PR of an inverter report: the mean total irradiation (Wh/m²), and per step the mean
 * irradiation of the sensors that measured with its coverage (the share of their expected readings that arrived).
 */
async function scopeIrradiation(db: Kysely<Database>, p: PreparedReport) {
  const t = new Totals("env", () => null);
  const steps = new Map<number, { iis: number; n: number; samples: number; expected: number }>();
  for await (const rows of deviceReportChunks(db, p.ctx, "env", p.resolved.devices)) {
    t.add(rows);
    for (const r of rows) {
      const iis = (r as { iis_wh?: number | null }).iis_wh;
      if (typeof iis !== "number") continue;
      const s = steps.get(r.ts) ?? { iis: 0, n: 0, samples: 0, expected: 0 };
      steps.set(r.ts, { iis: s.iis + iis, n: s.n + 1, samples: s.samples + r.samples, expected: s.expected + r.expected });
    }
  }
  const values = t
    .list()
    .map((r) => r.iis_wh)
    .filter((v): v is number => typeof v === "number");
  return { wh: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null, steps };
}

export async function summaryOf(db: Kysely<Database>, p: PreparedReport, totals: Totals) {
  const list = totals.list();
  const sum = (f: (t: (typeof list)[number]) => number | null | undefined) => list.reduce((a, t) => a + (f(t) ?? 0), 0);
  const generation = p.report === "integrated" || p.report === "inverter";
  const plantCapa = p.resolved.plants.reduce((a, x) => a + x.capa, 0);
  const capa =
    p.report === "inverter"
      ? p.resolved.devices.filter((d) => d.kind === DEVICE_KIND.inverter).reduce((a, d) => a + (d.capa ?? 0), 0)
      : plantCapa;
  let irradiation: number | null = null;
  let sums: PerformanceSums | null = null;
  const energyWh = p.report === "env" ? 0 : sum((t) => t.energy_wh);
  if (p.report === "integrated") {
    // PR over the plants' steps with energy and irradiance (the scope's own rows when the report is per group).
    const plantKeys = list.map((t) => t.device_uid).filter((k) => k !== "scope");
    sums = totals.perfOf(plantKeys.length ? plantKeys : ["scope"]);
    const values = list
      .filter((t) => t.device_uid !== "scope")
      .map((t) => t.iis_wh)
      .filter((v): v is number => typeof v === "number");
    const scopeRow = list.find((t) => t.device_uid === "scope");
    irradiation = scopeRow ? (scopeRow.iis_wh ?? null) : values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  } else if (p.report === "inverter") {
    const scope = await scopeIrradiation(db, p);
    irradiation = scope.wh;
    // Per step: the inverters' energy against the sensors' mean irradiation of that step (a step without one is
    // dropped from both sums), covered as far as the sensors' readings arrived.
    const rows = [...totals.energySteps()].map(([ts, e]) => {
      const s = scope.steps.get(ts);
      return s
        ? { energy_wh: e, iis_wh: s.iis / s.n, iis_cov: s.expected > 0 ? Math.min(1, s.samples / s.expected) : null }
        : { energy_wh: e, iis_wh: null };
    });
    sums = reportRowSums(rows, capa);
  } else if (p.report === "env") {
    const values = list.map((t) => t.iis_wh).filter((v): v is number => typeof v === "number");
    irradiation = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  }
  return summarise({
    capa,
    energyWh,
    sums,
    peakW: p.report === "env" ? null : totals.peak(),
    irradiationWh: irradiation,
    samples: sum((t) => t.samples),
    expected: sum((t) => t.expected),
    hideCo2: p.hideCo2 || !generation,
    hideRevenue: p.hideRevenue || !generation,
  });
}

const ROW_FIELD: Record<ReportKind, "reportPlants" | "reportInverters" | "reportEnvs" | "reportVcbs" | "reportAcbs"> = {
  integrated: "reportPlants",
  inverter: "reportInverters",
  env: "reportEnvs",
  vcb: "reportVcbs",
  acb: "reportAcbs",
};

/** The whole JSON answer of a report call. */
export async function buildReport(
  db: Kysely<Database>,
  claims: AccessClaims,
  report: ReportKind,
  q: ReportRequest,
  now: number,
  fleetName: string,
): Promise<StatisticsResponse> {
  return reportAnswer(db, await prepareReport(db, claims, report, q, now, fleetName), q, now);
}

/** The JSON answer of a prepared report (`q`: the window of rows and whether the series is wanted). */
export async function reportAnswer(
  db: Kysely<Database>,
  p: PreparedReport,
  q: Pick<ReportRequest, "offset" | "limit" | "series" | "categoryType" | "unit" | "sunRise">,
  now: number,
): Promise<StatisticsResponse> {
  const report = p.report;
  const totals = newTotals(p);
  const rows: Array<RowBase & Record<string, unknown>> = [];
  // Only the asked window of rows is kept; every row still counts in the totals and the series.
  const from = q.offset ?? 0;
  const to = q.limit === undefined ? Infinity : from + q.limit;
  const series = q.series ? new Map<number, SeriesPoint & { n: number }>() : null;
  const valueKey = report === "env" ? "iis_wh" : "energy_wh";
  let count = 0;
  for await (const chunk of reportChunks(db, p, q.categoryType ?? "plant")) {
    totals.add(chunk);
    for (const r of chunk) {
      if (count >= from && count < to) rows.push(r);
      count++;
      if (!series) continue;
      let s = series.get(r.ts);
      if (!s) series.set(r.ts, (s = { ts: r.ts, value: null, samples: 0, expected: 0, n: 0 }));
      const v = r[valueKey];
      if (typeof v === "number") {
        s.value = (s.value ?? 0) + v;
        s.n += 1;
      }
      s.samples += r.samples;
      s.expected += r.expected;
    }
  }
  const kinds = [...new Set(p.resolved.devices.map((d) => d.kind))].sort((a, b) => a - b);
  const devices =
    report === "integrated"
      ? p.resolved.devices.filter((d) => d.kind === DEVICE_KIND.inverter || d.kind === DEVICE_KIND.environmentSensor)
      : p.resolved.devices.filter((d) => d.kind === REPORT_DEVICE_KIND[report]);
  const out: StatisticsResponse = {
    unit: q.unit,
    start: formatSeoul(p.ctx.period.start, "YYYY-MM-DD HH:mm:ss"),
    end: formatSeoul(p.ctx.period.end, "YYYY-MM-DD HH:mm:ss"),
    sunRise: q.sunRise,
    source: report === "vcb" || report === "acb" ? "raw" : UNIT_SOURCE[q.unit],
    scope: p.resolved.scope,
    generatedAt: now,
    deviceInverters: devices,
    deviceNames: p.names,
    deviceCapas: p.capas,
    rtuConfig: p.resolved.rtuConfig,
    [ROW_FIELD[report]]: rows,
    rowCount: count,
    ...(series
      ? {
          series: [...series.values()]
            .sort((a, b) => a.ts - b.ts)
            .map(({ n, ...s }) => ({ ...s, value: s.value !== null && report === "env" ? s.value / n : s.value })),
        }
      : {}),
    keys: totals.keys(),
    totals: totals.list(),
    summary: await summaryOf(db, p, totals),
    kinds,
  };
  if (report === "inverter") {
    // The scope's sensors beside the inverters; a window of rows (offset/limit) applies to them too.
    const envRows: RowBase[] = [];
    let k = 0;
    for await (const chunk of deviceReportChunks(db, p.ctx, "env", p.resolved.devices)) {
      for (const r of chunk) {
        if (k >= from && k < to) envRows.push(r);
        k++;
      }
    }
    out.reportEnvs = envRows as never;
  }
  return out;
}
