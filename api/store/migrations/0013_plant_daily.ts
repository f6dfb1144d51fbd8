import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Measurement and diagnosis, fleet ranking and a year's diagnosis (issue 15 benchmarks):
 *
 * - rollup_plant_daily: one row per plant and day with what the fleet EPI ranking needs (api/telemetry/rollups.ts
 *   plantDailySql describes the columns), kept by the rollup writer in the transaction that writes rollup_daily,
 *   so the ranking reads a plant-day row instead of every device's daily row joined with its device.
 * - rollup_plant_daily_stale: plants whose rows were weighted by ratings (or device memberships) that have changed
 *   since. Triggers on device mark them on any change of an inverter's rating, plant or kind and on a delete,
 *   whichever code made it (the device form, an import, an RTU moved to another plant, a removal); the ranking
 *   recomputes a marked plant's rows before it reads them. A deleted plant's rows go with it.
 * - rollup_daily_diagnose_idx: POST /diagnose/generate at unit day groups a plant's inverter rows of a period by
 *   (day, run_samples, max_w ≥ rating share) and sums energy_wh: with these columns in the index the query is
 *   index-only instead of a primary-key probe plus a table row per inverter-day (36,500 for a 100-inverter year).
 *
 * The backfill below is this migration's own frozen copy of plantDailySql as it was written (a migration must keep
 * doing what it did when it shipped, whatever the writer's statement becomes later).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  const real = pg ? "double precision" : "real";
  await db.schema
    .createTable("rollup_plant_daily")
    .addColumn("plant_uid", "text", (c) => c.notNull())
    .addColumn("day_ts", pg ? "bigint" : "integer", (c) => c.notNull())
    .addColumn("inverters", "integer", (c) => c.notNull())
    .addColumn("energy_wh", real)
    .addColumn("capa", real)
    .addColumn("capa_run", real)
    .addColumn("iis_wh", real)
    .addColumn("iis_sts_wh", real)
    .addColumn("sun_samples", real)
    .addColumn("lit_samples", real)
    .addPrimaryKeyConstraint("rollup_plant_daily_pk", ["plant_uid", "day_ts"])
    .$call((b) => (pg ? b : b.modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema
    .createTable("rollup_plant_daily_stale")
    .addColumn("plant_uid", "text", (c) => c.primaryKey())
    .execute();
  await db.schema
    .createIndex("rollup_daily_diagnose_idx")
    .on("rollup_daily")
    .columns(["device_uid", "day_ts", "run_samples", "max_w", "energy_wh"])
    .execute();

  const changed = pg
    ? "old.capa is distinct from new.capa or old.plant_uid is distinct from new.plant_uid or old.kind is distinct from new.kind"
    : "old.capa is not new.capa or old.plant_uid is not new.plant_uid or old.kind is not new.kind";
  if (pg) {
    await sql`create function rollup_plant_daily_mark() returns trigger language plpgsql as $$
      begin
        if old.plant_uid is not null then
          insert into rollup_plant_daily_stale (plant_uid) values (old.plant_uid) on conflict do nothing;
        end if;
        if tg_op = 'UPDATE' and new.plant_uid is not null then
          insert into rollup_plant_daily_stale (plant_uid) values (new.plant_uid) on conflict do nothing;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger device_rating_changed after update of capa, plant_uid, kind on device for each row
      when (${sql.raw(changed)}) execute function rollup_plant_daily_mark()`.execute(db);
    await sql`create trigger device_removed after delete on device for each row execute function rollup_plant_daily_mark()`.execute(
      db,
    );
    await sql`create function rollup_plant_daily_drop() returns trigger language plpgsql as $$
      begin
        delete from rollup_plant_daily where plant_uid = old.uid;
        delete from rollup_plant_daily_stale where plant_uid = old.uid;
        return null;
      end $$`.execute(db);
    await sql`create trigger plant_removed after delete on plant for each row execute function rollup_plant_daily_drop()`.execute(
      db,
    );
  } else {
    await sql`create trigger device_rating_changed after update of capa, plant_uid, kind on device for each row
      when ${sql.raw(changed)}
      begin
        insert or ignore into rollup_plant_daily_stale (plant_uid) select old.plant_uid where old.plant_uid is not null;
        insert or ignore into rollup_plant_daily_stale (plant_uid) select new.plant_uid where new.plant_uid is not null;
      end`.execute(db);
    await sql`create trigger device_removed after delete on device for each row
      begin
        insert or ignore into rollup_plant_daily_stale (plant_uid) select old.plant_uid where old.plant_uid is not null;
      end`.execute(db);
    await sql`create trigger plant_removed after delete on plant for each row
      begin
        delete from rollup_plant_daily where plant_uid = old.uid;
        delete from rollup_plant_daily_stale where plant_uid = old.uid;
      end`.execute(db);
  }

  await sql`insert into rollup_plant_daily (plant_uid, day_ts, inverters, energy_wh, capa, capa_run, iis_wh, iis_sts_wh, sun_samples, lit_samples)
    select d.plant_uid, r.day_ts,
      count(case when r.kind = 1 and d.capa > 0 then 1 end),
      sum(case when r.kind = 1 and d.capa > 0 then r.energy_wh end),
      sum(case when r.kind = 1 and d.capa > 0 then d.capa end),
      sum(case when r.kind = 1 and d.capa > 0 then d.capa * coalesce(r.run_samples, 0) end),
      avg(case when r.kind = 4 then r.iis_wh end),
      case when count(case when r.kind = 4 then r.iis_sts_wh end) = count(case when r.kind = 4 then r.iis_wh end)
        then avg(case when r.kind = 4 then r.iis_sts_wh end) end,
      cast(coalesce(round(avg(case when r.kind = 4 then r.sun_samples end)), 0) as double precision),
      cast(coalesce(round(avg(case when r.kind = 4 then r.lit_samples end)), 0) as double precision)
    from rollup_daily r join device d on d.uid = r.device_uid
    where d.plant_uid is not null and r.kind in (1, 4)
    group by d.plant_uid, r.day_ts`.execute(db);
}
