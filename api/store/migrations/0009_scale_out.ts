import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Scale-out (several servers on one PostgreSQL):
 * - `cluster_lease`: one row per singleton job (alarm engine, rollup and partition maintenance, the
 *   simulator, …). The owner holds a PostgreSQL advisory lock; the row says who owns it, since when, and
 *   carries a fencing token (raised at every takeover) and the job's checkpoint, which is written only
 *   while the token is still the current one.
 * - One open alarm per condition: a unique partial index over the alarm key (code, plant, device or RTU)
 *   of the rows not yet released, so two evaluations racing (an old owner that has not noticed it lost its
 *   lease, say) cannot raise the same alarm twice. Duplicates an earlier run may have left open are
 *   released first (the oldest stays open).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("cluster_lease")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("token", big, (c) => c.notNull())
    .addColumn("acquired_at", big, (c) => c.notNull())
    .addColumn("heartbeat_at", big, (c) => c.notNull())
    .addColumn("checkpoint", "text")
    .execute();
  await sql`update alarm set released_at = raised_at
    where released_at is null and exists (
      select 1 from alarm older where older.released_at is null and older.seq < alarm.seq
        and older.code = alarm.code and older.plant_uid = alarm.plant_uid
        and coalesce(older.device_uid, older.rtu_uid, '') = coalesce(alarm.device_uid, alarm.rtu_uid, ''))`.execute(db);
  await sql`create unique index alarm_open_key on alarm (code, plant_uid, (coalesce(device_uid, rtu_uid, '')))
    where released_at is null`.execute(db);
}
