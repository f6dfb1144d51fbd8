/**
 * The status of plants as the status screens need it (SPEC §3 status rows, §4 status code):
 * current output, today's / this month's / this year's / lifetime generation, alarm counters.
 * Reads only latest values, daily rollups and open alarms, never raw history. Month and year
 * totals up to yesterday change once a day (or when late data arrives), so they are cached briefly.
 */
import { todayGeneration } from "../../domain/sanitize";
import { plausibleEnergyWh, plausiblePowerW } from "../../domain/physical-bounds";
import type { Kysely } from "kysely";
import type { PlantStatusRow } from "../../domain/contract/status";
import { NO_DATA_STATUS, plantStatusFromAlarms, type PlantStatus } from "../../domain/status";
import { DAY_MS, seoulDayStart, seoulMonthStart, seoulYearStart } from "../../domain/seoul-time";
import type { Database } from "./schema";

/** Current output counts only while the inverter's newest reading is this fresh. */
export const FRESH_MS = 30 * 60_000;

interface PastTotals {
  month: number;
  year: number;
  yesterday: number;
}

const CACHE_TTL_MS = 10 * 60_000;
const pastCache = new Map<string, { at: number; day: number; totals: PastTotals }>();

const CHUNK = 500;
function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

async function pastTotals(db: Kysely<Database>, plantUids: string[], today: number): Promise<Map<string, PastTotals>> {
  const result = new Map<string, PastTotals>();
  const missing: string[] = [];
  const wall = Date.now();
  for (const uid of plantUids) {
    const hit = pastCache.get(uid);
    if (hit && hit.day === today && wall - hit.at < CACHE_TTL_MS) result.set(uid, hit.totals);
    else missing.push(uid);
  }
  // Yesterday may belong to last month or year (the 1st): the CASEs count it only where it belongs.
  const monthStart = seoulMonthStart(today);
  const yearStart = seoulYearStart(today);
  const yesterday = today - DAY_MS;
  for (const part of chunks(missing)) {
    const rows = await db
      .selectFrom("rollup_daily")
      .innerJoin("device", "device.uid", "rollup_daily.device_uid")
      .select((eb) => [
        "device.plant_uid",
        eb.fn
          .sum<number>(
            eb.case().when("rollup_daily.day_ts", ">=", monthStart).then(eb.ref("rollup_daily.energy_wh")).else(0).end(),
          )
          .as("month"),
        eb.fn
          .sum<number>(
            eb.case().when("rollup_daily.day_ts", ">=", yearStart).then(eb.ref("rollup_daily.energy_wh")).else(0).end(),
          )
          .as("year"),
        eb.fn
          .sum<number>(eb.case().when("rollup_daily.day_ts", "=", yesterday).then(eb.ref("rollup_daily.energy_wh")).else(0).end())
          .as("yesterday"),
      ])
      .where("device.plant_uid", "in", part)
      .where("rollup_daily.kind", "=", 1)
      .where("rollup_daily.day_ts", ">=", Math.min(yearStart, yesterday))
      .where("rollup_daily.day_ts", "<", today)
      .groupBy("device.plant_uid")
      .execute();
    const found = new Map(rows.map((r) => [r.plant_uid!, r]));
    for (const uid of part) {
      const r = found.get(uid);
      const totals = { month: Number(r?.month ?? 0), year: Number(r?.year ?? 0), yesterday: Number(r?.yesterday ?? 0) };
      pastCache.set(uid, { at: wall, day: today, totals });
      result.set(uid, totals);
    }
  }
  return result;
}

export async function plantStatusRows(db: Kysely<Database>, plantUids: string[], now: number): Promise<PlantStatusRow[]> {
  return (await plantStatusEntries(db, plantUids, now)).map((e) => e.row);
}

/** A plant's status row and the time (clock ms) until which it holds unless the plant's data changes. */
export interface PlantStatusEntry {
  row: PlantStatusRow;
  /**
   * The next day (today's figures start again), the time its oldest fresh inverter reading stops counting towards the
   * current output (FRESH_MS), and the end of its past totals' cache, whichever comes first.
   */
  validUntil: number;
}

