import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Administration: external sources for importing ("crawling", SPEC §3 Crawling plant) — the site type,
 * base URL and login of another portal or a vendor portal. The password is kept encrypted
 * (AES-256-GCM, key derived from the server secret) and never returned by the API.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  const big = pg ? "bigint" : "integer";
  const serial = pg ? "serial" : "integer";
  const seq = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable("crawl_source")
    .addColumn("seq", serial, seq)
    .addColumn("site", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("base_url", "text", (c) => c.notNull())
    .addColumn("login_id", "text", (c) => c.notNull())
    .addColumn("password_enc", "text", (c) => c.notNull())
    .addColumn("node_seq", "integer", (c) => c.references("node.seq"))
    .addColumn("address", "text")
    .addColumn("created_by", "text")
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .addColumn("last_polled_at", big)
    .addColumn("last_error", "text")
    .execute();

  await db.schema.createIndex("rtu_node_idx").on("rtu").column("node_seq").execute();
}
