/**
 * Opens the store: SQLite (embedded default, WAL) or PostgreSQL, one Kysely query layer
 * over both, and runs the forward-only migrations (Kysely's Migrator) before anything else touches it.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Migration as KyselyMigration,
  type MigrationProvider,
  type SqliteDatabase,
} from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import type { Database } from "./schema";
import { watchWrites } from "./table-writes";
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

const RAW_SQLITE = new WeakMap<Kysely<Database>, SQLite.Database>();

/**
 * The better-sqlite3 handle under a store's Kysely instance (undefined on PostgreSQL, and for a transaction), for
 * a read that wants raw mode (arrays, no object per row). Run it inside `db.connection().execute` so Kysely's
 * connection lock is held.
 */
export function rawSqlite(db: Kysely<Database>): SQLite.Database | undefined {
  return RAW_SQLITE.get(db);
}

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
    const db = new Kysely<Database>({ dialect: watchWrites(new SqliteDialect({ database: withStatementCache(sqlite) })) });
    RAW_SQLITE.set(db, sqlite);
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
    const db = new Kysely<Database>({ dialect: watchWrites(new PostgresDialect({ pool })) });
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
  const prepare = preparedStatements({ max: 500 });
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => prepare(sqlite, text === "begin" ? "begin immediate" : text),
  };
}

/**
 * A cache of prepared statements by text, per SQLite handle, least recently used first out. Each caller keeps its
 * own (Kysely's statements must keep answering objects, and one of them may be mid-iteration), so a hot path that
 * runs better-sqlite3 itself does not prepare a statement per call. `raw`: the statements answer arrays (no object
 * per row; readers only).
 */
export function preparedStatements(options: { max: number; raw?: boolean }) {
  const caches = new WeakMap<SQLite.Database, LRUCache<string, SQLite.Statement>>();
  return (sqlite: SQLite.Database, text: string): SQLite.Statement => {
    let cache = caches.get(sqlite);
    if (!cache) caches.set(sqlite, (cache = new LRUCache({ max: options.max })));
    let stmt = cache.get(text);
    if (!stmt) cache.set(text, (stmt = options.raw ? sqlite.prepare(text).raw(true) : sqlite.prepare(text)));
    return stmt;
  };
}

/**
 * Forward-only migrations, run by Kysely's own Migrator: its log is the table kysely_migration, its lock
 * (PostgreSQL: an advisory lock) keeps two servers starting together from running one twice, and
 * on PostgreSQL all pending migrations run in one transaction. Kysely runs SQLite migrations outside a
 * transaction, so each one gets its own here: a failed migration leaves nothing half-done.
 * Pending migrations run in name order (numbers were reserved ahead, so some landed later than higher
 * ones; allowUnorderedMigrations lets such a database catch up instead of refusing to start).
 * Returns the names of the migrations this call ran.
 */
export async function migrate(store: Store): Promise<string[]> {
  const { db, dialect } = store;
  await adoptLegacyLog(store);
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(
        migrations.map((m): [string, KyselyMigration] => [
          m.name,
          {
            up: (conn) => (dialect === "sqlite" ? conn.transaction().execute((trx) => m.up(trx, dialect)) : m.up(conn, dialect)),
          },
        ]),
      ),
  };
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new Error(
      `migration ${failed ?? "(before any ran)"} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Stores made before the switch to Kysely's Migrator logged their migrations in schema_migration (name,
 * applied_at ms). That log moves into kysely_migration (Kysely's own table layout, created here if it is not
 * there yet) once, in one transaction, and the old table is dropped, so nothing runs twice.
 */
async function adoptLegacyLog({ db, dialect }: Store): Promise<void> {
  const tables = new Set((await db.introspection.getTables()).map((t) => t.name));
  if (!tables.has(LEGACY_LOG)) return;
  await db.transaction().execute(async (trx) => {
    if (dialect === "postgres") await sql`select pg_advisory_xact_lock(4242)`.execute(trx);
    // Another server starting at the same time may have moved it already.
    const still =
      dialect === "postgres"
        ? (
            await sql<{
              n: number;
            }>`select count(*)::int as n from pg_tables where tablename = ${LEGACY_LOG} and schemaname = current_schema()`.execute(
              trx,
            )
          ).rows[0]!.n
        : (
            await sql<{
              n: number;
            }>`select count(*) as n from sqlite_master where type = 'table' and name = ${LEGACY_LOG}`.execute(trx)
          ).rows[0]!.n;
    if (!still) return;
    await trx.schema
      .createTable(MIGRATION_TABLE)
      .ifNotExists()
      .addColumn("name", "varchar(255)", (c) => c.notNull().primaryKey())
      .addColumn("timestamp", "varchar(255)", (c) => c.notNull())
      .execute();
    const rows = (
      await sql<{ name: string; applied_at: number }>`select name, applied_at from ${sql.table(LEGACY_LOG)}`.execute(trx)
    ).rows;
    for (const row of rows) {
      await sql`insert into ${sql.table(MIGRATION_TABLE)} (name, timestamp) values (${row.name}, ${new Date(Number(row.applied_at)).toISOString()}) on conflict (name) do nothing`.execute(
        trx,
      );
    }
    await sql`drop table ${sql.table(LEGACY_LOG)}`.execute(trx);
  });
}

const LEGACY_LOG = "schema_migration";
const MIGRATION_TABLE = DEFAULT_MIGRATION_TABLE;
