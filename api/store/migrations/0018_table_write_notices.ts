import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * PostgreSQL tells every listening server when a row of a table that kept answers are derived from is written —
 * whoever writes it: a server of the cluster, a script, an operator in psql. A statement-level trigger sends the
 * table's name on `solar_table_write` (delivered at commit, once per table and transaction), and the answers that
 * read it are dropped (api/cache/table-answers.ts). Before this, a write from outside the servers was seen only when
 * a kept answer's time ran out. SQLite needs none: its data_version tells of other connections' commits.
 * The alarm and rtu tables are left out: the alarm engine and every ingest write them all the time, and the servers
 * hear of their own writes.
 */
const TABLES = ["member", "member_plant", "node", "plant", "device", "notice", "token_family"];

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`create or replace function solar_table_written() returns trigger language plpgsql as $$
    begin
      perform pg_notify('solar_table_write', tg_table_name);
      return null;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql`create trigger solar_table_write after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function solar_table_written()`.execute(db);
  }
}
