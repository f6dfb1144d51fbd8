import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Detail-window handover (SPEC §1, §2 Detail window): a short-lived one-time code the main window's
 * session creates for one plant or member, and the scope that the detail window's session keeps
 * (token_family.scope_kind / scope_uid). A scoped session's tokens carry a `scope` claim and the
 * API guard refuses every call outside that one plant or member.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  await db.schema.alterTable("token_family").addColumn("scope_kind", "text").execute();
  await db.schema.alterTable("token_family").addColumn("scope_uid", "text").execute();
  await db.schema
    .createTable("detail_handover")
    // sha256 of the code: a leaked database row does not give a usable code.
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("expires_at", big, (c) => c.notNull())
    .addColumn("used_at", big)
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("detail_handover_expiry_idx").on("detail_handover").column("expires_at").execute();
}
