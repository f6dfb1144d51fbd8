import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * Issue 25:
 * - `command.idempotency_key`: the confirmation's one-time token (the /control form's hidden token, the API's
 *   Idempotency-Key header). Unique per member, so recording the command consumes the token in the same statement:
 *   a replay finds the first command and runs nothing. Commands without a key (older rows) never collide (NULLs
 *   are distinct in both stores' unique indexes).
 * - `outbox.plant_uid`, `outbox.member_id`: whose alert a message is, so the delivery log is scoped by the
 *   visibility rule and a recipient who can no longer see the plant is dropped at send time.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("command").addColumn("idempotency_key", "text").execute();
  await db.schema
    .createIndex("command_idempotency_key")
    .unique()
    .on("command")
    .columns(["requested_by", "idempotency_key"])
    .execute();
  await db.schema.alterTable("outbox").addColumn("plant_uid", "text").execute();
  await db.schema.alterTable("outbox").addColumn("member_id", "text").execute();
  await db.schema.createIndex("outbox_plant").on("outbox").column("plant_uid").execute();
}
