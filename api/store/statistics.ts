/**
 * Queries of the statistics reports (SPEC §7 Statistics). Steps come from the hourly rollup (unit 60), the
 * daily rollup (day, month) or, for the short periods units 10 and 30 allow, from the raw 10-minute rows
 * (domain/statistics.ts MAX_SPAN_DAYS). VCB/ACB steps are always aggregated from the raw rows in SQL: the
 * rollups keep no voltage, current, power factor, breaker state or ground-fault current.
 *
 * The store answers one row per device and step (steps grouped in SQL, months too), or for the integrated report
 * one row per plant and step (summed in SQL). Rows are produced per chunk of devices or plants holding about
 * ROWS_PER_CHUNK rows (an async generator), so an export streams a year of hourly rows of a hundred inverters
 * without holding them all; the JSON answer collects the chunks.
 */
import { sql, type Kysely, type RawBuilder } from "kysely";
import { LRUCache } from "lru-cache";
import type {
  BreakerRow,
  EnvRow,
  InverterRow,
  IntegratedRow,
  ReportKind,
  RowBase,
  RowTotal,
  StatDevice,
  StatScope,
} from "../../domain/contract/statistics";
import { DEVICE_KIND } from "../../domain/device";
import { addSums, bucketCoverage, type PerformanceSums } from "../../domain/performance";
import { SEOUL_OFFSET_MS, DAY_MS, STEP_MS, seoulDayStart } from "../../domain/seoul-time";
import {
  bucketStarts,
  completenessPct,
  expectedByBucket,
  finalYield,
  nextBucket,
  reportPr,
  reportRowSums,
  UNIT_SOURCE,
  unitStepMs,
  type Period,
  type StatUnit,
} from "../../domain/statistics";
import { notFound } from "../http";
import { sunTimes } from "../sim/solar";
import { preparedStatements, rawSqlite } from "./db";
import type { Database } from "./schema";
import { requireDevice, requirePlant, requireRtu, subtreeSeqs, visiblePlantUids, type Reach } from "./visibility";

type Db = Kysely<Database>;

/** Korea's centre: daylight of a plant without coordinates. */
const DEFAULT_LAT = 36;
const DEFAULT_LNG = 127.8;

export interface PlantInfo {
  uid: string;
  name: string;
  capa: number;
  lat: number | null;
  lng: number | null;
  node_seq: number | null;
}

export interface ScopeSelection {
  deviceUid?: string[];
  rtuUid?: string[];
  isGroup?: boolean;
  group?: number;
  plant?: string;
}

export interface ResolvedScope {
  scope: StatScope;
  plants: PlantInfo[];
  /** Devices in use of the scope, every kind, ordered by plant name, kind, name. */
  devices: StatDevice[];
  rtuConfig: Array<{ uid: string; config: number }>;
}

/** Korean name order; one collator each (localeCompare with a locale builds one per call). */
const KO = new Intl.Collator("ko");
const KO_NUMERIC = new Intl.Collator("ko", { numeric: true });

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Node seqs the member may pick as a report scope (their subtree; every node for a member at the root). */
async function visibleGroups(db: Db, reach: Reach): Promise<Array<{ seq: number; name: string; parent_seq: number | null }>> {
  if (reach.only || reach.plants) return [];
  const rows = await db.selectFrom("node").select(["seq", "name", "parent_seq"]).orderBy("sort_order").orderBy("seq").execute();
  const mapped = rows.map((r) => ({ seq: Number(r.seq), name: r.name, parent_seq: num(r.parent_seq) }));
  if (reach.all) return mapped;
  const mine = new Set(reach.nodes);
  return mapped.filter((r) => mine.has(r.seq));
}

