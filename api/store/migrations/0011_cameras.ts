import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Cameras (SPEC §2 /cctv, §7 GET /cctv/url): a plant's cameras, registered by an administrator.
 * The address is kept without credentials; the user name in clear, the password sealed (AES-256-GCM with a key
 * derived from the server secret, api/crawling/secret-box.ts). Neither ever leaves the API. The resolution last
 * seen in the stream is kept so the screen can show it (MOTIE: at least 2 MP) before anyone watches.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("camera")
    .addColumn("uid", "text", (c) => c.primaryKey())
    .addColumn("plant_uid", "text", (c) => c.notNull().references("plant.uid").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("username", "text")
    .addColumn("password_sealed", "text")
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("probed_at", big)
    .addColumn("created_by", "text")
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("camera_plant").on("camera").column("plant_uid").execute();
}
