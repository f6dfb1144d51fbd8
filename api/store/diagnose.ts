/**
 * Queries of the diagnosis calls. Each unit reads its own resolution: unit 10 the raw 10-minute rows,
 * unit 60 rollup_hourly, unit 1440 rollup_daily — so a year's diagnosis reads daily rows, never raw ones.
 * Every bucket becomes a domain/performance.ts bucket; the figures are computed there, once.
 */
import { sql, type Kysely } from "kysely";
import {
  AVAILABILITY_FLEET_MAX_INVERTER_STEPS,
  availabilityWithinBounds,
  plantAvailability,
  type AvailabilityInput,
  type Exclusion,
} from "../../domain/analytics/availability";
import { bucketOf, type DiagnoseUnit, type Period } from "../../domain/diagnose-period";
import {
  DEFAULT_COEFFICIENTS,
  MERGE_BELOW_SHARE,
  type PerformanceBucket,
  type PerformanceCoefficients,
  type PerformanceSums,
} from "../../domain/performance";
import type { CompareKind, CompareType } from "../../domain/contract/diagnose";
import { isRated, type RankingPlant } from "../../domain/diagnose-ranking";
import { capacityKw } from "../../domain/units";
import { lockPlants, rebuildPlantDaily } from "../telemetry/writer";
import type { Database } from "./schema";

type Db = Kysely<Database>;

export interface InverterInfo {
  uid: string;
  name: string;
  plantUid: string;
  plantName: string;
  capacityKw: number;
  /** The device's own rating (raw, 10 W units); null or 0 = none (`capacityKw` 0, left out of the figures). */
  capa: number | null;
  /** Its plant's coefficients of the reference (γ, η). */
  k: PerformanceCoefficients;
}

/** Per bucket of one inverter. */
export interface InverterBucket {
  t: number;
  energyKwh: number | null;
  maxKw: number | null;
  runSteps: number;
}

/** Per bucket of a plant's environment sensors (averaged over sensors). */
export interface EnvBucket {
  t: number;
  /** kWh/m². */
  insolation: number | null;
  insolationTemp: number | null;
  horizontal: number | null;
  sunSteps: number;
  litSteps: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const hoursOf = (unit: DiagnoseUnit) => unit / 60;
const CHUNK = 400;

/** `run` over `uids` cut into lists of `size`, one after the other, its rows joined. */
async function chunked<T>(uids: string[], run: (part: string[]) => Promise<T[]>, size = CHUNK): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < uids.length; i += size) out.push(...(await run(uids.slice(i, i + size))));
  return out;
}

/** Devices by uid with their plant and RTU (what visibility depends on), one query. */
export async function devicesWithPlaces(db: Db, uids: string[]) {
  if (!uids.length) return [];
  return db
    .selectFrom("device")
    .leftJoin("plant", "plant.uid", "device.plant_uid")
    .leftJoin("rtu", "rtu.uid", "device.rtu_uid")
    .select([
      "device.uid",
      "device.kind",
      "device.plant_uid",
      "device.rtu_uid",
      "plant.uid as p_uid",
      "plant.node_seq as p_node",
      "rtu.plant_uid as r_plant",
      "rtu.node_seq as r_node",
      "rtu.uid as r_uid",
    ])
    .where("device.uid", "in", uids)
    .execute();
}

/** The inverters (kind 1) in use on an RTU, by uid. */
export async function rtuInverterUids(db: Db, rtuUid: string): Promise<string[]> {
  const rows = await db
    .selectFrom("device")
    .select("uid")
    .where("rtu_uid", "=", rtuUid)
    .where("kind", "=", 1)
    .where("use_yn", "=", 1)
    .orderBy("uid")
    .execute();
  return rows.map((r) => r.uid);
}

/** Devices' names with their plant's name. */
export async function deviceNames(db: Db, uids: string[]) {
  if (!uids.length) return [];
  return db
    .selectFrom("device")
    .leftJoin("plant", "plant.uid", "device.plant_uid")
    .select(["device.uid", "device.name", "plant.name as plant_name"])
    .where("device.uid", "in", uids)
    .execute();
}

/** A plant's γ and η (null: the SPEC's default). */
export async function setPlantCoefficients(db: Db, plantUid: string, gamma: number | null, eta: number | null) {
  await db.updateTable("plant").set({ temp_coeff: gamma, system_factor: eta }).where("uid", "=", plantUid).execute();
}

