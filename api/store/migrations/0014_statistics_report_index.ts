import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Statistics reports (issue 16 benchmark): the daily and monthly reports read `rollup_daily` by device and day
 * (api/store/statistics.ts: inverters' samples, energy_wh, max_w; sensors' samples, iis_wh, his_wh, avg_sts,
 * avg_ats). The primary key (device_uid, day_ts) finds the rows but every row was then a table lookup (a
 * year of a hundred inverters: 40,150 of them). This index holds every column those queries read, so they are
 * index-only: on PostgreSQL the values ride along as INCLUDE columns, on SQLite (no INCLUDE) they follow the key.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`create index rollup_daily_statistics_idx on rollup_daily (device_uid, day_ts)
      include (samples, energy_wh, max_w, iis_wh, his_wh, avg_sts, avg_ats)`.execute(db);
    return;
  }
  await db.schema
    .createIndex("rollup_daily_statistics_idx")
    .on("rollup_daily")
    .columns(["device_uid", "day_ts", "samples", "energy_wh", "max_w", "iis_wh", "his_wh", "avg_sts", "avg_ats"])
    .execute();
}
