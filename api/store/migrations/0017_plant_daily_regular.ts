import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * rollup_plant_daily.regular (issue 15, a year's diagnosis of a whole plant): 1 when every rated inverter's daily row
 * of that plant-day adds up with its siblings' into the row's terms — none without energy, none whose highest power
 * reaches 97.5 % of its rating (it may be clipping, which is not linear), none that produced in more steps than the
 * day was lit (the plant's sensors' lit steps, averaged and rounded) — so POST /diagnose/generate takes such a day
 * from the plant-day row and reads no inverter row (before, it grouped the inverter rows to find the irregular days).
 * The rollup writer keeps it (api/telemetry/rollups.ts plantDailySql); a rating edit already marks the plant stale.
 *
 * Existing rows are backfilled below with this migration's own frozen copy of the three tests as they were written.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("rollup_plant_daily")
    .addColumn("regular", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await backfillRegular(db);
}

/** Sets `regular` of every existing row from its rollup_daily rows (tests/api/measurement-diagnose.test.ts checks it against the writer). */
export async function backfillRegular(db: Kysely<any>): Promise<void> {
  await sql`update rollup_plant_daily set regular = coalesce((
      select case when max(case when r.kind = 1 and d.capa > 0 then
                case when r.energy_wh is null or r.max_w >= 9.75 * d.capa then 1 else 0 end end) = 0
          and not (coalesce(round(avg(case when r.kind = 4 then r.lit_samples end)), 0) > 0
            and coalesce(max(case when r.kind = 1 and d.capa > 0 then r.run_samples end), 0)
              > coalesce(round(avg(case when r.kind = 4 then r.lit_samples end)), 0))
        then 1 else 0 end
      from rollup_daily r join device d on d.uid = r.device_uid
      where d.plant_uid = rollup_plant_daily.plant_uid and r.day_ts = rollup_plant_daily.day_ts and r.kind in (1, 4)
    ), 0)`.execute(db);
}