/**
 * Inverters with their own rating (0 kW when they have none: domain/diagnose-ranking.ts, no rating is invented), their
 * plant, and its coefficients. One query.
 */
export async function inverterInfos(db: Db, uids: string[]): Promise<InverterInfo[]> {
  if (!uids.length) return [];
  const rows = await chunked(uids, (part) =>
    db
      .selectFrom("device")
      .innerJoin("plant", "plant.uid", "device.plant_uid")
      .select([
        "device.uid",
        "device.name",
        "device.capa",
        "device.plant_uid",
        "plant.name as plant_name",
        "plant.temp_coeff",
        "plant.system_factor",
      ])
      .where("device.uid", "in", part)
      .where("device.kind", "=", 1)
      .execute(),
  );
  const order = new Map(uids.map((u, i) => [u, i]));
  return rows
    .map((r) => {
      const capa = r.capa === null ? null : Number(r.capa);
      return {
        uid: r.uid,
        name: r.name,
        plantUid: r.plant_uid!,
        plantName: r.plant_name,
        capa,
        capacityKw: isRated(capa) ? capacityKw(capa!) : 0,
        k: {
          temperatureCoefficient: num(r.temp_coeff) ?? DEFAULT_COEFFICIENTS.temperatureCoefficient,
          systemFactor: num(r.system_factor) ?? DEFAULT_COEFFICIENTS.systemFactor,
        },
      };
    })
    .sort((a, b) => order.get(a.uid)! - order.get(b.uid)!);
}

export async function plantCoefficients(db: Db, plantUid: string): Promise<PerformanceCoefficients> {
  const p = await db.selectFrom("plant").select(["temp_coeff", "system_factor"]).where("uid", "=", plantUid).executeTakeFirst();
  return {
    temperatureCoefficient: num(p?.temp_coeff) ?? DEFAULT_COEFFICIENTS.temperatureCoefficient,
    systemFactor: num(p?.system_factor) ?? DEFAULT_COEFFICIENTS.systemFactor,
  };
}

/** Energy per inverter over the period (a SQL sum at the unit's resolution). */
export async function inverterEnergy(db: Db, uids: string[], p: Period): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!uids.length) return out;
  const rows = await chunked(uids, async (part) => {
    if (p.unit === 10) {
      return db
        .selectFrom("m_inverter")
        .select(["device_uid", sql<number>`sum(iw) / 6000.0`.as("e")])
        .where("device_uid", "in", part)
        .where("ts", ">=", p.from)
        .where("ts", "<", p.to)
        .groupBy("device_uid")
        .execute();
    }
    const table = p.unit === 60 ? "rollup_hourly" : "rollup_daily";
    const key = p.unit === 60 ? "hour_ts" : "day_ts";
    return db
      .selectFrom(table)
      .select(["device_uid", sql<number>`sum(energy_wh) / 1000.0`.as("e")])
      .where("device_uid", "in", part)
      .where(key, ">=", p.from)
      .where(key, "<", p.to)
      .groupBy("device_uid")
      .execute();
  });
  for (const r of rows) out.set(r.device_uid, Number(r.e ?? 0));
  return out;
}

/** Buckets of inverters, keyed by device uid. */
export async function inverterBuckets(db: Db, uids: string[], p: Period): Promise<Map<string, InverterBucket[]>> {
  const out = new Map<string, InverterBucket[]>();
  if (!uids.length) return out;
  const rows = await chunked(uids, async (part) => {
    if (p.unit === 10) {
      const r = await db
        .selectFrom("m_inverter")
        .select(["device_uid", "ts", "iw"])
        .where("device_uid", "in", part)
        .where("ts", ">=", p.from)
        .where("ts", "<", p.to)
        .execute();
      return r.map((x) => {
        const w = num(x.iw);
        return {
          uid: x.device_uid,
          t: Number(x.ts),
          energyKwh: w === null ? null : w / 6000,
          maxKw: w === null ? null : w / 1000,
          run: w !== null && w > 0 ? 1 : 0,
        };
      });
    }
    const table = p.unit === 60 ? "rollup_hourly" : "rollup_daily";
    const key = p.unit === 60 ? "hour_ts" : "day_ts";
    const r = await db
      .selectFrom(table)
      .select(["device_uid", sql<number>`${sql.ref(key)}`.as("t"), "energy_wh", "max_w", "run_samples"])
      .where("device_uid", "in", part)
      .where(key, ">=", p.from)
      .where(key, "<", p.to)
      .execute();
    return r.map((x) => ({
      uid: String(x.device_uid),
      t: Number(x.t),
      energyKwh: x.energy_wh === null ? null : Number(x.energy_wh) / 1000,
      maxKw: x.max_w === null ? null : Number(x.max_w) / 1000,
      run: Number(x.run_samples ?? 0),
    }));
  });
  for (const r of rows) {
    let list = out.get(r.uid);
    if (!list) out.set(r.uid, (list = []));
    list.push({ t: r.t, energyKwh: r.energyKwh, maxKw: r.maxKw, runSteps: r.run });
  }
  return out;
}

