/**
 * "Rows of these tables changed" for answers derived from whole tables (the alarm list's cache,
 * api/cache/table-answers.ts): every statement the store runs through Kysely — query builder or raw `sql` — is
 * read for the tables it writes (`insert into`, `update`, `delete from`, SQLite's `insert or replace` and
 * `replace into`), and the listeners hear of them once they are committed: at once for a statement outside a
 * transaction, at the commit for one inside (nothing for a rollback). So a listener that drops what it derived
 * never keeps an answer read before a change, whoever made it (the alarm engine, an acknowledgement, a settings
 * screen renaming a plant, a cascade of deletes starting at a watched table).
 *
 * Not seen: statements on the raw SQLite handle (`Store.sqlite`, the telemetry writer's measurement rows) and
 * writes by triggers to tables other than the statement's; one process (another server of a cluster hears of it
 * through the listener's own notices). Over-reporting (a select mentioning `update` in a string) only drops answers.
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from "kysely";

const listeners = new Set<(tables: ReadonlySet<string>) => void>();

/** Listens for committed writes in this process; returns the function that stops listening. */
export function onTableWrite(fn: (tables: ReadonlySet<string>) => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

function written(tables: ReadonlySet<string>): void {
  for (const fn of listeners) fn(tables);
}

const WRITE =
  /\b(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+(?:"?\w+"?\s*\.\s*)?"?(\w+)"?/gi;

/** The tables a statement writes (lower case; empty for a read). */
export function tablesWritten(sqlText: string): Set<string> {
  const out = new Set<string>();
  for (const m of sqlText.matchAll(WRITE)) out.add(m[1]!.toLowerCase());
  return out;
}

class WatchedConnection implements DatabaseConnection {
  /** Tables written in the open transaction; null outside one. */
  tx: Set<string> | null = null;
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    // A plain select writes nothing (one with a WITH clause may, on PostgreSQL: read like the rest).
    const node = query.query as { kind: string; with?: unknown };
    if (node.kind === "SelectQueryNode" && !node.with) return result;
    const tables = tablesWritten(query.sql);
    if (tables.size) {
      if (this.tx) for (const t of tables) this.tx.add(t);
      else written(tables);
    }
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class WatchedDriver implements Driver {
  savepoint?: Driver["savepoint"];
  rollbackToSavepoint?: Driver["rollbackToSavepoint"];
  releaseSavepoint?: Driver["releaseSavepoint"];

  constructor(private readonly inner: Driver) {
    // Savepoints only narrow what a commit wrote: the commit still tells every table (an over-report at worst).
    const pass =
      (fn: NonNullable<Driver["savepoint"]>) => (c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) =>
        fn.call(inner, (c as WatchedConnection).inner, name, compile);
    if (inner.savepoint) this.savepoint = pass(inner.savepoint);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = pass(inner.rollbackToSavepoint);
    if (inner.releaseSavepoint) this.releaseSavepoint = pass(inner.releaseSavepoint);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WatchedConnection(await this.inner.acquireConnection());
  }

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const conn = c as WatchedConnection;
    await this.inner.beginTransaction(conn.inner, settings);
    conn.tx = new Set();
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    const conn = c as WatchedConnection;
    const tables = conn.tx;
    conn.tx = null;
    try {
      await this.inner.commitTransaction(conn.inner);
    } finally {
      // A failed commit may still have committed (a connection lost on the way back): told all the same.
      if (tables?.size) written(tables);
    }
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    const conn = c as WatchedConnection;
    conn.tx = null;
    await this.inner.rollbackTransaction(conn.inner);
  }

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((c as WatchedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect, its statements watched for writes (see above). */
export function watchWrites(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new WatchedDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
