import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Issue 29 §2, alarm ergonomics:
 * - `alarm_ladder`: an escalation ladder per plant (`plant:<uid>`) or group (`group:<seq>`), its steps as JSON
 *   (domain/alarm-ladder.ts); a plant without one uses its nearest group's, else the default.
 * - `alarm_escalation`: the ladder steps delivered, one row per alarm, episode (when the alarm last became active)
 *   and step. Its primary key is what makes a step enqueued exactly once: the row and the step's outbox messages
 *   are written in one transaction, and a second engine (after a restart, or another server) finds the row.
 * - `alarm.active_since`: when the alarm's current episode began (raised, raised again unless flapping); the
 *   ladder counts from it. `alarm.last_seen_at`: the last pass that saw its condition (auto-close counts from it).
 *   `alarm.toggles`: how many times it came back (flapping shows as one alarm with this count).
 *   `alarm.auto_cleared`: 1 when it was cleared by itself after its condition was not seen for the configured time.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("alarm_ladder")
    .addColumn("scope", "text", (c) => c.primaryKey())
    .addColumn("steps", "text", (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();
  await db.schema
    .createTable("alarm_escalation")
    .addColumn("alarm_seq", "integer", (c) => c.notNull().references("alarm.seq").onDelete("cascade"))
    .addColumn("active_since", big, (c) => c.notNull())
    .addColumn("step", "integer", (c) => c.notNull())
    .addColumn("at", big, (c) => c.notNull())
    .addColumn("recipients", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("alarm_escalation_pk", ["alarm_seq", "active_since", "step"])
    .execute();
  await db.schema.alterTable("alarm").addColumn("active_since", big).execute();
  await db.schema.alterTable("alarm").addColumn("last_seen_at", big).execute();
  await db.schema
    .alterTable("alarm")
    .addColumn("toggles", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("alarm")
    .addColumn("auto_cleared", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Alarms open before this migration were alerted when they were raised: their episode is the raise, and every step
  // a ladder may have (at most 6) counts as delivered, so an upgrade sends no burst of reminders for old alarms.
  await sql`update alarm set active_since = raised_at, last_seen_at = raised_at`.execute(db);
  for (let step = 0; step < 6; step++)
    await sql`insert into alarm_escalation (alarm_seq, active_since, step, at, recipients)
      select seq, raised_at, ${step}, raised_at, 0 from alarm where released_at is null`.execute(db);
}