/**
 * Inverter rollup buckets summed in SQL per step and group, for generate at unit 60 and 1440 (a year of a
 * 100-inverter plant is 36,500 rows; the groups are a few per day). A group is every inverter of one plant and
 * one rating with the same producing steps in that step: their buckets add up exactly (domain/performance.ts,
 * `count`). A row whose highest power reaches MERGE_BELOW_SHARE of its rating might be clipping, which is not
 * linear, so it stays a group of its own (`uid` set, `maxKw` kept).
 */
export interface InverterGroup {
  t: number;
  /** The rating of each inverter of the group, kW. */
  capacityKw: number;
  /** Set for a row kept alone (it may be clipping). */
  uid: string | null;
  /** Inverter buckets in the group, and of those the ones with energy. */
  rows: number;
  reported: number;
  /** Σ energy of the reported ones, kWh. */
  energyKwh: number | null;
  /** Highest power, kW: only for a row kept alone. */
  maxKw: number | null;
  runSteps: number;
}

export async function inverterGroups(
  db: Db,
  infos: InverterInfo[],
  p: Period,
  /** Only these bucket starts (all of the period when left out). */
  only?: number[],
): Promise<InverterGroup[]> {
  if (!infos.length || p.unit === 10 || (only && !only.length)) return [];
  // Rated inverters only (domain/diagnose-ranking.ts splitByRating): each group has one rating.
  if (infos.some((i) => !isRated(i.capa))) throw new Error("inverterGroups: unrated inverters are left out first");
  const byUid = new Map(infos.map((i) => [i.uid, i]));
  const table = p.unit === 60 ? "rollup_hourly" : "rollup_daily";
  const key = p.unit === 60 ? "hour_ts" : "day_ts";
  const rows = await chunked(
    infos.map((i) => i.uid),
    async (part) =>
      (
        await sql<{
          t: number | string;
          plant_uid: string;
          capa: number | null;
          rs: number | null;
          solo: string | null;
          n: number | string;
          ne: number | string;
          e: number | null;
          mx: number | null;
        }>`select r.${sql.ref(key)} as t, d.plant_uid, d.capa, r.run_samples as rs,
        case when r.max_w >= ${sql.lit(MERGE_BELOW_SHARE * 10)} * d.capa then r.device_uid end as solo,
        count(*) as n, count(r.energy_wh) as ne, sum(r.energy_wh) as e, max(r.max_w) as mx
      from ${sql.table(table)} r join device d on d.uid = r.device_uid
      where r.device_uid in (${sql.join(part)}) and r.${sql.ref(key)} >= ${p.from} and r.${sql.ref(key)} < ${p.to}
        ${only ? sql`and r.${sql.ref(key)} in (${sql.join(only)})` : sql``}
      group by 1, 2, 3, 4, 5`.execute(db)
      ).rows,
  );
  return rows.map((r) => {
    const solo = r.solo === null ? undefined : byUid.get(r.solo);
    const capa = num(r.capa);
    const reported = Number(r.ne);
    return {
      t: Number(r.t),
      capacityKw: solo ? solo.capacityKw : capacityKw(capa!),
      uid: solo ? solo.uid : null,
      rows: Number(r.n),
      reported,
      energyKwh: reported ? Number(r.e) / 1000 : null,
      maxKw: solo && r.mx !== null ? Number(r.mx) / 1000 : null,
      runSteps: Number(r.rs ?? 0),
    };
  });
}

/**
 * A plant's days from rollup_plant_daily (the per-bucket terms of its rated inverters, summed per day by the rollup
 * writer: api/telemetry/rollups.ts plantDailySql), keyed by day start. Call refreshStalePlants first.
 */
