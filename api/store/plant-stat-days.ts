/**
 * The integrated statistics report's per-plant days (migration 0016, rollup_plant_stat_daily): per plant and day,
 * the answer of the report's own per-plant statements at unit day (api/store/statistics.ts plantInverterStepsSql,
 * plantEnvStepsSql) over every inverter and sensor the plant has. So a one-year daily report of ten plants reads
 * 3,650 kept rows instead of summing 36,500 inverter-days, and answers the same numbers.
 *
 * Written by the rollup writer (api/telemetry/writer.ts) after a batch's daily rollups, in its transaction, for the
 * plants and days the batch touched; by a bulk rollup rebuild for every plant; and, for a plant marked stale
 * (a device added, removed, moved or of another kind — migration 0016's triggers — or daily rollups imported),
 * over all its days before a report reads it (refreshPlantStatDays).
 *
 * One sequence of statements (`steps`) serves both ways of running it: synchronously inside the SQLite writer's
 * better-sqlite3 transaction, and through Kysely (PostgreSQL writer, rebuilds, the stale refresh).
 */
import { PostgresAdapter, sql, type CompiledQuery, type Kysely } from "kysely";
import { preparedStatements, type Store } from "./db";
import type { Database } from "./schema";
import { DEVICE_KIND } from "../../domain/device";
import { plantEnvStepsSql, plantInverterStepsSql, type PlantAgg, type PlantEnvAgg } from "./statistics";

type Db = Kysely<Database>;

/** Which plants to recompute: those of some devices, the ones named, or every plant. */
export type PlantStatTarget = { devices: string[] } | { plants: string[] } | "all";

/** Second key of a plant's lock while its rollup_plant_stat_daily rows are recomputed (PostgreSQL; "PSD"). */
const PLANT_STAT_LOCK_CLASS = 0x505344;

/** Whole time, as a day range. */
const ALL_DAYS: readonly [number, number] = [-(2 ** 52), 2 ** 52];

const INSERT_ROWS = 500;

/**
 * The statements recomputing the target plants' rows over the days [dayFrom, dayTo), one at a time: each yield hands
 * out a statement and takes back its rows (an empty list for a statement that returns none).
 */
function* steps(
  db: Db,
  pg: boolean,
  target: PlantStatTarget,
  dayFrom: number,
  dayTo: number,
): Generator<CompiledQuery, void, unknown[]> {
  const plantsQuery =
    target === "all"
      ? db.selectFrom("plant").select("uid as plant_uid")
      : "plants" in target
        ? db
            .selectFrom("plant")
            .select("uid as plant_uid")
            .where("uid", "in", target.plants.length ? target.plants : [""])
        : db
            .selectFrom("device")
            .select("plant_uid")
            .distinct()
            .where("uid", "in", target.devices.length ? target.devices : [""])
            .where("plant_uid", "is not", null);
  const plants = ((yield plantsQuery.compile()) as Array<{ plant_uid: string }>).map((r) => r.plant_uid).sort();
  if (!plants.length) return;
  for (let i = 0; i < plants.length; i += 500) {
    const part = plants.slice(i, i + 500);
    // A plant's RTUs write side by side: its days are recomputed one transaction at a time (in uid order: no deadlock).
    if (pg)
      yield sql`select pg_advisory_xact_lock(${PLANT_STAT_LOCK_CLASS}, hashtext(u.p)) from unnest(${part}::text[]) as u(p)`.compile(
        db,
      );
    const devices = (yield db
      .selectFrom("device")
      .select(["uid", "plant_uid", "kind"])
      .where("plant_uid", "in", part)
      .where("kind", "in", [DEVICE_KIND.inverter, DEVICE_KIND.environmentSensor])
      .orderBy("uid")
      .compile()) as Array<{ uid: string; plant_uid: string; kind: number }>;
    yield db
      .deleteFrom("rollup_plant_stat_daily")
      .where("plant_uid", "in", part)
      .where("day_ts", ">=", dayFrom)
      .where("day_ts", "<", dayTo)
      .compile();
    const period = { start: dayFrom, end: dayTo };
    const rows = new Map<string, Database["rollup_plant_stat_daily"]>();
    const row = (plant: string, day: number) => {
      const key = `${plant}|${day}`;
      let r = rows.get(key);
      if (!r)
        rows.set(
          key,
          (r = {
            plant_uid: plant,
            day_ts: day,
            inv_n: null,
            energy_wh: null,
            max_w: null,
            sensors: 0,
            iis_wh: null,
            run_n: null,
            lit_n: null,
          }),
        );
      return r;
    };
    for (const plant of part) {
      const mine = devices.filter((d) => d.plant_uid === plant);
      const invs = mine.filter((d) => Number(d.kind) === DEVICE_KIND.inverter).map((d) => d.uid);
      const envs = mine.filter((d) => Number(d.kind) === DEVICE_KIND.environmentSensor).map((d) => d.uid);
      if (invs.length) {
        for (const a of (yield plantInverterStepsSql(plant, invs, period, "day", []).compile(db)) as PlantAgg[]) {
          const r = row(plant, Number(a.b));
          r.inv_n = Number(a.n);
          r.energy_wh = a.energy_wh === null ? null : Number(a.energy_wh);
          r.max_w = a.max_w === null ? null : Number(a.max_w);
          r.run_n = a.run_n === null ? null : Number(a.run_n);
        }
      }
      if (envs.length) {
        for (const s of (yield plantEnvStepsSql(plant, envs, period, "day", []).compile(db)) as PlantEnvAgg[]) {
          const r = row(plant, Number(s.b));
          r.sensors = Number(s.sensors);
          r.iis_wh = Number(s.iis_wh);
          r.lit_n = s.lit_n === null ? null : Number(s.lit_n);
        }
      }
    }
    const all = [...rows.values()];
    for (let k = 0; k < all.length; k += INSERT_ROWS) {
      yield db
        .insertInto("rollup_plant_stat_daily")
        .values(all.slice(k, k + INSERT_ROWS))
        .compile();
    }
  }
}

