import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/** Members, the group tree, plants, RTUs, devices, links, notices, sessions, throttling, alarms. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const serial = dialect === "postgres" ? "serial" : "integer";
  const big = dialect === "postgres" ? "bigint" : "integer";
  const real = dialect === "postgres" ? "double precision" : "real";
  const seq = (c: any) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable("node")
    .addColumn("seq", serial, seq)
    .addColumn("parent_seq", "integer", (c) => c.references("node.seq"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("node_parent_idx").on("node").column("parent_seq").execute();

  await db.schema
    .createTable("package")
    .addColumn("seq", serial, seq)
    .addColumn("name", "text", (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable("member")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("auth", "integer", (c) => c.notNull())
    .addColumn("service", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("node_seq", "integer", (c) => c.references("node.seq"))
    .addColumn("use_yn", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("pwd_yn", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("read_only", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("logo", "text")
    .addColumn("phone", "text")
    .addColumn("email", "text")
    .addColumn("helmet_name", "text")
    .addColumn("diagram", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cctv", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("page", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .addColumn("password_changed_at", big)
    .execute();
  await db.schema.createIndex("member_node_idx").on("member").column("node_seq").execute();

  await db.schema
    .createTable("plant")
    .addColumn("uid", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("alias", "text")
    .addColumn("capa", real, (c) => c.notNull())
    .addColumn("locality", "text")
    .addColumn("address", "text")
    .addColumn("lat", real)
    .addColumn("lng", real)
    .addColumn("node_seq", "integer", (c) => c.references("node.seq"))
    .addColumn("package_seq", "integer", (c) => c.references("package.seq"))
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("plant_node_idx").on("plant").column("node_seq").execute();

  await db.schema
    .createTable("rtu")
    .addColumn("uid", "text", (c) => c.primaryKey())
    .addColumn("alias", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("mac", "text", (c) => c.unique())
    .addColumn("kind", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("plant_uid", "text", (c) => c.references("plant.uid"))
    .addColumn("node_seq", "integer", (c) => c.references("node.seq"))
    .addColumn("package_seq", "integer", (c) => c.references("package.seq"))
    .addColumn("config", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("credential_hash", "text")
    .addColumn("use_yn", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rtu_plant_idx").on("rtu").column("plant_uid").execute();

  await db.schema
    .createTable("device")
    .addColumn("uid", "text", (c) => c.primaryKey())
    .addColumn("rtu_uid", "text", (c) => c.references("rtu.uid"))
    .addColumn("plant_uid", "text", (c) => c.references("plant.uid"))
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("address", "integer")
    .addColumn("capa", real)
    .addColumn("use_yn", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("device_rtu_idx").on("device").column("rtu_uid").execute();
  await db.schema.createIndex("device_plant_idx").on("device").columns(["plant_uid", "kind"]).execute();

  await db.schema
    .createTable("member_plant")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("plant_uid", "text", (c) => c.notNull().references("plant.uid").onDelete("cascade"))
    .addColumn("created_at", big, (c) => c.notNull())
    .addPrimaryKeyConstraint("member_plant_pk", ["member_id", "plant_uid"])
    .execute();
  await db.schema.createIndex("member_plant_plant_idx").on("member_plant").column("plant_uid").execute();

  await db.schema
    .createTable("notice")
    .addColumn("seq", serial, seq)
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("use_yn", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("author_id", "text")
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("token_family")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("current_jti", "text", (c) => c.notNull())
    .addColumn("previous_jti", "text")
    .addColumn("rotated_at", big, (c) => c.notNull())
    .addColumn("expires_at", big, (c) => c.notNull())
    .addColumn("revoked_at", big)
    .addColumn("revoked_reason", "text")
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("token_family_member_idx").on("token_family").column("member_id").execute();

  await db.schema
    .createTable("login_throttle")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("first_failure_at", big, (c) => c.notNull())
    .addColumn("last_failure_at", big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("alarm")
    .addColumn("seq", serial, seq)
    .addColumn("plant_uid", "text", (c) => c.notNull().references("plant.uid").onDelete("cascade"))
    .addColumn("rtu_uid", "text")
    .addColumn("device_uid", "text")
    .addColumn("code", "integer", (c) => c.notNull())
    .addColumn("level", "integer", (c) => c.notNull())
    .addColumn("fault_code", "integer")
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("raised_at", big, (c) => c.notNull())
    .addColumn("released_at", big)
    .execute();
  await db.schema.createIndex("alarm_open_idx").on("alarm").columns(["plant_uid", "released_at"]).execute();
}
