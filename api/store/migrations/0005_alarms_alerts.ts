import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Alarms, alerts and control (issue 14):
 * - the alarm lifecycle: who acknowledged an alarm, when, with which note; every step of it (raised,
 *   acknowledged, raised again, cleared, released by an operator) in `alarm_event`, the audit trail;
 * - `alarm_incident`: conditions seen but not yet alarms (an incident becomes an alarm after a delay);
 * - alert preferences per member and the people responsible per plant (owner, electrical safety manager);
 * - the outbox of mails and webhooks (exactly once by dedupe_key, claimed with a lease so two workers
 *   never send one message twice) and its delivery log.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  const big = pg ? "bigint" : "integer";
  const serial = pg ? "serial" : "integer";
  const seq = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema.alterTable("alarm").addColumn("ack_by", "text").execute();
  await db.schema.alterTable("alarm").addColumn("ack_at", big).execute();
  await db.schema.alterTable("alarm").addColumn("ack_note", "text").execute();
  // The alarm list is read by plant over a period, newest first.
  await db.schema.createIndex("alarm_plant_raised_idx").on("alarm").columns(["plant_uid", "raised_at"]).execute();

  await db.schema
    .createTable("alarm_event")
    .addColumn("seq", serial, seq)
    .addColumn("alarm_seq", "integer", (c) => c.notNull().references("alarm.seq").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("member_id", "text")
    .addColumn("note", "text")
    .addColumn("at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("alarm_event_alarm_idx").on("alarm_event").columns(["alarm_seq", "at"]).execute();

  await db.schema
    .createTable("alarm_incident")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("plant_uid", "text", (c) => c.notNull())
    .addColumn("first_seen_at", big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("alert_pref")
    .addColumn("member_id", "text", (c) => c.primaryKey().references("member.id").onDelete("cascade"))
    .addColumn("min_level", "integer", (c) => c.notNull())
    .addColumn("mail", "integer", (c) => c.notNull())
    .addColumn("webhook", "integer", (c) => c.notNull())
    .addColumn("webhook_url", "text")
    .addColumn("quiet_from", "integer")
    .addColumn("quiet_to", "integer")
    .addColumn("digest", "integer", (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("plant_contact")
    .addColumn("plant_uid", "text", (c) => c.notNull().references("plant.uid").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("updated_at", big, (c) => c.notNull())
    .addColumn("updated_by", "text")
    .addPrimaryKeyConstraint("plant_contact_pk", ["plant_uid", "role"])
    .execute();

  await db.schema
    .createTable("outbox")
    .addColumn("seq", serial, seq)
    .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body_text", "text", (c) => c.notNull())
    .addColumn("body_html", "text")
    .addColumn("attachments", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", big, (c) => c.notNull())
    .addColumn("claimed_until", big, (c) => c.notNull().defaultTo(0))
    .addColumn("claimed_by", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("sent_at", big)
    .execute();
  await db.schema.createIndex("outbox_due_idx").on("outbox").columns(["status", "next_attempt_at"]).execute();

  await db.schema
    .createTable("outbox_attempt")
    .addColumn("seq", serial, seq)
    .addColumn("outbox_seq", "integer", (c) => c.notNull().references("outbox.seq").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("at", big, (c) => c.notNull())
    .addColumn("ok", "integer", (c) => c.notNull())
    .addColumn("detail", "text")
    .execute();
  await db.schema.createIndex("outbox_attempt_idx").on("outbox_attempt").columns(["outbox_seq", "at"]).execute();

  // Commands: the plant, so the control screen lists a plant's commands without a join through devices.
  await db.schema.alterTable("command").addColumn("plant_uid", "text").execute();
  await db.schema.createIndex("command_plant_idx").on("command").columns(["plant_uid", "requested_at"]).execute();
}
