import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Telemetry: 10-minute measurements per device kind keyed by (device, ts), a latest-value row
 * per device, hourly and daily rollups, fault codes, settings, and gateway commands.
 * On PostgreSQL the measurement tables are range-partitioned by ts (monthly partitions plus a
 * default one); TimescaleDB hypertables are used instead when that extension is installed.
 */
export const MEASUREMENT_TABLES = ["m_inverter", "m_env", "m_board", "m_breaker"] as const;

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  const big = pg ? "bigint" : "integer";
  const real = pg ? "double precision" : "real";
  const serial = pg ? "serial" : "integer";
  const seq = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const timescale = pg
    ? (await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'timescaledb'`.execute(db))
        .rows[0].n > 0
    : false;
  if (timescale) await sql`create extension if not exists timescaledb`.execute(db);

  const columns: Record<(typeof MEASUREMENT_TABLES)[number], Array<[string, string]>> = {
    // Inverter: DC/AC side, power factor, frequency, energy counters (Wh), fault.
    m_inverter: [
      ["dc_v", real],
      ["dc_a", real],
      ["dc_w", real],
      ["ac_v", real],
      ["ac_a", real],
      ["iw", real],
      ["pf", real],
      ["hz", real],
      ["today_wh", real],
      ["total_wh", real],
      ["fault_code", "integer"],
      ["fault_hex", "text"],
    ],
    // Environment sensor: horizontal and plane-of-array irradiance (W/m²), module and ambient temperature (°C).
    m_env: [
      ["his", real],
      ["iis", real],
      ["sts", real],
      ["ats", real],
    ],
    // Connection board: bus voltage and channel currents (comma-separated, A).
    m_board: [
      ["v", real],
      ["total_a", real],
      ["channels", "text"],
    ],
    // VCB (7) / ACB (8): line voltage (V), current (A), power (W), breaker state (1 closed), ground-fault current (mA).
    m_breaker: [
      ["v", real],
      ["a", real],
      ["w", real],
      ["pf", real],
      ["state", "integer"],
      ["gf_ma", real],
    ],
  };

  for (const table of MEASUREMENT_TABLES) {
    const cols = columns[table].map(([n, t]) => `${n} ${t}`).join(", ");
    // SQLite: WITHOUT ROWID keeps each row in its (device_uid, ts) key order — one B-tree write per reading, not two.
    const partition = pg && !timescale ? " partition by range (ts)" : pg ? "" : " without rowid";
    await sql
      .raw(
        `create table ${table} (device_uid text not null, ts ${big} not null, ${cols}, ` +
          `received_at ${big} not null, primary key (device_uid, ts))${partition}`,
      )
      .execute(db);
    if (timescale) {
      await sql.raw(`select create_hypertable('${table}', 'ts', chunk_time_interval => ${7 * 86_400_000}::bigint)`).execute(db);
    } else if (pg) {
      await sql.raw(`create table ${table}_default partition of ${table} default`).execute(db);
    }
  }

  await db.schema
    .createTable("device_latest")
    .addColumn("device_uid", "text", (c) => c.primaryKey().references("device.uid").onDelete("cascade"))
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("ts", big, (c) => c.notNull())
    .addColumn("received_at", big, (c) => c.notNull())
    .addColumn("iw", real)
    .addColumn("today_wh", real)
    .addColumn("total_wh", real)
    .addColumn("fault_code", "integer")
    .addColumn("his", real)
    .addColumn("iis", real)
    .addColumn("sts", real)
    .addColumn("ats", real)
    .addColumn("state", "integer")
    .addColumn("values_json", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("rollup_hourly")
    .addColumn("device_uid", "text", (c) => c.notNull())
    .addColumn("hour_ts", big, (c) => c.notNull())
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("samples", "integer", (c) => c.notNull())
    .addColumn("energy_wh", real)
    .addColumn("avg_w", real)
    .addColumn("max_w", real)
    .addColumn("his_wh", real)
    .addColumn("iis_wh", real)
    .addColumn("avg_sts", real)
    .addColumn("avg_ats", real)
    .addColumn("max_today_wh", real)
    .addColumn("max_total_wh", real)
    .addPrimaryKeyConstraint("rollup_hourly_pk", ["device_uid", "hour_ts"])
    .execute();

  await db.schema
    .createTable("rollup_daily")
    .addColumn("device_uid", "text", (c) => c.notNull())
    .addColumn("day_ts", big, (c) => c.notNull())
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("samples", "integer", (c) => c.notNull())
    .addColumn("energy_wh", real)
    .addColumn("max_w", real)
    .addColumn("his_wh", real)
    .addColumn("iis_wh", real)
    .addColumn("avg_sts", real)
    .addColumn("avg_ats", real)
    .addColumn("total_wh", real)
    .addPrimaryKeyConstraint("rollup_daily_pk", ["device_uid", "day_ts"])
    .execute();

  await db.schema
    .createTable("fault_code")
    .addColumn("code", "integer", (c) => c.primaryKey())
    .addColumn("hex", "text", (c) => c.notNull())
    .addColumn("name_ko", "text", (c) => c.notNull())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("level", "integer", (c) => c.notNull().defaultTo(3))
    .execute();

  await db.schema
    .createTable("setting")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();

  await db.schema
    .createTable("command")
    .addColumn("seq", serial, seq)
    .addColumn("rtu_uid", "text", (c) => c.notNull())
    .addColumn("device_uid", "text", (c) => c.notNull())
    .addColumn("device_type", "integer", (c) => c.notNull())
    .addColumn("ch", "integer", (c) => c.notNull())
    .addColumn("hex_on", "text")
    .addColumn("hex_off", "text")
    .addColumn("requested_by", "text", (c) => c.notNull())
    .addColumn("requested_at", big, (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("result", "text")
    .addColumn("completed_at", big)
    .execute();
  await db.schema.createIndex("command_device_idx").on("command").columns(["device_uid", "requested_at"]).execute();

  await db.schema.alterTable("rtu").addColumn("last_seen_at", big).execute();
  await db.schema.createIndex("alarm_code_idx").on("alarm").columns(["code", "released_at"]).execute();
  await db.schema.createIndex("alarm_raised_idx").on("alarm").column("raised_at").execute();
}