export async function plantStatusEntries(db: Kysely<Database>, plantUids: string[], now: number): Promise<PlantStatusEntry[]> {
  if (!plantUids.length) return [];
  const today = seoulDayStart(now);
  const plants = [];
  const live = new Map<
    string,
    { iw: number; dailys: number; accrue: number; lastTs: number | null; firstFreshTs: number | null; n: number }
  >();
  const alarms = new Map<string, Record<number, number>>();
  for (const part of chunks(plantUids)) {
    plants.push(...(await db.selectFrom("plant").selectAll().where("uid", "in", part).execute()));
    const inv = await db
      .selectFrom("device")
      .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
      .select((eb) => [
        "device.plant_uid",
        eb.fn
          .sum<number>(
            eb
              .case()
              .when("device_latest.ts", ">=", now - FRESH_MS)
              .then(eb.ref("device_latest.iw"))
              .else(0)
              .end(),
          )
          .as("iw"),
        eb.fn
          .sum<number>(eb.case().when("device_latest.ts", ">=", today).then(eb.ref("device_latest.today_wh")).else(0).end())
          .as("dailys"),
        eb.fn.sum<number>("device_latest.total_wh").as("accrue"),
        eb.fn.max<number>("device_latest.ts").as("lastTs"),
        eb.fn
          .min<number>(
            eb
              .case()
              .when("device_latest.ts", ">=", now - FRESH_MS)
              .then(eb.ref("device_latest.ts"))
              .end(),
          )
          .as("firstFreshTs"),
        eb.fn.count<number>("device.uid").as("n"),
      ])
      .where("device.plant_uid", "in", part)
      .where("device.kind", "=", 1)
      .where("device.use_yn", "=", 1)
      .groupBy("device.plant_uid")
      .execute();
    for (const r of inv) {
      live.set(r.plant_uid!, {
        iw: Number(r.iw ?? 0),
        dailys: Number(r.dailys ?? 0),
        accrue: Number(r.accrue ?? 0),
        lastTs: r.lastTs === null ? null : Number(r.lastTs),
        firstFreshTs: r.firstFreshTs === null ? null : Number(r.firstFreshTs),
        n: Number(r.n),
      });
    }
    const open = await db
      .selectFrom("alarm")
      .select((eb) => ["plant_uid", "code", eb.fn.countAll<number>().as("n")])
      .where("plant_uid", "in", part)
      .where("released_at", "is", null)
      .groupBy(["plant_uid", "code"])
      .execute();
    for (const a of open) {
      const m = alarms.get(a.plant_uid) ?? {};
      m[a.code] = Number(a.n);
      alarms.set(a.plant_uid, m);
    }
  }
  const past = await pastTotals(db, plantUids, today);
  const nextDay = today + DAY_MS;
  return plants.map((p): PlantStatusEntry => {
    const l = live.get(p.uid);
    const a = alarms.get(p.uid) ?? {};
    const t = past.get(p.uid) ?? { month: 0, year: 0, yesterday: 0 };
    const counters = {
      alarm_count: Object.values(a).reduce((s, n) => s + n, 0),
      alarm_1000001_count: a[1000001] ?? 0,
      alarm_1000003_count: a[1000003] ?? 0,
      alarm_1000004_count: a[1000004] ?? 0,
      alarm_1000006_count: a[1000006] ?? 0,
    };
    // SPEC §5 sanitising on read: a bad row stored before ingest had bounds reads as 0, not as a total.
    const iw = plausiblePowerW(l?.iw, p.capa);
    // SPEC §5 alarm rule, decided here once for every screen that shows today's generation.
    const gen = todayGeneration({ daily: plausibleEnergyWh(l?.dailys, p.capa, 24), alarmCount: counters.alarm_count, iw });
    const dailys = gen.dailys;
    const month = t.month + dailys;
    const year = t.year + dailys;
    // No reading ever: SPEC §4 "no data gives 0 with an empty name".
    const status: PlantStatus =
      l?.lastTs == null && !counters.alarm_count ? NO_DATA_STATUS : plantStatusFromAlarms({ ...counters, iw });
    const fresh = l?.firstFreshTs ?? null;
    const row: PlantStatusRow = {
      plant_uid: p.uid,
      name: p.name,
      alias: p.alias,
      capa: p.capa,
      locality: p.locality,
      node_seq: p.node_seq,
      lat: p.lat,
      lng: p.lng,
      iw,
      dailys,
      dailysZeroed: gen.zeroed,
      month: plausibleEnergyWh(month, p.capa, 24 * 31),
      year: plausibleEnergyWh(year, p.capa, 24 * 366),
      accrue: plausibleEnergyWh(l?.accrue, p.capa, 24 * 366 * 50),
      yesterday: plausibleEnergyWh(t.yesterday, p.capa, 24),
      lastTs: l?.lastTs ?? null,
      inverterCount: l?.n ?? 0,
      ...counters,
      ...status,
    };
    return { row, validUntil: Math.min(nextDay, fresh === null ? Infinity : fresh + FRESH_MS, now + CACHE_TTL_MS) };
  });
}