export interface PlantDay {
  t: number;
  /** Rated inverters with a daily row that day. */
  inverters: number;
  /** Energy and irradiance both present (else the terms are 0 and the day must be read per inverter). */
  kept: boolean;
  /**
   * Every rated inverter's bucket adds up with its siblings' into these sums (rollups.ts plantDailySql, `regular`):
   * else the day must be read per group of inverters (inverterGroups).
   */
  regular: boolean;
  sums: PerformanceSums;
}

export async function plantDays(db: Db, plantUid: string, from: number, to: number): Promise<Map<number, PlantDay>> {
  const rows = await db
    .selectFrom("rollup_plant_daily")
    .selectAll()
    .where("plant_uid", "=", plantUid)
    .where("day_ts", ">=", from)
    .where("day_ts", "<", to)
    .execute();
  const out = new Map<number, PlantDay>();
  for (const r of rows) {
    const t = Number(r.day_ts);
    const inverters = Number(r.inverters);
    out.set(t, {
      t,
      inverters,
      kept: Number(r.kept) === 1,
      regular: Number(r.regular) === 1,
      sums: {
        energy: Number(r.energy),
        expected: Number(r.expected),
        yieldRefWeighted: Number(r.yref),
        corrWeighted: Number(r.corrw),
        clipping: 0,
        dropped: 0,
        total: inverters,
        kept: Number(r.kept) === 1 ? inverters : 0,
        // A plant-day row does not say which of energy or irradiance was missing: days are kept or dropped whole.
        noIrradiance: 0,
      },
    });
  }
  return out;
}

/** The plant's environment sensors' buckets, averaged over sensors, keyed by bucket start. */
export async function envBuckets(db: Db, plantUid: string, p: Period): Promise<Map<number, EnvBucket>> {
  const out = new Map<number, EnvBucket>();
  const sensors = db.selectFrom("device as s").select("s.uid").where("s.plant_uid", "=", plantUid).where("s.kind", "=", 4);
  let rows: Array<{ t: number; h: number | null; ht: number | null; hz: number | null; sun: number; lit: number }>;
  if (p.unit === 10) {
    const r = await db
      .selectFrom("m_env")
      .select(["ts", "iis", "his", "sts"])
      .where("device_uid", "in", sensors)
      .where("ts", ">=", p.from)
      .where("ts", "<", p.to)
      .execute();
    rows = r.map((x) => {
      const g = num(x.iis);
      const t = num(x.sts);
      return {
        t: Number(x.ts),
        h: g === null ? null : g / 6000,
        ht: g === null || t === null ? null : (g * t) / 6000,
        hz: x.his === null ? null : Number(x.his) / 6000,
        sun: g !== null && g > 100 ? 1 : 0,
        lit: g !== null && g >= 20 ? 1 : 0,
      };
    });
  } else {
    const table = p.unit === 60 ? "rollup_hourly" : "rollup_daily";
    const key = p.unit === 60 ? "hour_ts" : "day_ts";
    const r = await db
      .selectFrom(table)
      .select([sql<number>`${sql.ref(key)}`.as("t"), "iis_wh", "iis_sts_wh", "his_wh", "sun_samples", "lit_samples"])
      .where("device_uid", "in", sensors)
      .where(key, ">=", p.from)
      .where(key, "<", p.to)
      .execute();
    rows = r.map((x) => ({
      t: Number(x.t),
      h: x.iis_wh === null ? null : Number(x.iis_wh) / 1000,
      ht: x.iis_sts_wh === null ? null : Number(x.iis_sts_wh) / 1000,
      hz: x.his_wh === null ? null : Number(x.his_wh) / 1000,
      sun: Number(x.sun_samples ?? 0),
      lit: Number(x.lit_samples ?? 0),
    }));
  }
  const acc = new Map<
    number,
    { n: number; h: number; hn: number; ht: number; htn: number; hz: number; hzn: number; sun: number; lit: number }
  >();
  for (const r of rows) {
    let a = acc.get(r.t);
    if (!a) acc.set(r.t, (a = { n: 0, h: 0, hn: 0, ht: 0, htn: 0, hz: 0, hzn: 0, sun: 0, lit: 0 }));
    a.n++;
    if (r.h !== null) {
      a.h += r.h;
      a.hn++;
    }
    if (r.ht !== null) {
      a.ht += r.ht;
      a.htn++;
    }
    if (r.hz !== null) {
      a.hz += r.hz;
      a.hzn++;
    }
    a.sun += r.sun;
    a.lit += r.lit;
  }
  for (const [t, a] of acc) {
    out.set(t, {
      t,
      insolation: a.hn ? a.h / a.hn : null,
      insolationTemp: a.htn && a.htn === a.hn ? a.ht / a.htn : null,
      horizontal: a.hzn ? a.hz / a.hzn : null,
      sunSteps: Math.round(a.sun / a.n),
      litSteps: Math.round(a.lit / a.n),
    });
  }
  return out;
}