/** Runs `steps` through Kysely (inside the caller's transaction when `db` is one). */
export async function writePlantStatDays(db: Db, target: PlantStatTarget, dayFrom: number, dayTo: number) {
  const it = steps(db, db.getExecutor().adapter instanceof PostgresAdapter, target, dayFrom, dayTo);
  for (let r = it.next(); !r.done;) {
    const res = await db.executeQuery(r.value);
    r = it.next(res.rows as unknown[]);
  }
}

/** Prepared statements of the synchronous form, by text (the shapes repeat: one per plant's device count). */
const prepared = preparedStatements({ max: 256 });

/** Runs `steps` on the SQLite store synchronously: for the writer's better-sqlite3 transaction. */
export function writePlantStatDaysSync(store: Store, target: PlantStatTarget, dayFrom: number, dayTo: number) {
  const sqlite = store.sqlite!;
  const it = steps(store.db, false, target, dayFrom, dayTo);
  for (let r = it.next(); !r.done;) {
    const stmt = prepared(sqlite, r.value.sql);
    const params = r.value.parameters as unknown[];
    r = it.next(stmt.reader ? stmt.all(params) : (stmt.run(params), []));
  }
}

/** Recomputes every plant's rows over [dayFrom, dayTo) (a bulk rollup rebuild), in the caller's transaction. */
export function rebuildPlantStatDays(trx: Db, dayFrom: number, dayTo: number) {
  return writePlantStatDays(trx, "all", dayFrom, dayTo);
}

/**
 * Brings the rows of the plants given up to date where they are marked stale: each such plant's every day is
 * recomputed and its mark removed, one plant per transaction (SQLite's write lock is let go between plants). A
 * device change made while this runs marks the plant again. The first report after migration 0016 (every plant
 * marked) pays for its plants' whole history here.
 */
export async function refreshPlantStatDays(db: Db, plantUids: string[]): Promise<void> {
  const stale: string[] = [];
  for (let i = 0; i < plantUids.length; i += 500) {
    const part = plantUids.slice(i, i + 500);
    stale.push(
      ...(await db.selectFrom("rollup_plant_stat_stale").select("plant_uid").where("plant_uid", "in", part).execute()).map(
        (r) => r.plant_uid,
      ),
    );
  }
  for (const plant of stale) {
    await db.transaction().execute(async (trx) => {
      const taken = await trx
        .deleteFrom("rollup_plant_stat_stale")
        .where("plant_uid", "=", plant)
        .returning("plant_uid")
        .execute();
      if (taken.length) await writePlantStatDays(trx, { plants: [plant] }, ...ALL_DAYS);
    });
  }
}

/** Marks a plant's rows stale (daily rollups written straight in, as an import does). */
export async function markPlantStatStale(db: Db, plantUid: string): Promise<void> {
  await db
    .insertInto("rollup_plant_stat_stale")
    .values({ plant_uid: plantUid })
    .onConflict((oc) => oc.column("plant_uid").doNothing())
    .execute();
}
