import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Issue 28 §3, curtailment and output-limit orders: `curtailment_order`, a plant's orders to hold its output at or
 * below a limit over [from_ts, to_ts) (epoch ms), the limit in kW or % of the plant's capacity (`limit_unit`), from KPX,
 * the grid operator or the owner (`source`), with a note. The diagnosis leaves their steps out of availability and PR
 * and reports the energy lost in them (domain/curtailment.ts). Removed with their plant.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const big = dialect === "postgres" ? "bigint" : "integer";
  const serial = dialect === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("curtailment_order")
    .addColumn("id", serial, (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("plant_uid", "text", (c) => c.notNull().references("plant.uid").onDelete("cascade"))
    .addColumn("from_ts", big, (c) => c.notNull())
    .addColumn("to_ts", big, (c) => c.notNull())
    .addColumn("limit_value", "real", (c) => c.notNull())
    .addColumn("limit_unit", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("created_by", "text")
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("curtailment_order_plant_time").on("curtailment_order").columns(["plant_uid", "from_ts"]).execute();
}
