/**
 * Opens the store: SQLite (embedded default, WAL) or PostgreSQL, one Kysely query layer
 * over both, and runs the forward-only migrations before anything else touches it.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import type { Database } from "./schema";
import { migrations } from "./migrations/index";

export type Dialect = "sqlite" | "postgres";

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The raw SQLite handle, for the few hot paths that want prepared statements. */
  sqlite?: SQLite.Database;
  pgPool?: pg.Pool;
  close(): Promise<void>;
}

// pg hands bigint and numeric back as strings; our values fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export async function openStore(url: string): Promise<Store> {
  let store: Store;
  if (url.startsWith("file:")) {
    const file = url.slice("file:".length);
    if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    // FULL: a committed (and so acknowledged) reading survives a power cut, not only a crash.
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    store = { db, dialect: "sqlite", sqlite, close: () => db.destroy() };
  } else {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection the server terminates (restart, failover, DROP … FORCE) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on("error", (error) => console.error(`postgres: idle connection lost (${error.message})`));
    // The pool listens for errors only on idle connections: one that breaks while checked out (a query or
    // transaction in hand when the server goes away) emits 'error' with no listener, which ended the whole
    // process. The query in hand fails on its own and the pool drops the connection when it is released.
    pool.on("connect", (client) => client.on("error", () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    store = { db, dialect: "postgres", pgPool: pool, close: () => db.destroy() };
  }
  await migrate(store);
  return store;
}

/**
 * Kysely's SQLite driver prepares every query it runs; compiling the SQL again costs as much as running
 * a small query. Statements are kept by their text instead (better-sqlite3 statements are reusable, and
 * the driver runs one query at a time on its one connection, so no statement is used twice at once).
 *
 * Its transactions begin IMMEDIATE rather than deferred: a deferred transaction that reads and then writes
 * fails at once with SQLITE_BUSY (the busy timeout does not apply) when another connection wrote in
 * between — an admin form answered 500 that way while a tool wrote to the same file. Taking the write lock
 * at BEGIN makes such writers wait their turn under busy_timeout instead.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let stmt = statements.get(text);
      if (!stmt) statements.set(text, (stmt = sqlite.prepare(text === "begin" ? "begin immediate" : text)));
      return stmt;
    },
  };
}

/** Ordered, forward-only migrations recorded in schema_migration; each runs in a transaction. */
export async function migrate(store: Store): Promise<string[]> {
  const { db, dialect } = store;
  await sql`create table if not exists schema_migration (name text primary key, applied_at ${sql.raw(
    dialect === "postgres" ? "bigint" : "integer",
  )} not null)`.execute(db);
  const applied = new Set(
    (await sql<{ name: string }>`select name from schema_migration`.execute(db)).rows.map((r) => r.name),
  );
  const ran: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.name)) continue;
    await db.transaction().execute(async (trx) => {
      if (dialect === "postgres") await sql`select pg_advisory_xact_lock(4242)`.execute(trx);
      const again = await sql<{ name: string }>`select name from schema_migration where name = ${m.name}`.execute(trx);
      if (again.rows.length) return;
      await m.up(trx as Kysely<any>, dialect);
      await sql`insert into schema_migration (name, applied_at) values (${m.name}, ${Date.now()})`.execute(trx);
      ran.push(m.name);
    });
  }
  return ran;
}