/**
 * An inverter bucket with its plant's irradiance as a performance bucket. Raw steps are exact; in a rollup
 * bucket the producing share of the sunny steps is estimated as producing steps / lit steps (an inverter
 * starts at about 20 W/m², so the two agree when it ran all day and fall apart by its downtime).
 */
export function performanceBucket(
  inv: InverterBucket | undefined,
  env: EnvBucket | undefined,
  capacityKw: number,
  unit: DiagnoseUnit,
): PerformanceBucket {
  const sun = env?.sunSteps ?? 0;
  const run = !inv
    ? 0
    : unit === 10
      ? Math.min(inv.runSteps, sun)
      : env && env.litSteps > 0
        ? sun * Math.min(1, inv.runSteps / env.litSteps)
        : 0;
  return {
    capacityKw,
    energyKwh: inv?.energyKwh ?? null,
    insolation: env?.insolation ?? null,
    insolationTemp: env?.insolationTemp ?? null,
    sunSteps: sun,
    runSteps: run,
    maxKw: inv?.maxKw ?? null,
    hours: hoursOf(unit),
  };
}

/** The comparison's series: one value per bucket key per device (null = no reading). */
export async function compareSeries(
  db: Db,
  uids: string[],
  kind: CompareKind,
  type: CompareType,
  p: Period,
  keys: number[],
): Promise<Map<string, Array<number | null>>> {
  const index = new Map(keys.map((k, i) => [k, i]));
  const out = new Map(uids.map((u) => [u, new Array<number | null>(keys.length).fill(null)]));
  if (!uids.length || !keys.length) return out;
  const rollup = p.unit !== 10 && (kind === 1 ? type === "power" || type === "energy" : kind === 4);
  let rows: Array<{ device_uid: string; t: number; v: number | null }>;
  if (rollup) {
    const table = p.unit === 60 ? "rollup_hourly" : "rollup_daily";
    const key = p.unit === 60 ? "hour_ts" : "day_ts";
    const hours = hoursOf(p.unit);
    const expr: Record<string, string> = {
      power: `energy_wh / ${hours * 1000}.0`,
      energy: "energy_wh / 1000.0",
      poa: `iis_wh / ${hours}.0`,
      horizontal: `his_wh / ${hours}.0`,
      moduleTemp: "avg_sts",
      ambientTemp: "avg_ats",
    };
    const r = await sql<{
      device_uid: string;
      t: number;
      v: number | null;
    }>`select device_uid, ${sql.ref(key)} as t, ${sql.raw(expr[type]!)} as v
      from ${sql.table(table)} where device_uid in (${sql.join(uids)}) and ${sql.ref(key)} >= ${p.from} and ${sql.ref(key)} < ${p.to}`.execute(
      db,
    );
    rows = r.rows;
  } else {
    const table = kind === 1 ? "m_inverter" : kind === 2 ? "m_board" : "m_env";
    const col: Record<string, string> = {
      power: "avg(iw) / 1000.0",
      energy: "sum(iw) / 6000.0",
      dcVoltage: "avg(dc_v)",
      dcCurrent: "avg(dc_a)",
      current: "avg(total_a)",
      voltage: "avg(v)",
      poa: "avg(iis)",
      horizontal: "avg(his)",
      moduleTemp: "avg(sts)",
      ambientTemp: "avg(ats)",
    };
    const ms = p.unit * 60_000;
    const bucket = p.unit === 1440 ? `ts - ((ts + 32400000) % ${ms})` : `ts - (ts % ${ms})`;
    const r = await sql<{
      device_uid: string;
      t: number;
      v: number | null;
    }>`select device_uid, ${sql.raw(bucket)} as t, ${sql.raw(col[type]!)} as v
      from ${sql.table(table)} where device_uid in (${sql.join(uids)}) and ts >= ${p.from} and ts < ${p.to}
      group by device_uid, ${sql.raw(bucket)}`.execute(db);
    rows = r.rows;
  }
  for (const r of rows) {
    const i = index.get(bucketOf(Number(r.t), p.unit));
    const list = out.get(r.device_uid);
    if (i === undefined || !list) continue;
    list[i] = r.v === null ? null : Number(r.v);
  }
  return out;
}

