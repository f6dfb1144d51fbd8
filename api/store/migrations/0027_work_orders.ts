import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Issue 29 §3, work orders:
 * - `work_order`: one per job on a plant — title, description, priority, state (domain/work-order.ts), assignee,
 *   due day ('YYYY-MM-DD', Seoul), who created it and when.
 * - `work_order_device`, `work_order_alarm`: the plant's devices it is about and the alarms it came from.
 * - `work_order_history`: what happened to it, appended only — created, notes, state changes (from → to, with
 *   the note given), assignments — each with its author and time.
 * - `work_order_photo`: photos attached to it (PNG, JPEG or WebP by their bytes, size-limited:
 *   domain/work-order-photo.ts), kept in the store itself so every server of a cluster answers them.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  const big = pg ? "bigint" : "integer";
  const serial = pg ? "serial" : "integer";
  const seq = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable("work_order")
    .addColumn("id", serial, seq)
    .addColumn("plant_uid", "text", (c) => c.notNull().references("plant.uid").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("priority", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("assignee_id", "text", (c) => c.references("member.id").onDelete("set null"))
    .addColumn("due_date", "text")
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("work_order_plant_idx").on("work_order").columns(["plant_uid", "state"]).execute();
  await db.schema.createIndex("work_order_assignee_idx").on("work_order").columns(["assignee_id", "state"]).execute();
  await db.schema
    .createTable("work_order_device")
    .addColumn("work_order_id", "integer", (c) => c.notNull().references("work_order.id").onDelete("cascade"))
    .addColumn("device_uid", "text", (c) => c.notNull().references("device.uid").onDelete("cascade"))
    .addPrimaryKeyConstraint("work_order_device_pk", ["work_order_id", "device_uid"])
    .execute();
  await db.schema
    .createTable("work_order_alarm")
    .addColumn("work_order_id", "integer", (c) => c.notNull().references("work_order.id").onDelete("cascade"))
    .addColumn("alarm_seq", "integer", (c) => c.notNull().references("alarm.seq").onDelete("cascade"))
    .addPrimaryKeyConstraint("work_order_alarm_pk", ["work_order_id", "alarm_seq"])
    .execute();
  await db.schema.createIndex("work_order_alarm_alarm_idx").on("work_order_alarm").columns(["alarm_seq"]).execute();
  await db.schema
    .createTable("work_order_history")
    .addColumn("seq", serial, seq)
    .addColumn("work_order_id", "integer", (c) => c.notNull().references("work_order.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("author_id", "text", (c) => c.notNull())
    .addColumn("note", "text")
    .addColumn("from_state", "text")
    .addColumn("to_state", "text")
    .addColumn("assignee_id", "text")
    .addColumn("at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("work_order_history_wo_idx").on("work_order_history").columns(["work_order_id", "seq"]).execute();
  await db.schema
    .createTable("work_order_photo")
    .addColumn("seq", serial, seq)
    .addColumn("work_order_id", "integer", (c) => c.notNull().references("work_order.id").onDelete("cascade"))
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("data", pg ? "bytea" : "blob", (c) => c.notNull())
    .addColumn("author_id", "text", (c) => c.notNull())
    .addColumn("at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("work_order_photo_wo_idx").on("work_order_photo").columns(["work_order_id", "seq"]).execute();
}
