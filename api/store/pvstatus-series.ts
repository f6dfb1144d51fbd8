/**
 * Today's series of plants as the Raw plant generation record of SPEC §3 carries them: comma-separated
 * strings, one value per timestamp — `days` (generation, kW, the plant's inverters summed), `his`/`iis`
 * (irradiance, W/m²) and `ats`/`sts` (temperatures, °C) from the plant's environment sensors (averaged
 * when there are several). Ten-minute series come from the raw rows of today; hourly ones from
 * rollup_hourly, shifted by one hour with the first entry skipped (SPEC §4 chart data handling).
 * Keys step 10 minutes (1 hour) and never go past now. Values are raw: sanitising (SPEC §5) is the
 * caller's job, through domain/sanitize.ts.
 */
import { sql, type Kysely } from "kysely";
import { formatSeries, shiftHourly, timeSeriesKeys, type SeriesResolution } from "../../domain/series";
import { DAY_MS, formatSeoul, HOUR_MS, seoulDayStart } from "../../domain/seoul-time";
import type { Database } from "./schema";

export interface RawPlantSeries {
  /** 'HH:mm' labels, comma-separated. */
  times: string;
  days: string;
  his: string;
  iis: string;
  ats: string;
  sts: string;
}

const CHUNK = 500;

interface Point {
  plant_uid: string;
  ts: number;
  v1: number | null;
  v2?: number | null;
  v3?: number | null;
  v4?: number | null;
}

/** Today's series per plant uid (plants without any reading get all-zero series of the same keys). */
export async function todaySeries(
  db: Kysely<Database>,
  plantUids: string[],
  now: number,
  resolution: SeriesResolution = "tenMinute",
): Promise<Map<string, RawPlantSeries>> {
  const out = new Map<string, RawPlantSeries>();
  if (!plantUids.length) return out;
  const day = seoulDayStart(now);
  const hourly = resolution === "hourly";
  // Hourly queries start one bucket early: that bucket is skipped again by the shift.
  const from = hourly ? day - HOUR_MS : day;
  const keys = timeSeriesKeys({ from, to: day + DAY_MS, resolution, now });
  const index = new Map(keys.map((k, i) => [k, i]));
  const gen = new Map<string, number[]>();
  const env = new Map<string, { his: number[]; iis: number[]; ats: number[]; sts: number[] }>();
  const blank = () => new Array<number>(keys.length).fill(0);

  for (let i = 0; i < plantUids.length; i += CHUNK) {
    const part = plantUids.slice(i, i + CHUNK);
    const [inv, sensors] = hourly ? await hourlyRows(db, part, from, now) : await tenMinuteRows(db, part, from, now);
    for (const r of inv) {
      const k = index.get(Number(r.ts));
      if (k === undefined) continue;
      let s = gen.get(r.plant_uid);
      if (!s) gen.set(r.plant_uid, (s = blank()));
      s[k] = Number(r.v1 ?? 0) / 1000;
    }
    for (const r of sensors) {
      const k = index.get(Number(r.ts));
      if (k === undefined) continue;
      let s = env.get(r.plant_uid);
      if (!s) env.set(r.plant_uid, (s = { his: blank(), iis: blank(), ats: blank(), sts: blank() }));
      s.his[k] = Number(r.v1 ?? 0);
      s.iis[k] = Number(r.v2 ?? 0);
      s.sts[k] = Number(r.v3 ?? 0);
      s.ats[k] = Number(r.v4 ?? 0);
    }
  }

  for (const uid of plantUids) {
    const g = gen.get(uid) ?? blank();
    const e = env.get(uid) ?? { his: blank(), iis: blank(), ats: blank(), sts: blank() };
    let times = keys;
    let series = [g, e.his, e.iis, e.ats, e.sts];
    if (hourly) ({ times, series } = shiftHourly(keys, ...series));
    const [days, his, iis, ats, sts] = series as [number[], number[], number[], number[], number[]];
    out.set(uid, {
      times: times.map((t) => formatSeoul(t, "HH:mm")).join(","),
      days: formatSeries(days, 3),
      his: formatSeries(his, 1),
      iis: formatSeries(iis, 1),
      ats: formatSeries(ats, 1),
      sts: formatSeries(sts, 1),
    });
  }
  return out;
}

async function tenMinuteRows(db: Kysely<Database>, part: string[], from: number, now: number): Promise<[Point[], Point[]]> {
  const inv = await db
    .selectFrom("m_inverter as m")
    .innerJoin("device as d", "d.uid", "m.device_uid")
    .select((eb) => ["d.plant_uid", "m.ts", eb.fn.sum<number>("m.iw").as("v1")])
    .where("d.plant_uid", "in", part)
    .where("d.kind", "=", 1)
    .where("d.use_yn", "=", 1)
    .where("m.ts", ">=", from)
    .where("m.ts", "<=", now)
    .groupBy(["d.plant_uid", "m.ts"])
    .execute();
  const sensors = await db
    .selectFrom("m_env as m")
    .innerJoin("device as d", "d.uid", "m.device_uid")
    .select((eb) => [
      "d.plant_uid",
      "m.ts",
      eb.fn.avg<number>("m.his").as("v1"),
      eb.fn.avg<number>("m.iis").as("v2"),
      eb.fn.avg<number>("m.sts").as("v3"),
      eb.fn.avg<number>("m.ats").as("v4"),
    ])
    .where("d.plant_uid", "in", part)
    .where("d.kind", "=", 4)
    .where("d.use_yn", "=", 1)
    .where("m.ts", ">=", from)
    .where("m.ts", "<=", now)
    .groupBy(["d.plant_uid", "m.ts"])
    .execute();
  return [inv as Point[], sensors as Point[]];
}

async function hourlyRows(db: Kysely<Database>, part: string[], from: number, now: number): Promise<[Point[], Point[]]> {
  const inv = await db
    .selectFrom("rollup_hourly as h")
    .innerJoin("device as d", "d.uid", "h.device_uid")
    // Average power over the hour, summed over inverters: kW after /1000 (= kWh of that hour).
    .select((eb) => ["d.plant_uid", "h.hour_ts as ts", eb.fn.sum<number>("h.avg_w").as("v1")])
    .where("d.plant_uid", "in", part)
    .where("h.kind", "=", 1)
    .where("d.use_yn", "=", 1)
    .where("h.hour_ts", ">=", from)
    .where("h.hour_ts", "<=", now)
    .groupBy(["d.plant_uid", "h.hour_ts"])
    .execute();
  // his_wh is Σ(his)/6 over the hour's samples: × 6 / samples is the hour's average W/m².
  const avgOf = (col: "his_wh" | "iis_wh") => sql<number>`avg(${sql.ref(`h.${col}`)} * 6.0 / nullif(h.samples, 0))`;
  const sensors = await db
    .selectFrom("rollup_hourly as h")
    .innerJoin("device as d", "d.uid", "h.device_uid")
    .select((eb) => [
      "d.plant_uid",
      "h.hour_ts as ts",
      avgOf("his_wh").as("v1"),
      avgOf("iis_wh").as("v2"),
      eb.fn.avg<number>("h.avg_sts").as("v3"),
      eb.fn.avg<number>("h.avg_ats").as("v4"),
    ])
    .where("d.plant_uid", "in", part)
    .where("h.kind", "=", 4)
    .where("d.use_yn", "=", 1)
    .where("h.hour_ts", ">=", from)
    .where("h.hour_ts", "<=", now)
    .groupBy(["d.plant_uid", "h.hour_ts"])
    .execute();
  return [inv as Point[], sensors as Point[]];
}