/** Plants per fleet query: far below SQLite's and PostgreSQL's bound-parameter limits, so 1,000 plants are one pass. */
const FLEET_CHUNK = 5_000;

/**
 * Brings the rollup_plant_daily rows of the plants given up to date where a rating or membership changed since they
 * were written (rollup_plant_daily_stale, marked by migration 0013's device triggers): each such plant's every day
 * is recomputed from rollup_daily with the ratings of now, and its mark removed, in one transaction.
 */
export async function refreshStalePlants(db: Db, pg: boolean, plantUids: string[]): Promise<string[]> {
  if (!plantUids.length) return [];
  // The marks are few (one row per plant at most, taken off by the next reader): read them all, not the list given.
  const asked = new Set(plantUids);
  const uids = (await db.selectFrom("rollup_plant_daily_stale").select("plant_uid").execute())
    .map((s) => s.plant_uid)
    .filter((u) => asked.has(u));
  if (!uids.length) return [];
  return db.transaction().execute(async (trx) => {
    if (pg) await lockPlants(trx, sql`select uid as plant_uid from plant where uid in (${sql.join(uids)})`);
    // Taken off first: a rating edited while this runs marks the plant again, for the next reader.
    const taken = (
      await trx.deleteFrom("rollup_plant_daily_stale").where("plant_uid", "in", uids).returning("plant_uid").execute()
    ).map((r) => r.plant_uid);
    await rebuildPlantDaily(trx, -(2 ** 52), 2 ** 52, taken);
    return taken;
  });
}

/**
 * The fleet ranking's sums per plant (domain/performance.ts PerformanceSums): the per-bucket terms of each plant-day
 * are kept in rollup_plant_daily (api/telemetry/rollups.ts plantDailySql, written by the rollup writer), so 1,000
 * plants × a month are one range per plant added up, 1,000 rows back, without reading each device's daily row.
 * tests/api/measurement-diagnose.test.ts checks the ranking against generate's figures for the same plant and day.
 * Call refreshStalePlants first.
 */
export async function fleetSums(db: Db, plantUids: string[], from: number, to: number): Promise<Map<string, PerformanceSums>> {
  const out = new Map<string, PerformanceSums>();
  for (let i = 0; i < plantUids.length; i += FLEET_CHUNK) {
    const rows = await db
      .selectFrom("rollup_plant_daily")
      .select((eb) => [
        "plant_uid",
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>("dropped").as("dropped"),
        eb.fn.sum<number>("kept").as("kept"),
        eb.fn.sum<number>("energy").as("energy"),
        eb.fn.sum<number>("expected").as("expected"),
        eb.fn.sum<number>("yref").as("yref"),
        eb.fn.sum<number>("corrw").as("corrw"),
      ])
      .where("plant_uid", "in", plantUids.slice(i, i + FLEET_CHUNK))
      .where("day_ts", ">=", from)
      .where("day_ts", "<", to)
      .groupBy("plant_uid")
      .execute();
    for (const r of rows) {
      out.set(r.plant_uid, {
        energy: Number(r.energy ?? 0),
        expected: Number(r.expected ?? 0),
        yieldRefWeighted: Number(r.yref ?? 0),
        corrWeighted: Number(r.corrw ?? 0),
        clipping: 0,
        dropped: Number(r.dropped ?? 0),
        total: Number(r.total),
        kept: Number(r.kept ?? 0),
        noIrradiance: 0,
      });
    }
  }
  return out;
}

/**
 * Plants' capacity (kW), names, and how many of their inverters carry a rating now, for the ranking: one query per
 * FLEET_CHUNK plants (the plant rows joined with their inverters and counted; it was a grouped subquery joined back,
 * with the plant list twice, per 400 plants — PostgreSQL spent more time planning the lists than running it).
 */
