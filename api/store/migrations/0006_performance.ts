import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Measurement and diagnosis (issue 15): what the IEC 61724-1 figures need from the rollups, so a year's
 * diagnosis reads daily rows instead of 10-minute ones, and the per-plant coefficients of the reference.
 *
 * - rollup_hourly / rollup_daily: `iis_sts_wh` = Σ POA·T_module·τ (Wh/m²·°C): the temperature correction
 *   C = 1 + γ(T − 25) is linear in T, so this sum keeps Σ G·C·τ exact at any bucket size;
 *   `sun_samples` (environment sensors: steps with POA > 100 W/m², the availability rule),
 *   `lit_samples` (steps with POA ≥ 20 W/m², when an inverter starts) and `run_samples` (inverters: steps
 *   with output > 0). Existing rows are filled from the raw rows they summarise.
 * - plant: `temp_coeff` (γ, per °C) and `system_factor` (η); null = the SPEC's −0.00415 and 0.87.
 * - compare_selection: each member's first comparison selection (SPEC §4), reused by later requests that
 *   give only a period and unit. In the store, not a cookie, so it follows the member to every device.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const real = dialect === "postgres" ? "double precision" : "real";
  for (const table of ["rollup_hourly", "rollup_daily"]) {
    await db.schema.alterTable(table).addColumn("iis_sts_wh", real).execute();
    await db.schema.alterTable(table).addColumn("sun_samples", "integer").execute();
    await db.schema.alterTable(table).addColumn("lit_samples", "integer").execute();
    await db.schema.alterTable(table).addColumn("run_samples", "integer").execute();
  }
  await db.schema.alterTable("plant").addColumn("temp_coeff", real).execute();
  await db.schema.alterTable("plant").addColumn("system_factor", real).execute();
  await db.schema
    .createTable("compare_selection")
    .addColumn("member_id", "text", (c) => c.primaryKey().references("member.id").onDelete("cascade"))
    .addColumn("device_uids", "text", (c) => c.notNull())
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("data_type", "text", (c) => c.notNull())
    .addColumn("created_at", dialect === "postgres" ? "bigint" : "integer", (c) => c.notNull())
    .execute();

  await sql`update rollup_hourly set
      iis_sts_wh = (select sum(e.iis * e.sts) / 6.0 from m_env e where e.device_uid = rollup_hourly.device_uid and e.ts >= rollup_hourly.hour_ts and e.ts < rollup_hourly.hour_ts + 3600000),
      sun_samples = (select count(*) from m_env e where e.device_uid = rollup_hourly.device_uid and e.ts >= rollup_hourly.hour_ts and e.ts < rollup_hourly.hour_ts + 3600000 and e.iis > 100),
      lit_samples = (select count(*) from m_env e where e.device_uid = rollup_hourly.device_uid and e.ts >= rollup_hourly.hour_ts and e.ts < rollup_hourly.hour_ts + 3600000 and e.iis >= 20)
    where kind = 4`.execute(db);
  await sql`update rollup_hourly set
      run_samples = (select count(*) from m_inverter m where m.device_uid = rollup_hourly.device_uid and m.ts >= rollup_hourly.hour_ts and m.ts < rollup_hourly.hour_ts + 3600000 and m.iw > 0)
    where kind = 1`.execute(db);
  await sql`update rollup_daily set
      iis_sts_wh = (select sum(h.iis_sts_wh) from rollup_hourly h where h.device_uid = rollup_daily.device_uid and h.hour_ts >= rollup_daily.day_ts and h.hour_ts < rollup_daily.day_ts + 86400000),
      sun_samples = (select sum(h.sun_samples) from rollup_hourly h where h.device_uid = rollup_daily.device_uid and h.hour_ts >= rollup_daily.day_ts and h.hour_ts < rollup_daily.day_ts + 86400000),
      lit_samples = (select sum(h.lit_samples) from rollup_hourly h where h.device_uid = rollup_daily.device_uid and h.hour_ts >= rollup_daily.day_ts and h.hour_ts < rollup_daily.day_ts + 86400000),
      run_samples = (select sum(h.run_samples) from rollup_hourly h where h.device_uid = rollup_daily.device_uid and h.hour_ts >= rollup_daily.day_ts and h.hour_ts < rollup_daily.day_ts + 86400000)
    where kind in (1, 4)`.execute(db);
}
