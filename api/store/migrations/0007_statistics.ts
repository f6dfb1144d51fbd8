import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Statistics reports (issue 16): scheduled report mails. A member subscribes to a report (kind, scope — one
 * plant, a group, or the member's whole fleet when both are null — and daily/weekly/monthly); the report
 * scheduler (a cluster singleton) sends it through the outbox. `last_period` is the start of the last period
 * sent (epoch ms), `last_error` why the last run could not build it (the scope is no longer visible, …).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  const big = pg ? "bigint" : "integer";
  await db.schema
    .createTable("report_subscription")
    .addColumn("seq", pg ? "serial" : "integer", (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("report", "text", (c) => c.notNull())
    .addColumn("frequency", "text", (c) => c.notNull())
    .addColumn("plant_uid", "text")
    .addColumn("group_seq", "integer")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("last_period", big)
    .addColumn("last_sent_at", big)
    .addColumn("last_error", "text")
    .execute();
  await db.schema.createIndex("report_subscription_member_idx").on("report_subscription").column("member_id").execute();
}
