import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Issue 29 §1, the tamper-evident command and acknowledgement log (api/store/audit-chain.ts, domain/audit-chain.ts):
 * one row per command, per gateway answer to a command and per alarm acknowledgement, appended in the write's own
 * transaction. `hash` = sha256(`prev_hash` + canonical JSON of the entry's fields), so editing, deleting or
 * reordering a row breaks the chain from that row on. No foreign keys: deleting a plant or device must not delete or
 * alter its entries. Appends are serialized (an advisory transaction lock on PostgreSQL; SQLite has one writer).
 *
 * Issue 29 §2, per-member routing (domain/alert-routing.ts): `alert_route`, a member's routes — one plant or one
 * group (or neither: every plant), a minimum level, codes (JSON array, or null for every code), mail and webhook.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("audit_chain")
    .addColumn("seq", dialect === "postgres" ? "serial" : "integer", (c) =>
      dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("at", big, (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("plant_uid", "text")
    .addColumn("ref_seq", big)
    .addColumn("member_id", "text")
    .addColumn("detail", "text", (c) => c.notNull())
    .addColumn("prev_hash", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_chain_plant_at").on("audit_chain").columns(["plant_uid", "at"]).execute();
  await db.schema.createIndex("audit_chain_at").on("audit_chain").column("at").execute();
  await db.schema
    .createTable("alert_route")
    .addColumn("seq", dialect === "postgres" ? "serial" : "integer", (c) =>
      dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("plant_uid", "text")
    .addColumn("group_seq", "integer")
    .addColumn("min_level", "integer", (c) => c.notNull())
    .addColumn("codes", "text")
    .addColumn("mail", "integer", (c) => c.notNull())
    .addColumn("webhook", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("alert_route_member").on("alert_route").column("member_id").execute();
}