/** Groups in tree order with their depth below the first visible ancestor. */
export async function groupOptions(db: Db, reach: Reach) {
  const groups = await visibleGroups(db, reach);
  const ids = new Set(groups.map((g) => g.seq));
  const children = new Map<number | null, typeof groups>();
  for (const g of groups) {
    const parent = g.parent_seq !== null && ids.has(g.parent_seq) ? g.parent_seq : null;
    children.set(parent, [...(children.get(parent) ?? []), g]);
  }
  const out: Array<{ seq: number; name: string; parent_seq: number | null; depth: number }> = [];
  const walk = (parent: number | null, depth: number) => {
    for (const g of children.get(parent) ?? []) {
      out.push({ ...g, depth });
      walk(g.seq, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

async function plantsByUid(db: Db, uids: string[]): Promise<PlantInfo[]> {
  const out: PlantInfo[] = [];
  for (let i = 0; i < uids.length; i += 500) {
    const rows = await db
      .selectFrom("plant")
      .select(["uid", "name", "capa", "lat", "lng", "node_seq"])
      .where("uid", "in", uids.slice(i, i + 500))
      .execute();
    out.push(
      ...rows.map((p) => ({
        uid: p.uid,
        name: p.name,
        capa: Number(p.capa),
        lat: num(p.lat),
        lng: num(p.lng),
        node_seq: num(p.node_seq),
      })),
    );
  }
  return out.sort((a, b) => KO.compare(a.name, b.name) || a.uid.localeCompare(b.uid));
}

async function devicesWhere(db: Db, column: "plant_uid" | "rtu_uid" | "uid", values: string[]): Promise<StatDevice[]> {
  const out: StatDevice[] = [];
  for (let i = 0; i < values.length; i += 500) {
    const rows = await db
      .selectFrom("device")
      .leftJoin("plant", "plant.uid", "device.plant_uid")
      .select([
        "device.uid",
        "device.name",
        "device.kind",
        "device.capa",
        "device.plant_uid",
        "plant.name as plantName",
        "device.rtu_uid",
      ])
      .where(`device.${column}`, "in", values.slice(i, i + 500))
      .where("device.use_yn", "=", 1)
      .execute();
    out.push(
      ...rows.map((d) => ({
        uid: d.uid,
        name: d.name,
        kind: Number(d.kind),
        capa: num(d.capa),
        plant_uid: d.plant_uid,
        plantName: d.plantName ?? null,
        rtu_uid: d.rtu_uid,
      })),
    );
  }
  return out.sort(
    (a, b) =>
      KO.compare(a.plantName ?? "", b.plantName ?? "") ||
      a.kind - b.kind ||
      KO_NUMERIC.compare(a.name, b.name) ||
      a.uid.localeCompare(b.uid),
  );
}

/**
 * The scope a request names, checked against what the member may see: a foreign device, RTU, plant or group
 * answers 404 like one that does not exist.
 */
export async function resolveScope(db: Db, reach: Reach, sel: ScopeSelection, fleetName: string): Promise<ResolvedScope> {
  const named = await scopeMembers(db, reach, sel, fleetName);
  return { ...named, rtuConfig: await rtuConfigOf(db, named.devices) };
}

/** What a scope holds but its RTUs' configuration (read apart by `rtuConfigOf`): resolveScope without that read. */
export async function scopeMembers(
  db: Db,
  reach: Reach,
  sel: ScopeSelection,
  fleetName: string,
): Promise<Omit<ResolvedScope, "rtuConfig">> {
  let scope: StatScope;
  let devices: StatDevice[];
  let plantUids: string[];
  if (sel.deviceUid?.length || sel.rtuUid?.length) {
    const uids = new Set<string>();
    for (const uid of sel.deviceUid ?? []) uids.add((await requireDevice(db, reach, uid)).uid);
    const rtus: string[] = [];
    for (const uid of sel.rtuUid ?? []) rtus.push((await requireRtu(db, reach, uid)).uid);
    devices = [
      ...(uids.size ? await devicesWhere(db, "uid", [...uids]) : []),
      ...(rtus.length ? await devicesWhere(db, "rtu_uid", rtus) : []),
    ];
    devices = devices.filter((d, i) => devices.findIndex((x) => x.uid === d.uid) === i);
    plantUids = [...new Set(devices.map((d) => d.plant_uid).filter((p): p is string => !!p))];
    scope = { kind: "devices", name: devices.length === 1 ? devices[0]!.name : `${devices.length}` };
  } else if (sel.plant && !sel.isGroup) {
    const plant = await requirePlant(db, reach, sel.plant);
    plantUids = [plant.uid];
    devices = await devicesWhere(db, "plant_uid", plantUids);
    scope = { kind: "plant", uid: plant.uid, name: plant.name };
  } else if (sel.isGroup && sel.group !== undefined) {
    const groups = await visibleGroups(db, reach);
    const group = groups.find((g) => g.seq === sel.group);
    if (!group) throw notFound("group_not_found");
    const seqs = new Set(await subtreeSeqs(db, group.seq));
    const visible = await plantsByUid(db, await visiblePlantUids(db, reach));
    plantUids = visible.filter((p) => p.node_seq !== null && seqs.has(p.node_seq)).map((p) => p.uid);
    devices = plantUids.length ? await devicesWhere(db, "plant_uid", plantUids) : [];
    scope = { kind: "group", uid: String(group.seq), name: group.name };
  } else {
    plantUids = await visiblePlantUids(db, reach);
    devices = plantUids.length ? await devicesWhere(db, "plant_uid", plantUids) : [];
    scope = { kind: "fleet", name: fleetName };
  }
  const plants = plantUids.length ? await plantsByUid(db, plantUids) : [];
  return { scope, plants, devices };
}

/** The configuration of the devices' RTUs (`rtuConfig` of a report), read apart: the rtu table is written by every ingest. */
export async function rtuConfigOf(db: Db, devices: readonly StatDevice[]): Promise<ResolvedScope["rtuConfig"]> {
  const rtuUids = [...new Set(devices.map((d) => d.rtu_uid).filter((r): r is string => !!r))];
  if (!rtuUids.length) return [];
  const rows = await db
    .selectFrom("rtu")
    .select(["uid", "config"])
    .where("uid", "in", rtuUids.slice(0, 1000))
    .orderBy("uid")
    .execute();
  return rows.map((r) => ({ uid: r.uid, config: Number(r.config) }));
}

// ---- Expected data (completeness) ----

/**
 * Sunrise and sunset of a day at a place, kept across reports: a year's report of ten plants asks for 3,650
 * of them, and they never change.
 */
const DAYLIGHT = new LRUCache<string, readonly [number, number] | false>({ max: 200_000 });

/** Daylight windows [sunrise, sunset) of each Seoul day of the period at a place. */
function daylightWindows(period: Period, lat: number | null, lng: number | null): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  const la = lat ?? DEFAULT_LAT;
  const lo = lng ?? DEFAULT_LNG;
  for (let day = seoulDayStart(period.start); day < period.end; day += DAY_MS) {
    const key = `${la}|${lo}|${day}`;
    let w = DAYLIGHT.get(key);
    if (w === undefined) {
      const t = sunTimes(day + 12 * 3_600_000, la, lo);
      w = t.sunriseMs !== null && t.sunsetMs !== null ? ([t.sunriseMs, t.sunsetMs] as const) : false;
      DAYLIGHT.set(key, w);
    }
    if (w) out.push(w);
  }
  return out;
}

/**
 * Expected readings per step for each plant. Inverters (and connection boards) sleep at night, so they are
 * expected only between sunrise and sunset; sensors and breakers report day and night — unless `sunRise`
 * limits the report to daylight, then everything is expected only by day. Steps after `now` expect nothing.
 */
export class Expectations {
  private cache = new Map<string, number[]>();
  readonly bounds: number[];
  constructor(
    private period: Period,
    private unit: StatUnit,
    private now: number,
    private sunRise: boolean,
    private plants: Map<string, PlantInfo>,
  ) {
    const starts = bucketStarts(period.start, period.end, unit);
    this.bounds = [...starts, starts.length ? nextBucket(starts[starts.length - 1]!, unit) : period.end];
  }
  daylightOnly(kind: number): boolean {
    return this.sunRise || kind === DEVICE_KIND.inverter || kind === DEVICE_KIND.connectionBoard;
  }
  /** Expected readings per step (aligned with `bounds`) of a device kind at a plant. */
  forPlant(plantUid: string | null, kind: number): number[] {
    const daylight = this.daylightOnly(kind);
    const key = `${daylight ? (plantUid ?? "") : "*"}|${daylight}`;
    let found = this.cache.get(key);
    if (!found) {
      const p = plantUid ? this.plants.get(plantUid) : undefined;
      const to = Math.min(this.period.end, this.now - (this.now % STEP_MS));
      found = expectedByBucket(
        this.bounds,
        this.period.start,
        to,
        daylight ? daylightWindows(this.period, p?.lat ?? null, p?.lng ?? null) : null,
      );
      this.cache.set(key, found);
    }
    return found;
  }
  indexOf(ts: number): number {
    // Steps are ordered; binary search.
    let lo = 0;
    let hi = this.bounds.length - 2;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.bounds[mid]! === ts) return mid;
      if (this.bounds[mid]! < ts) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/** Whether sunRise drops a step: a sub-day step outside the plant's daylight. */
function inDaylight(exp: Expectations, plantUid: string | null, i: number, unit: StatUnit): boolean {
  if (unit === "day" || unit === "month") return true;
  return exp.forPlant(plantUid, DEVICE_KIND.inverter)[i]! > 0;
}

// ---- Step aggregates per device, in SQL ----

interface Agg {
  device_uid: string;
  b: number;
  n: number;
  [k: string]: number | string | null;
}

const inList = (uids: string[]) => sql.join(uids.map((u) => sql.val(u)));

/**
 * The report step of a ts column, in SQL: fixed units by arithmetic (Seoul days by the fixed offset), months
 * by the period's month starts (`bounds`, step starts and the period's end), so every source row lands in
 * exactly one step and the store answers one row per device and step.
 */
function stepExpr(column: string, unit: StatUnit, bounds: readonly number[]): RawBuilder<number> {
  const col = sql.ref(column);
  if (unit === "month") {
    // Never a bare number (GROUP BY 1234 would name a column by its position).
    const whens = bounds.slice(1).map((upper, i) => sql`when ${col} < ${sql.lit(upper)} then ${sql.lit(bounds[i]!)}`);
    return sql<number>`(case ${sql.join(whens, sql` `)} else ${sql.lit(bounds[bounds.length - 2]!)} end)`;
  }
  if (unit === "day") return sql<number>`${col} - ((${col} + ${sql.lit(SEOUL_OFFSET_MS)}) % ${sql.lit(DAY_MS)})`;
  return sql<number>`${col} - (${col} % ${sql.lit(unitStepMs(unit)!)})`;
}

/**
 * The device column of a rollup read row by row: left out when the query reads one device (an export at unit
 * 60 reads a device's 8,760 hours per query), so the store does not make a string per row; `byDevice` then
 * gives the rows to that device.
 */
const deviceColumn = (uids: string[]) => (uids.length === 1 ? sql`` : sql`device_uid, `);

/** Whether a rollup's rows are already one per step of the unit (no grouping needed). */
const sourceIsStep = (unit: StatUnit) => unit === "60" || unit === "day";

/** Weighted mean of a rollup's per-row means over a step (weights: the row's readings). */
const wavg = (c: string) =>
  sql`sum(${sql.ref(c)} * samples) / nullif(sum(case when ${sql.ref(c)} is not null then samples end), 0)`;

function inverterAggSql(uids: string[], period: Period, unit: StatUnit, bounds: readonly number[]): RawBuilder<Agg> {
  const source = UNIT_SOURCE[unit];
  if (source === "raw") {
    return sql<Agg>`select device_uid, ${stepExpr("ts", unit, bounds)} as b, count(*) as n, sum(iw) / 6.0 as energy_wh, max(iw) as max_w,
        count(case when iw > 0 then 1 end) as run_n
      from m_inverter where device_uid in (${inList(uids)}) and ts >= ${period.start} and ts < ${period.end}
      group by device_uid, ${stepExpr("ts", unit, bounds)}`;
  }
  const table = source === "hourly" ? "rollup_hourly" : "rollup_daily";
  const col = source === "hourly" ? "hour_ts" : "day_ts";
  if (sourceIsStep(unit)) {
    return sql<Agg>`select ${deviceColumn(uids)}${sql.ref(col)} as b, samples as n, energy_wh, max_w, run_samples as run_n from ${sql.table(table)}
      where device_uid in (${inList(uids)}) and ${sql.ref(col)} >= ${period.start} and ${sql.ref(col)} < ${period.end}`;
  }
  return sql<Agg>`select device_uid, ${stepExpr(col, unit, bounds)} as b, sum(samples) as n, sum(energy_wh) as energy_wh, max(max_w) as max_w,
      sum(run_samples) as run_n
    from ${sql.table(table)} where device_uid in (${inList(uids)}) and ${sql.ref(col)} >= ${period.start} and ${sql.ref(col)} < ${period.end}
    group by device_uid, ${stepExpr(col, unit, bounds)}`;
}

function envAggSql(uids: string[], period: Period, unit: StatUnit, bounds: readonly number[]): RawBuilder<Agg> {
  const source = UNIT_SOURCE[unit];
  if (source === "raw") {
    return sql<Agg>`select device_uid, ${stepExpr("ts", unit, bounds)} as b, count(*) as n, sum(iis) / 6.0 as iis_wh, sum(his) / 6.0 as his_wh,
        avg(sts) as avg_sts, avg(ats) as avg_ats, count(case when iis > 0 then 1 end) as lit_n
      from m_env where device_uid in (${inList(uids)}) and ts >= ${period.start} and ts < ${period.end}
      group by device_uid, ${stepExpr("ts", unit, bounds)}`;
  }
  const table = source === "hourly" ? "rollup_hourly" : "rollup_daily";
  const col = source === "hourly" ? "hour_ts" : "day_ts";
  if (sourceIsStep(unit)) {
    return sql<Agg>`select ${deviceColumn(uids)}${sql.ref(col)} as b, samples as n, iis_wh, his_wh, avg_sts, avg_ats, lit_samples as lit_n from ${sql.table(table)}
      where device_uid in (${inList(uids)}) and ${sql.ref(col)} >= ${period.start} and ${sql.ref(col)} < ${period.end}`;
  }
  return sql<Agg>`select device_uid, ${stepExpr(col, unit, bounds)} as b, sum(samples) as n, sum(iis_wh) as iis_wh, sum(his_wh) as his_wh,
      ${wavg("avg_sts")} as avg_sts, ${wavg("avg_ats")} as avg_ats, sum(lit_samples) as lit_n
    from ${sql.table(table)} where device_uid in (${inList(uids)}) and ${sql.ref(col)} >= ${period.start} and ${sql.ref(col)} < ${period.end}
    group by device_uid, ${stepExpr(col, unit, bounds)}`;
}

/** Breakers from the raw rows at every unit; a breaker operation is a change of state from the reading before. */
function breakerAggSql(uids: string[], period: Period, unit: StatUnit, bounds: readonly number[]): RawBuilder<Agg> {
  return sql<Agg>`select device_uid, ${stepExpr("ts", unit, bounds)} as b, count(*) as n, avg(v) as avg_v, avg(a) as avg_a, avg(w) as avg_w,
      max(w) as max_w, sum(w) / 6.0 as energy_wh, avg(pf) as avg_pf, sum(changed) as operations, max(gf_ma) as max_gf_ma
    from (select device_uid, ts, v, a, w, pf, gf_ma,
        case when state is not null and lag(state) over (partition by device_uid order by ts) is not null
          and state <> lag(state) over (partition by device_uid order by ts) then 1 else 0 end as changed
      from m_breaker where device_uid in (${inList(uids)}) and ts >= ${period.start - STEP_MS} and ts < ${period.end}) x
    where ts >= ${period.start}
    group by device_uid, ${stepExpr("ts", unit, bounds)}`;
}

const AGG_SQL = { inverter: inverterAggSql, env: envAggSql, breaker: breakerAggSql };

// ---- Rows ----

type Field = { name: string; how: "sum" | "max" | "avg" };
const FIELDS: Record<"inverter" | "env" | "breaker", Field[]> = {
  inverter: [
    { name: "energy_wh", how: "sum" },
    { name: "max_w", how: "max" },
  ],
  env: [
    { name: "iis_wh", how: "sum" },
    { name: "his_wh", how: "sum" },
    { name: "avg_sts", how: "avg" },
    { name: "avg_ats", how: "avg" },
  ],
  breaker: [
    { name: "avg_v", how: "avg" },
    { name: "avg_a", how: "avg" },
    { name: "avg_w", how: "avg" },
    { name: "max_w", how: "max" },
    { name: "energy_wh", how: "sum" },
    { name: "avg_pf", how: "avg" },
    { name: "operations", how: "sum" },
    { name: "max_gf_ma", how: "max" },
  ],
};

/** One value folded into another of the same key and step (`wInto`, `wFrom`: their readings, for averages). */
function foldValue(how: Field["how"], cur: number | null, v: number, wInto: number, wFrom: number): number {
  if (cur === null) return v;
  if (how === "sum") return cur + v;
  if (how === "max") return Math.max(cur, v);
  return wInto + wFrom > 0 ? (cur * wInto + v * wFrom) / (wInto + wFrom) : v;
}

/** Adds `from` into `into` (both rows of one key and step); averages are weighted by readings. */
function foldInto(
  into: Record<string, number | null>,
  from: Record<string, unknown>,
  fields: Field[],
  weightInto: number,
  weightFrom: number,
) {
  for (const f of fields) {
    const v = num(from[f.name]);
    if (v === null) continue;
    into[f.name] = foldValue(f.how, into[f.name] ?? null, v, weightInto, weightFrom);
  }
}

/** A row of a device query: an array (SQLite raw mode) or the driver's object (PostgreSQL). */
type AggRow = { [column: string]: unknown; [index: number]: unknown };

/**
 * A device query's rows with where each column is: on SQLite arrays from better-sqlite3's raw mode (no object per
 * row — an export at unit 60 reads 876,000 of them) and column indexes, on PostgreSQL the driver's objects and
 * column names, so neither is converted.
 */
interface AggRows {
  rows: AggRow[];
  /** Where device_uid is (absent from a one-device query), the step, the readings, each field. */
  dev: number | string;
  b: number | string;
  n: number | string;
  f: Array<number | string>;
}

/** Raw-mode statements of our own (Kysely's cached ones must keep answering objects), by text. */
const rawStatement = preparedStatements({ max: 200, raw: true });

async function aggRows(db: Db, query: RawBuilder<Agg>, fields: Field[]): Promise<AggRows> {
  const compiled = query.compile(db);
  const sqlite = rawSqlite(db);
  if (!sqlite) {
    const rows = (await db.executeQuery<AggRow>(compiled)).rows;
    return { rows, dev: "device_uid", b: "b", n: "n", f: fields.map((f) => f.name) };
  }
  // Run on Kysely's connection with its lock held, so no other caller's transaction is open in between.
  const { cols, rows } = await db.connection().execute(async () => {
    const st = rawStatement(sqlite, compiled.sql);
    return { cols: st.columns().map((c) => c.name), rows: st.all(compiled.parameters as unknown[]) as AggRow[] };
  });
  return {
    rows,
    dev: cols.indexOf("device_uid"),
    b: cols.indexOf("b"),
    n: cols.indexOf("n"),
    f: fields.map((f) => cols.indexOf(f.name)),
  };
}

/**
 * Per device, its aggregates in step order (the store answers one row per device and step; a repeat is folded
 * in). `uids`: the devices asked for; rows without a device column are the one device's (`deviceColumn`).
 */
function byDevice(a: AggRows, fields: Field[], uids: string[]): Map<string, AggRow[]> {
  const out = new Map<string, AggRow[]>();
  if (uids.length === 1) {
    out.set(uids[0]!, a.rows);
  } else {
    for (const r of a.rows) {
      const uid = r[a.dev] as string;
      let list = out.get(uid);
      if (!list) out.set(uid, (list = []));
      list.push(r);
    }
  }
  for (const list of out.values()) {
    list.sort((x, y) => Number(x[a.b]) - Number(y[a.b]));
    for (let i = list.length - 1; i > 0; i--) {
      const cur = list[i - 1]!;
      const next = list[i]!;
      if (Number(cur[a.b]) !== Number(next[a.b])) continue;
      const wInto = Number(cur[a.n]);
      const wFrom = Number(next[a.n]);
      fields.forEach((f, k) => {
        const v = num(next[a.f[k]!]);
        cur[a.f[k]!] = v === null ? num(cur[a.f[k]!]) : foldValue(f.how, num(cur[a.f[k]!]), v, wInto, wFrom);
      });
      cur[a.n] = wInto + wFrom;
      list.splice(i, 1);
    }
  }
  return out;
}

export interface ReportContext {
  period: Period;
  unit: StatUnit;
  sunRise: boolean;
  exp: Expectations;
  plants: Map<string, PlantInfo>;
}

export function reportContext(
  resolved: ResolvedScope,
  period: Period,
  unit: StatUnit,
  sunRise: boolean,
  now: number,
): ReportContext {
  const plants = new Map(resolved.plants.map((p) => [p.uid, p]));
  return { period, unit, sunRise, plants, exp: new Expectations(period, unit, now, sunRise, plants) };
}

/**
 * Rows per chunk: a chunk holds about this many report rows (devices × steps), whatever the unit, so a year
 * of hourly rows streams in small pieces while a daily report still needs only a few queries.
 */
const ROWS_PER_CHUNK = 10_000;
/** At most this many devices (or plants) in one query's IN list. */
const MAX_PER_QUERY = 200;
const perChunk = (ctx: ReportContext, rowsPerKey = 1, rows = ROWS_PER_CHUNK) =>
  Math.max(1, Math.min(MAX_PER_QUERY, Math.floor(rows / Math.max(1, (ctx.exp.bounds.length - 1) * rowsPerKey))));

/**
 * Rows of devices of one family: every step with data or with data expected; `steps`: only the steps [from, to)
 * of the period (a part of one device's long period, read on its own), all of them by default.
 */
async function deviceRows<R extends RowBase>(
  db: Db,
  ctx: ReportContext,
  devices: StatDevice[],
  family: "inverter" | "env" | "breaker",
  steps: { from: number; to: number } = { from: 0, to: ctx.exp.bounds.length - 1 },
): Promise<R[]> {
  if (!devices.length) return [];
  const uids = devices.map((d) => d.uid);
  const fields = FIELDS[family];
  const starts = ctx.exp.bounds;
  const whole = steps.from === 0 && steps.to === starts.length - 1;
  // A part of the period: its own steps' bounds (a month step's CASE needs only those), whole steps only.
  const period = whole ? ctx.period : { start: starts[steps.from]!, end: starts[steps.to]! };
  const bounds = whole ? starts : starts.slice(steps.from, steps.to + 1);
  const a = await aggRows(db, AGG_SQL[family](uids, period, ctx.unit, bounds), fields);
  const perDevice = byDevice(a, fields, uids);
  const nf = fields.length;
  const out: R[] = [];
  for (const d of devices) {
    const expected = ctx.exp.forPlant(d.plant_uid, d.kind);
    const mine = perDevice.get(d.uid) ?? [];
    // Walk the steps and the device's aggregates (both in time order) side by side.
    let k = 0;
    for (let i = steps.from; i < steps.to; i++) {
      const ts = starts[i]!;
      while (k < mine.length && Number(mine[k]![a.b]) < ts) k++;
      const got = k < mine.length && Number(mine[k]![a.b]) === ts ? mine[k] : undefined;
      if (ctx.sunRise && !inDaylight(ctx.exp, d.plant_uid, i, ctx.unit)) continue;
      const e = expected[i]!;
      if (!got && e === 0) continue;
      const row: Record<string, unknown> = { device_uid: d.uid, ts, samples: got ? Number(got[a.n]) : 0, expected: e };
      for (let j = 0; j < nf; j++) row[fields[j]!.name] = got ? num(got[a.f[j]!]) : null;
      out.push(row as unknown as R);
    }
  }
  return out;
}

const FAMILY: Record<Exclude<ReportKind, "integrated">, { kind: number; family: "inverter" | "env" | "breaker" }> = {
  inverter: { kind: DEVICE_KIND.inverter, family: "inverter" },
  env: { kind: DEVICE_KIND.environmentSensor, family: "env" },
  vcb: { kind: DEVICE_KIND.vcb, family: "breaker" },
  acb: { kind: DEVICE_KIND.acb, family: "breaker" },
};

/**
 * Rows of a device report, chunk by chunk of devices (in device order; about `rows` rows each, ROWS_PER_CHUNK by
 * default). A device whose period alone holds more steps than that (an export of a year of hours) is read a part
 * of its period at a time, in step order — not a breaker: an operation compares a reading with the one before it,
 * which a cut between two parts would hide.
 */
export async function* deviceReportChunks(
  db: Db,
  ctx: ReportContext,
  report: Exclude<ReportKind, "integrated">,
  devices: StatDevice[],
  rows = ROWS_PER_CHUNK,
) {
  const { kind, family } = FAMILY[report];
  const mine = devices.filter((d) => d.kind === kind);
  const size = perChunk(ctx, 1, rows);
  const steps = ctx.exp.bounds.length - 1;
  const span = size === 1 && family !== "breaker" ? Math.max(1, rows) : steps;
  for (let i = 0; i < mine.length; i += size) {
    for (let from = 0; from < steps; from += span) {
      const to = Math.min(steps, from + span);
      yield await deviceRows<InverterRow & EnvRow & BreakerRow>(db, ctx, mine.slice(i, i + size), family, { from, to });
    }
  }
}

export interface PlantAgg {
  plant: string;
  b: number;
  n: number;
  energy_wh: number | null;
  max_w: number | null;
  /** Producing steps (iw > 0) summed over the plant's inverters (null: not known, rows of before the count). */
  run_n: number | null;
}

export interface PlantEnvAgg {
  plant: string;
  b: number;
  iis_wh: number;
  sensors: number;
  /** Lit steps (G > 0), mean over the sensors that measured (null: not known). */
  lit_n: number | null;
}

/**
 * A plant's inverter steps: the sum of its inverters' readings, energy and peaks per step (no join to `device`:
 * a third faster than joining and grouping by plant on SQLite). The rollup writer keeps the unit-day answer of
 * this same statement per plant and day (api/store/plant-stat-days.ts), so both ways add up alike.
 */
export function plantInverterStepsSql(plant: string, uids: string[], period: Period, unit: StatUnit, bounds: readonly number[]) {
  return sql<PlantAgg>`select cast(${plant} as text) as plant, x.b as b, sum(x.n) as n, sum(x.energy_wh) as energy_wh, sum(x.max_w) as max_w,
        sum(x.run_n) as run_n
        from (${inverterAggSql(uids, period, unit, bounds)}) x group by x.b`;
}

/** A plant's sensor steps: the mean irradiation of its sensors that measured in the step, and how many did. */
export function plantEnvStepsSql(plant: string, uids: string[], period: Period, unit: StatUnit, bounds: readonly number[]) {
  return sql<PlantEnvAgg>`select cast(${plant} as text) as plant, x.b as b, avg(x.iis_wh) as iis_wh, count(*) as sensors,
        avg(x.lit_n) as lit_n
        from (${envAggSql(uids, period, unit, bounds)}) x where x.iis_wh is not null group by x.b`;
}

/**
 * The plants of `plants` whose inverters and sensors in the report (`invs`, `envs`) are every device of those kinds
 * the plant has, in use or not: the devices migration 0016's rows count. Call refreshPlantStatDays first.
 */
async function plantDaysCover(db: Db, plants: string[], invs: StatDevice[], envs: StatDevice[]): Promise<Set<string>> {
  const inScope = new Map<string, number>();
  for (const d of [...invs, ...envs]) inScope.set(`${d.plant_uid}|${d.kind}`, (inScope.get(`${d.plant_uid}|${d.kind}`) ?? 0) + 1);
  const have = await db
    .selectFrom("device")
    .select((eb) => ["plant_uid", "kind", eb.fn.countAll<number>().as("c")])
    .where("plant_uid", "in", plants)
    .where("kind", "in", [DEVICE_KIND.inverter, DEVICE_KIND.environmentSensor])
    .groupBy(["plant_uid", "kind"])
    .execute();
  const inStore = new Map(have.map((h) => [`${h.plant_uid}|${Number(h.kind)}`, Number(h.c)]));
  const kinds = [DEVICE_KIND.inverter, DEVICE_KIND.environmentSensor];
  return new Set(plants.filter((p) => kinds.every((k) => (inStore.get(`${p}|${k}`) ?? 0) === (inScope.get(`${p}|${k}`) ?? 0))));
}

/**
 * Integrated rows per plant (`group`: one row per step for the whole scope), chunk by chunk of plants. The
 * store sums the inverters and averages the sensors of each plant and step, so a year of a hundred inverters
 * comes back as one row per plant and day rather than one per device and day. A plant's row: the sum of
 * its inverters' steps (readings, expected readings, energy, peaks), and the mean irradiation of the
 * sensors that measured in the step; a step is there when an inverter or a sensor has data or data is expected.
 */
export async function* plantReportChunks(
  db: Db,
  ctx: ReportContext,
  devices: StatDevice[],
  per: "plant" | "group",
  opts: { plantDays?: boolean } = {},
) {
  const plantUids = [...ctx.plants.keys()];
  const scopeRows = per === "group" ? new Map<number, IntegratedRow & { sensors: number; covE: number }>() : null;
  const bounds = ctx.exp.bounds;
  const last = bounds.length - 1;
  const size = perChunk(ctx);
  for (let c = 0; c < plantUids.length; c += size) {
    const part = plantUids.slice(c, c + size);
    const inChunk = new Set(part);
    const invs = devices.filter((d) => d.kind === DEVICE_KIND.inverter && d.plant_uid && inChunk.has(d.plant_uid));
    const envs = devices.filter((d) => d.kind === DEVICE_KIND.environmentSensor && d.plant_uid && inChunk.has(d.plant_uid));
    const inverterCount = new Map<string, number>();
    for (const d of invs) inverterCount.set(d.plant_uid!, (inverterCount.get(d.plant_uid!) ?? 0) + 1);
    const inv = new Map<string, Map<number, PlantAgg>>();
    // One query per family: a sub-select per plant, no join to `device` (a third faster than joining and
    // grouping by plant on SQLite, and one round trip on PostgreSQL).
    const byPlant = (list: StatDevice[]) => {
      const m = new Map<string, string[]>();
      for (const d of list) m.set(d.plant_uid!, [...(m.get(d.plant_uid!) ?? []), d.uid]);
      return [...m.entries()];
    };
    const env = new Map<string, Map<number, { iis: number; sensors: number; lit: number | null }>>();
    const addInv = (r: PlantAgg) => {
      let m = inv.get(r.plant);
      if (!m) inv.set(r.plant, (m = new Map()));
      m.set(Number(r.b), r);
    };
    const addEnv = (r: PlantEnvAgg) => {
      let m = env.get(r.plant);
      if (!m) env.set(r.plant, (m = new Map()));
      m.set(Number(r.b), { iis: Number(r.iis_wh), sensors: Number(r.sensors), lit: num(r.lit_n) });
    };
    // At unit day a plant whose scope holds every inverter and sensor it has reads its kept days (migration 0016).
    const kept = ctx.unit === "day" && opts.plantDays !== false ? await plantDaysCover(db, part, invs, envs) : new Set<string>();
    if (kept.size) {
      const rows = await db
        .selectFrom("rollup_plant_stat_daily")
        .select(["plant_uid", "day_ts", "inv_n", "energy_wh", "max_w", "sensors", "iis_wh", "run_n", "lit_n"])
        .where("plant_uid", "in", [...kept])
        .where("day_ts", ">=", ctx.period.start)
        .where("day_ts", "<", ctx.period.end)
        .execute();
      for (const r of rows) {
        const { plant_uid: plant, day_ts: b } = r;
        if (r.inv_n !== null) addInv({ plant, b, n: r.inv_n, energy_wh: r.energy_wh, max_w: r.max_w, run_n: r.run_n });
        if (Number(r.sensors) > 0) addEnv({ plant, b, iis_wh: r.iis_wh!, sensors: r.sensors, lit_n: r.lit_n });
      }
    }
    const computed = (list: StatDevice[]) => byPlant(list.filter((d) => !kept.has(d.plant_uid!)));
    const invParts = computed(invs).map(([plant, uids]) => plantInverterStepsSql(plant, uids, ctx.period, ctx.unit, bounds));
    if (invParts.length)
      for (const r of (await sql<PlantAgg>`${sql.join(invParts, sql` union all `)}`.execute(db)).rows) addInv(r);
    const envParts = computed(envs).map(([plant, uids]) => plantEnvStepsSql(plant, uids, ctx.period, ctx.unit, bounds));
    if (envParts.length)
      for (const r of (await sql<PlantEnvAgg>`${sql.join(envParts, sql` union all `)}`.execute(db)).rows) addEnv(r);
    const out: IntegratedRow[] = [];
    for (const plant of part) {
      const count = inverterCount.get(plant) ?? 0;
      const expected = count ? ctx.exp.forPlant(plant, DEVICE_KIND.inverter) : null;
      const mineInv = inv.get(plant);
      const mineEnv = env.get(plant);
      const capa = ctx.plants.get(plant)!.capa;
      for (let i = 0; i < last; i++) {
        if (ctx.sunRise && !inDaylight(ctx.exp, plant, i, ctx.unit)) continue;
        const ts = bounds[i]!;
        const e = expected ? expected[i]! * count : 0;
        const a = mineInv?.get(ts);
        const s = mineEnv?.get(ts);
        if (!a && e === 0 && !s) continue;
        out.push({
          device_uid: plant,
          ts,
          samples: a ? Number(a.n) : 0,
          expected: e,
          energy_wh: a ? num(a.energy_wh) : null,
          max_w: a ? num(a.max_w) : null,
          iis_wh: s ? s.iis : null,
          iis_cov: s ? bucketCoverage(s.lit, a && count && num(a.run_n) !== null ? num(a.run_n)! / count : null) : null,
          capa,
        });
      }
    }
    if (!scopeRows) {
      yield out;
      continue;
    }
    // The scope's row of a step: the plants' sums, and the mean of the plants' irradiation.
    for (const r of out) {
      let t = scopeRows.get(r.ts);
      if (!t)
        scopeRows.set(
          r.ts,
          (t = {
            device_uid: "scope",
            ts: r.ts,
            samples: 0,
            expected: 0,
            energy_wh: null,
            max_w: null,
            iis_wh: null,
            iis_cov: null,
            capa: 0,
            sensors: 0,
            covE: 0,
          }),
        );
      t.samples += r.samples;
      t.expected += r.expected;
      t.capa += r.capa;
      if (r.energy_wh !== null) t.energy_wh = (t.energy_wh ?? 0) + r.energy_wh;
      if (r.max_w !== null) t.max_w = (t.max_w ?? 0) + r.max_w;
      if (r.iis_wh !== null) {
        t.iis_wh = ((t.iis_wh ?? 0) * t.sensors + r.iis_wh) / (t.sensors + 1);
        t.sensors += 1;
      }
      // The scope's coverage: its plants' coverages weighted by their energy (a plant without a sensor: 0).
      const e = r.energy_wh ?? 0;
      if (e > 0 || t.iis_cov === null) {
        t.iis_cov = ((t.iis_cov ?? 0) * t.covE + (r.iis_cov ?? 0) * e) / (t.covE + e || 1);
        t.covE += e;
      }
    }
  }
  if (scopeRows) {
    const total = [...ctx.plants.values()].reduce((a, p) => a + p.capa, 0);
    yield [...scopeRows.values()]
      .sort((a, b) => a.ts - b.ts)
      .map(({ sensors: _s, covE: _e, ...r }) => ({ ...r, capa: total }) as IntegratedRow);
  }
}

// ---- Totals ----

function emptyValues(fields: Field[]): Record<string, null> {
  return Object.fromEntries(fields.map((f) => [f.name, null]));
}

/** Running totals per row key (the sums of its rows), fed chunk by chunk. */
export class Totals {
  private byKey = new Map<string, RowTotal & { _w: number }>();
  private stepPeaks = new Map<number, number>();
  /** The integrated report's performance sums per row key (domain/statistics.ts reportRowSums). */
  private perf = new Map<string, PerformanceSums>();
  /** The inverter report's energy per step, summed over its rows (for PR against the scope's sensors per step). */
  private stepEnergy = new Map<number, number>();
  constructor(
    private family: "inverter" | "env" | "breaker" | "plant",
    private capas: (key: string) => number | null,
  ) {}
  add(rows: ReadonlyArray<RowBase>) {
    const fields = this.family === "plant" ? [...FIELDS.inverter, { name: "iis_wh", how: "sum" as const }] : FIELDS[this.family];
    for (const r of rows) {
      let t = this.byKey.get(r.device_uid);
      if (!t) {
        t = { device_uid: r.device_uid, samples: 0, expected: 0, completeness: null, _w: 0, ...emptyValues(fields) };
        this.byKey.set(r.device_uid, t);
      }
      foldInto(t as unknown as Record<string, number | null>, r as unknown as Record<string, unknown>, fields, t._w, r.samples);
      t._w += r.samples;
      // Completeness counts the expected readings that arrived: a step's extra readings (before sunrise,
      // say) never make up for a silent step elsewhere.
      t.samples += Math.min(r.samples, r.expected);
      t.expected += r.expected;
      if (this.family === "plant") {
        const row = r as IntegratedRow;
        const add = reportRowSums([row], row.capa);
        const cur = this.perf.get(r.device_uid);
        this.perf.set(r.device_uid, cur ? addSums(cur, add) : add);
      }
      const e = this.family === "inverter" ? num((r as unknown as Record<string, unknown>).energy_wh) : null;
      if (e !== null) this.stepEnergy.set(r.ts, (this.stepEnergy.get(r.ts) ?? 0) + e);
      const mw = num((r as unknown as Record<string, unknown>).max_w);
      if (mw !== null) this.stepPeaks.set(r.ts, (this.stepPeaks.get(r.ts) ?? 0) + mw);
    }
  }
  keys(): string[] {
    return [...this.byKey.keys()];
  }
  list(): RowTotal[] {
    return [...this.byKey.values()].map(({ _w, ...t }) => {
      const out: RowTotal = { ...t, completeness: completenessPct(t.samples, t.expected) };
      const capa = this.capas(t.device_uid);
      if ((this.family === "inverter" || this.family === "plant") && capa) out.genHours = finalYield(t.energy_wh ?? 0, capa);
      const perf = this.perf.get(t.device_uid);
      if (perf && capa) {
        const { pr, withheld } = reportPr(perf, capa);
        out.pr = pr;
        out.pr_withheld = withheld;
      }
      return out;
    });
  }
  /** Energy per step of an inverter report (Wh), in no particular order. */
  energySteps(): ReadonlyMap<number, number> {
    return this.stepEnergy;
  }
  /** The performance sums of the integrated report's row keys given (null: none of them has rows). */
  perfOf(keys: readonly string[]): PerformanceSums | null {
    let out: PerformanceSums | null = null;
    for (const k of keys) {
      const v = this.perf.get(k);
      if (v) out = out ? addSums(out, v) : v;
    }
    return out;
  }
  /** The highest step of the report: per step, the sum of each row key's peak (exact at unit 10). */
  peak(): number | null {
    let best: number | null = null;
    for (const v of this.stepPeaks.values()) best = best === null ? v : Math.max(best, v);
    return best;
  }
}

export const familyOf = (report: ReportKind): "inverter" | "env" | "breaker" | "plant" =>
  report === "integrated" ? "plant" : FAMILY[report].family;