export async function plantsFor(db: Db, plantUids: string[]): Promise<RankingPlant[]> {
  const rows = await chunked(
    plantUids,
    (part) =>
      db
        .selectFrom("plant")
        .leftJoin("device", (j) => j.onRef("device.plant_uid", "=", "plant.uid").on("device.kind", "=", 1))
        .select((e) => [
          "plant.uid",
          "plant.name",
          "plant.capa",
          e.fn.count<number>("device.uid").as("n"),
          e.fn.count<number>(e.case().when("device.capa", ">", 0).then(1).end()).as("rated"),
        ])
        .where("plant.uid", "in", part)
        .groupBy(["plant.uid", "plant.name", "plant.capa"])
        .execute(),
    FLEET_CHUNK,
  );
  return rows.map((r) => ({
    uid: r.uid,
    name: r.name,
    capacityKw: capacityKw(Number(r.capa)),
    inverters: Number(r.n ?? 0),
    ratedInverters: Number(r.rated ?? 0),
  }));
}

/** The member's remembered first comparison selection (SPEC §4). */
export async function rememberedSelection(db: Db, memberId: string) {
  const r = await db.selectFrom("compare_selection").selectAll().where("member_id", "=", memberId).executeTakeFirst();
  return r ? { uids: r.device_uids.split(",").filter(Boolean), kind: Number(r.kind), type: r.data_type } : null;
}

/** Keeps the first selection only: a later one is answered but does not replace it. */
export async function rememberFirstSelection(db: Db, memberId: string, uids: string[], kind: number, type: string, now: number) {
  await db
    .insertInto("compare_selection")
    .values({ member_id: memberId, device_uids: uids.join(","), kind, data_type: type, created_at: now })
    .onConflict((oc) => oc.column("member_id").doNothing())
    .execute();
}

export async function forgetSelection(db: Db, memberId: string) {
  await db.deleteFrom("compare_selection").where("member_id", "=", memberId).execute();
}

/**
 * The availability grid of a plant's inverters over [from, to) (domain/analytics/availability.ts): steps of
 * `stepMinutes` (10: raw rows, 60: rollup_hourly), the plant's plane-of-array irradiance and module temperature (mean
 * over its sensors that measured), and per inverter its power (raw: the reading; hourly: the hour's energy, i.e. its
 * mean power) and energy counter (hourly: the hour's highest). No row = null, a gap for the domain to judge.
 */
export async function availabilityGrid(
  db: Db,
  plantUid: string,
  inverters: readonly { uid: string; capacityKw: number }[],
  from: number,
  to: number,
  stepMinutes: 10 | 60,
): Promise<Omit<AvailabilityInput, "exclusions" | "k">> {
  const stepMs = stepMinutes * 60_000;
  const steps: number[] = [];
  for (let t = bucketOf(from, stepMinutes); t < to; t += stepMs) if (t >= from) steps.push(t);
  const index = new Map(steps.map((t, i) => [t, i]));
  const n = steps.length;
  const uids = inverters.map((i) => i.uid);
  const power = new Map(uids.map((u) => [u, new Array<number | null>(n).fill(null)]));
  const counter = new Map(uids.map((u) => [u, new Array<number | null>(n).fill(null)]));
  const sensors = db.selectFrom("device as s").select("s.uid").where("s.plant_uid", "=", plantUid).where("s.kind", "=", 4);
  const g = new Array<number>(n).fill(0);
  const gn = new Array<number>(n).fill(0);
  const tm = new Array<number>(n).fill(0);
  const tn = new Array<number>(n).fill(0);
  const put = (uid: string, t: number, kw: number | null, kwh: number | null) => {
    const i = index.get(t);
    if (i === undefined) return;
    if (kw !== null) power.get(uid)![i] = kw;
    if (kwh !== null) counter.get(uid)![i] = Math.max(counter.get(uid)![i] ?? -Infinity, kwh);
  };
  const env = (t: number, poa: number | null, temp: number | null) => {
    const i = index.get(t);
    if (i === undefined || poa === null) return;
    g[i]! += poa;
    gn[i]!++;
    if (temp !== null) {
      tm[i]! += temp;
      tn[i]!++;
    }
  };
  if (stepMinutes === 10) {
    const rows = await chunked(uids, (part) =>
      db
        .selectFrom("m_inverter")
        .select(["device_uid", "ts", "iw", "total_wh"])
        .where("device_uid", "in", part)
        .where("ts", ">=", from)
        .where("ts", "<", to)
        .execute(),
    );
    for (const r of rows) {
      const w = num(r.iw);
      const wh = num(r.total_wh);
      put(r.device_uid, bucketOf(Number(r.ts), 10), w === null ? null : w / 1000, wh === null ? null : wh / 1000);
    }
    const e = await db
      .selectFrom("m_env")
      .select(["ts", "iis", "sts"])
      .where("device_uid", "in", sensors)
      .where("ts", ">=", from)
      .where("ts", "<", to)
      .execute();
    for (const r of e) env(bucketOf(Number(r.ts), 10), num(r.iis), num(r.sts));
  } else {
    const rows = await chunked(uids, (part) =>
      db
        .selectFrom("rollup_hourly")
        .select(["device_uid", "hour_ts", "energy_wh", "max_total_wh"])
        .where("device_uid", "in", part)
        .where("hour_ts", ">=", from)
        .where("hour_ts", "<", to)
        .execute(),
    );
    for (const r of rows) {
      const wh = num(r.energy_wh);
      const total = num(r.max_total_wh);
      put(r.device_uid, Number(r.hour_ts), wh === null ? null : wh / 1000, total === null ? null : total / 1000);
    }
    const e = await db
      .selectFrom("rollup_hourly")
      .select(["hour_ts", "iis_wh", "iis_sts_wh"])
      .where("device_uid", "in", sensors)
      .where("hour_ts", ">=", from)
      .where("hour_ts", "<", to)
      .execute();
    for (const r of e) {
      const h = num(r.iis_wh);
      const ht = num(r.iis_sts_wh);
      env(Number(r.hour_ts), h, h !== null && ht !== null && h > 0 ? ht / h : null);
    }
  }
  return {
    steps,
    stepHours: stepMinutes / 60,
    poaWm2: g.map((x, i) => (gn[i] ? x / gn[i]! : null)),
    moduleC: tm.map((x, i) => (tn[i] ? x / tn[i]! : null)),
    inverters: inverters.map((i) => ({
      id: i.uid,
      capacityKw: i.capacityKw,
      powerKw: power.get(i.uid)!,
      counterKwh: counter.get(i.uid)!,
    })),
  };
}

