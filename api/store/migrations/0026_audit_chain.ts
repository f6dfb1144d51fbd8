import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Issue 29 §1, the tamper-evident command and acknowledgement log (api/store/audit-chain.ts, domain/audit-chain.ts):
 * one row per command, per gateway answer to a command and per alarm acknowledgement, appended in the write's own
 * transaction. `hash` = sha256(`prev_hash` + canonical JSON of the entry's fields), so editing, deleting or
 * reordering a row breaks the chain from that row on. No foreign keys: deleting a plant or device must not delete or
 * alter its entries. Appends are serialized (an advisory transaction lock on PostgreSQL; SQLite has one writer).
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
}
