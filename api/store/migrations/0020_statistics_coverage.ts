import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Irradiance coverage of the integrated report's plant-days (issue 26: PR of 125–430 % for plants whose sensor had
 * a communication fault — a day's energy against the irradiance of the hours the sensor measured). The rows of
 * rollup_plant_stat_daily carry the steps behind the coverage (domain/performance.ts bucketCoverage): run_n, the
 * producing steps of the plant's inverters, summed, and lit_n, the lit steps of its sensors, mean over those that
 * measured. Every plant is marked stale, so its rows are recomputed with them when a report first needs them.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const real = dialect === "postgres" ? "double precision" : "real";
  await db.schema.alterTable("rollup_plant_stat_daily").addColumn("run_n", real).execute();
  await db.schema.alterTable("rollup_plant_stat_daily").addColumn("lit_n", real).execute();
  await sql`insert into rollup_plant_stat_stale (plant_uid) select uid from plant
    where uid not in (select plant_uid from rollup_plant_stat_stale)`.execute(db);
}
