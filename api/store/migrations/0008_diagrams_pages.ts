import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Diagrams and custom pages (SPEC §7 /diagram, /custom, /node/diagrams, /node/customs).
 * - plant_diagram: an administrator's uploaded single-line drawing of a plant (SVG, stored sanitised) and
 *   the bindings of its elements to the plant's devices (JSON). Without a row the diagram is drawn from the
 *   plant's devices.
 * - custom_page: a member's page of widgets, keyed by (member, unique); the widgets as JSON.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("plant_diagram")
    .addColumn("plant_uid", "text", (c) => c.primaryKey().references("plant.uid").onDelete("cascade"))
    .addColumn("svg", "text", (c) => c.notNull())
    .addColumn("bindings", "text", (c) => c.notNull())
    .addColumn("uploaded_by", "text")
    .addColumn("uploaded_at", big, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("custom_page")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("unique_key", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("widgets", "text", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .addPrimaryKeyConstraint("custom_page_pk", ["member_id", "unique_key"])
    .execute();
}
