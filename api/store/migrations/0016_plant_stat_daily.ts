import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * The integrated statistics report's per-plant days (issue 16 benchmark: a one-year daily report of 100 inverters
 * read 36,500 inverter-days and summed them per plant and day in a temporary B-tree on every computed call):
 *
 * - rollup_plant_stat_daily: one row per plant and day with the report's sums at unit day — its inverters'
 *   readings, energy and peaks (inv_n is null when no inverter of the plant has a row that day) and the mean daily
 *   irradiation of its sensors that measured (sensors = 0 when none did). Every device of kind inverter (1) or
 *   environment sensor (4) whose plant_uid is the plant counts, in use or not; the report reads a plant's rows only
 *   when its scope holds exactly those devices (api/store/statistics.ts plantReportChunks), else it sums
 *   rollup_daily itself. Kept by the rollup writer in the transaction that writes rollup_daily
 *   (api/store/plant-stat-days.ts, the same SQL as the report's own per-plant sums).
 * - rollup_plant_stat_stale: plants whose rows may count another set of devices than the plant has now. Triggers
 *   mark them when a device is added, removed, or changes plant or kind, whichever code did it; the report
 *   recomputes a marked plant's rows before reading them. A deleted plant's rows go with it.
 *
 * No backfill: every existing plant is marked, so its rows are computed when a report first needs them.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  const real = pg ? "double precision" : "real";
  await db.schema
    .createTable("rollup_plant_stat_daily")
    .addColumn("plant_uid", "text", (c) => c.notNull())
    .addColumn("day_ts", pg ? "bigint" : "integer", (c) => c.notNull())
    .addColumn("inv_n", pg ? "bigint" : "integer")
    .addColumn("energy_wh", real)
    .addColumn("max_w", real)
    .addColumn("sensors", "integer", (c) => c.notNull())
    .addColumn("iis_wh", real)
    .addPrimaryKeyConstraint("rollup_plant_stat_daily_pk", ["plant_uid", "day_ts"])
    .$call((b) => (pg ? b : b.modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema
    .createTable("rollup_plant_stat_stale")
    .addColumn("plant_uid", "text", (c) => c.primaryKey())
    .execute();

  const changed = pg
    ? "old.plant_uid is distinct from new.plant_uid or old.kind is distinct from new.kind"
    : "old.plant_uid is not new.plant_uid or old.kind is not new.kind";
  if (pg) {
    await sql`create function rollup_plant_stat_mark() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.plant_uid is not null then
          insert into rollup_plant_stat_stale (plant_uid) values (old.plant_uid) on conflict do nothing;
        end if;
        if tg_op <> 'DELETE' and new.plant_uid is not null then
          insert into rollup_plant_stat_stale (plant_uid) values (new.plant_uid) on conflict do nothing;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger device_stat_added after insert on device for each row execute function rollup_plant_stat_mark()`.execute(
      db,
    );
    await sql`create trigger device_stat_moved after update of plant_uid, kind on device for each row
      when (${sql.raw(changed)}) execute function rollup_plant_stat_mark()`.execute(db);
    await sql`create trigger device_stat_removed after delete on device for each row execute function rollup_plant_stat_mark()`.execute(
      db,
    );
    await sql`create function rollup_plant_stat_drop() returns trigger language plpgsql as $$
      begin
        delete from rollup_plant_stat_daily where plant_uid = old.uid;
        delete from rollup_plant_stat_stale where plant_uid = old.uid;
        return null;
      end $$`.execute(db);
    await sql`create trigger plant_stat_removed after delete on plant for each row execute function rollup_plant_stat_drop()`.execute(
      db,
    );
  } else {
    await sql`create trigger device_stat_added after insert on device for each row
      begin
        insert or ignore into rollup_plant_stat_stale (plant_uid) select new.plant_uid where new.plant_uid is not null;
      end`.execute(db);
    await sql`create trigger device_stat_moved after update of plant_uid, kind on device for each row
      when ${sql.raw(changed)}
      begin
        insert or ignore into rollup_plant_stat_stale (plant_uid) select old.plant_uid where old.plant_uid is not null;
        insert or ignore into rollup_plant_stat_stale (plant_uid) select new.plant_uid where new.plant_uid is not null;
      end`.execute(db);
    await sql`create trigger device_stat_removed after delete on device for each row
      begin
        insert or ignore into rollup_plant_stat_stale (plant_uid) select old.plant_uid where old.plant_uid is not null;
      end`.execute(db);
    await sql`create trigger plant_stat_removed after delete on plant for each row
      begin
        delete from rollup_plant_stat_daily where plant_uid = old.uid;
        delete from rollup_plant_stat_stale where plant_uid = old.uid;
      end`.execute(db);
  }
  await sql`insert into rollup_plant_stat_stale (plant_uid) select uid from plant`.execute(db);
}
