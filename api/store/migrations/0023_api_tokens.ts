import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Issue 27 point 6, API tokens for other systems (domain/api-tokens.ts):
 * - `api_token`: a member's named token, its secret kept only as SHA-256 (`secret_hash`, unique: a call finds its
 *   token by it), scope, plant limit (a JSON array, null for none), expiry, rate limits, revocation.
 * - The rate counters sit on the token's row (`minute_start`/`minute_count`, `day_start`/`day_count`), with
 *   `last_used_at`: one UPDATE … RETURNING per call finds a live token, counts the call and notes its use, on
 *   whichever server of a cluster it arrives (no second cache, so a revocation holds on the next call everywhere).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("api_token")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("hint", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("plants", "text")
    .addColumn("per_minute", "integer", (c) => c.notNull())
    .addColumn("per_day", "integer", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("expires_at", big)
    .addColumn("revoked_at", big)
    .addColumn("revoked_by", "text")
    .addColumn("last_used_at", big)
    .addColumn("minute_start", big, (c) => c.notNull().defaultTo(0))
    .addColumn("minute_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("day_start", big, (c) => c.notNull().defaultTo(0))
    .addColumn("day_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("api_token_member").on("api_token").column("member_id").execute();
}
