import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * PostgreSQL's notice of a committed write (channel `solar_table_write`, the table's name; api/cache/table-answers.ts)
 * on exactly the tables the kept answers read (api/cache/kept-tables.ts KEPT_TABLES; a test holds the two together).
 * 0018 covered a list of its own that left out the alarm table the alarm list reads; this (re)creates the trigger on
 * every table of the list, so a write by anything — a server, a script, psql — drops what read it.
 */
const TABLES = ["alarm", "device", "member", "member_plant", "node", "notice", "plant", "token_family"];
/** 0018's tables, whose triggers are dropped first. */
const OLD = ["member", "member_plant", "node", "plant", "device", "notice", "token_family"];

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  for (const table of OLD) await sql`drop trigger if exists solar_table_write on ${sql.table(table)}`.execute(db);
  for (const table of TABLES) {
    await sql`create trigger solar_table_write after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function solar_table_written()`.execute(db);
  }
}

export const KEPT_TABLES_0019 = TABLES;
