import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Measurement and diagnosis, fleet ranking and a year's diagnosis (issue 15 benchmarks):
 *
 * - rollup_plant_daily: one row per plant and day with what the fleet EPI ranking needs (api/telemetry/rollups.ts
 *   plantDailySql describes the columns), kept by the rollup writer in the transaction that writes rollup_daily,
 *   so the ranking reads a plant-day row instead of every device's daily row joined with its device.
 * - rollup_plant_daily_stale: plants whose rows were computed with ratings, device memberships or coefficients
 *   (γ, η) that have changed since. Triggers mark them on any change of a device's rating, plant or kind, on a
 *   device's removal and on a change of the plant's coefficients, whichever code made it (the device form, an
 *   import, an RTU moved to another plant, a removal, PUT /diagnose/coefficients); the ranking recomputes a marked
 *   plant's rows before it reads them. A deleted plant's rows go with it.
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
    .addColumn("kept", "integer", (c) => c.notNull())
    .addColumn("dropped", "integer", (c) => c.notNull())
    .addColumn("energy", real, (c) => c.notNull())
    .addColumn("expected", real, (c) => c.notNull())
    .addColumn("yref", real, (c) => c.notNull())
    .addColumn("corrw", real, (c) => c.notNull())
    .addColumn("sunw", real, (c) => c.notNull())
    .addColumn("runw", real, (c) => c.notNull())
    .addColumn("downtime", real, (c) => c.notNull())
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
    await sql`create function rollup_plant_daily_mark_plant() returns trigger language plpgsql as $$
      begin
        insert into rollup_plant_daily_stale (plant_uid) values (new.uid) on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`create trigger plant_coefficients_changed after update of temp_coeff, system_factor on plant for each row
      when (old.temp_coeff is distinct from new.temp_coeff or old.system_factor is distinct from new.system_factor)
      execute function rollup_plant_daily_mark_plant()`.execute(db);
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
    await sql`create trigger plant_coefficients_changed after update of temp_coeff, system_factor on plant for each row
      when old.temp_coeff is not new.temp_coeff or old.system_factor is not new.system_factor
      begin
        insert or ignore into rollup_plant_daily_stale (plant_uid) values (new.uid);
      end`.execute(db);
  }

  await sql`insert into rollup_plant_daily (plant_uid, day_ts, inverters, kept, dropped, energy, expected, yref, corrw, sunw, runw, downtime)
    select z.plant_uid, z.day_ts, z.ni,
      case when z.e is not null and z.h is not null then 1 else 0 end,
      case when not (z.e is not null and z.h is not null) and (z.e is not null or coalesce(z.h, 0) > 0) then 1 else 0 end,
      case when z.e is not null and z.h is not null then z.e else 0 end,
      case when z.e is not null and z.h is not null then z.cap * z.corr * z.eta else 0 end,
      case when z.e is not null and z.h is not null then z.cap * z.h else 0 end,
      case when z.e is not null and z.h is not null then z.cap * z.corr else 0 end,
      case when z.e is not null and z.h is not null and z.sun > 0 then z.cap * z.sun else 0 end,
      case when z.e is not null and z.h is not null and z.sun > 0 then z.cap * z.run else 0 end,
      case when z.e is not null and z.h is not null and z.sun > 0 then z.cap * z.corr * z.eta * ((z.sun - z.run) / z.sun) else 0 end
    from (
      select y.plant_uid, y.day_ts, y.ni, y.e, y.cap, y.h, y.sun, coalesce(p.system_factor, 0.87) as eta,
        case when y.h is null then 0 when y.ht is null then y.h
          when y.h + coalesce(p.temp_coeff, -0.00415) * (y.ht - 25 * y.h) > 0 then y.h + coalesce(p.temp_coeff, -0.00415) * (y.ht - 25 * y.h)
          else 0 end as corr,
        case when y.lit > 0 then y.sun * (case when y.rr >= y.lit then 1 else y.rr / y.lit end) else 0 end as run
      from (
        select x.*, case when x.cap > 0 then x.caprun / x.cap else 0 end as rr
        from (
          select d.plant_uid, r.day_ts,
            count(case when r.kind = 1 and d.capa > 0 then 1 end) as ni,
            sum(case when r.kind = 1 and d.capa > 0 then r.energy_wh end) / 1000.0 as e,
            sum(case when r.kind = 1 and d.capa > 0 then d.capa end) / 100.0 as cap,
            sum(case when r.kind = 1 and d.capa > 0 then d.capa * coalesce(r.run_samples, 0) end) / 100.0 as caprun,
            avg(case when r.kind = 4 then r.iis_wh end) / 1000.0 as h,
            case when count(case when r.kind = 4 then r.iis_sts_wh end) = count(case when r.kind = 4 then r.iis_wh end)
              then avg(case when r.kind = 4 then r.iis_sts_wh end) / 1000.0 end as ht,
            cast(coalesce(round(avg(case when r.kind = 4 then r.sun_samples end)), 0) as double precision) as sun,
            cast(coalesce(round(avg(case when r.kind = 4 then r.lit_samples end)), 0) as double precision) as lit
          from rollup_daily r join device d on d.uid = r.device_uid
          where d.plant_uid is not null and r.kind in (1, 4)
          group by d.plant_uid, r.day_ts
        ) x
        where x.ni > 0
      ) y join plant p on p.uid = y.plant_uid
    ) z`.execute(db);
}