/**
 * The fleet ranking's availability per plant: domain/analytics/availability.ts plantAvailability (the one definition,
 * as on /diagnose's availability panel at an hour's step) over each plant's rated inverters' hourly grid (the columns
 * it needs of rollup_hourly, availabilityGrid) with the plant's exclusions (`exclusionsOf`, e.g. curtailment orders).
 * Bounded: a plant out of availabilityWithinBounds, or past AVAILABILITY_FLEET_MAX_INVERTER_STEPS for the whole
 * ranking, gets none (the screen shows "–"). One query for the inverters, two per plant.
 */
export async function fleetAvailability(
  db: Db,
  plantUids: string[],
  from: number,
  to: number,
  exclusionsOf: (plantUid: string) => readonly Exclusion[] = () => [],
): Promise<Map<string, { availability: number | null; coverage: number | null }>> {
  const out = new Map<string, { availability: number | null; coverage: number | null }>();
  if (!plantUids.length || !(to > from)) return out;
  const rows = await chunked(
    plantUids,
    (part) =>
      db
        .selectFrom("device")
        .select(["uid", "plant_uid", "capa"])
        .where("plant_uid", "in", part)
        .where("kind", "=", 1)
        .where("capa", ">", 0)
        .orderBy("uid")
        .execute(),
    FLEET_CHUNK,
  );
  const byPlant = new Map<string, { uid: string; capacityKw: number }[]>();
  for (const r of rows) {
    let list = byPlant.get(r.plant_uid!);
    if (!list) byPlant.set(r.plant_uid!, (list = []));
    list.push({ uid: r.uid, capacityKw: capacityKw(Number(r.capa)) });
  }
  let budget = AVAILABILITY_FLEET_MAX_INVERTER_STEPS;
  const hours = Math.ceil((to - from) / 3_600_000);
  for (const plantUid of plantUids) {
    const inverters = byPlant.get(plantUid);
    if (!inverters?.length || !availabilityWithinBounds(to - from, inverters.length, 60)) continue;
    budget -= hours * inverters.length;
    if (budget < 0) break;
    const grid = await availabilityGrid(db, plantUid, inverters, from, to, 60);
    const a = plantAvailability({ ...grid, exclusions: exclusionsOf(plantUid) });
    out.set(plantUid, { availability: a.time.availability, coverage: a.time.coverage });
  }
  return out;
}
