/**
 * "Rows of these tables changed" for the kept answers (api/cache/table-answers.ts): every statement the store runs
 * through Kysely is read for the tables it writes from the query builder's operation tree — an insert's table, an
 * update's, a delete's, and those of writing common table expressions — and the listeners hear of them once they are
 * committed: at once for a statement outside a transaction, at the commit for one inside (nothing for a rollback).
 * A raw `sql` statement has no tree to read: one that writes declares its tables (`rawWrite`); an undeclared raw
 * statement that is not a read (its first word: select, with, pragma, explain, values) counts as writing every
 * table ("*"), so forgetting to declare only drops answers, never keeps a stale one.
 *
 * Not seen: statements on the raw SQLite handle (`Store.sqlite`, the telemetry writer's measurement rows) and
 * writes by triggers to tables other than the statement's; one process (another server of a cluster hears of it
 * through the listener's own notices and PostgreSQL's triggers, migration 0019).
 */
import {
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
  type TransactionSettings,
} from "kysely";

const listeners = new Set<(tables: ReadonlySet<string>) => void>();

/** Listens for committed writes in this process; returns the function that stops listening. */
export function onTableWrite(fn: (tables: ReadonlySet<string>) => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

function written(tables: ReadonlySet<string>): void {
  for (const fn of listeners) fn(tables);
}

/** Any table (an undeclared raw write). */
export const EVERY_TABLE = "*";
const DECLARED = /^\/\* writes: ([\w,]*) \*\/ /;
const READ = /^\s*(?:select|with|pragma|explain|values)\b/i;

/** A raw statement that writes `tables`: the declaration is how the watch below knows (raw SQL has no tree). */
export function rawWrite<T>(tables: readonly string[], statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(`/* writes: ${tables.join(",")} */ `)}${statement}`;
}

type Node = { kind: string } & Record<string, unknown>;

function tableNames(n: unknown): string[] {
  const node = n as Node | undefined;
  switch (node?.kind) {
    case "TableNode":
      return [(node.table as { identifier: { name: string } }).identifier.name.toLowerCase()];
    case "AliasNode":
      return tableNames(node.node);
    case "ListNode":
      return (node.items as unknown[]).flatMap(tableNames);
    case "FromNode":
      return (node.froms as unknown[]).flatMap(tableNames);
    default:
      return [];
  }
}

/** The start of a raw statement's text (fragments and nested raw parts in order; a value stands as "?"). */
function headOf(node: Node, max = 120): string {
  const fragments = node.sqlFragments as string[];
  const params = node.parameters as Node[];
  let text = "";
  for (let i = 0; i < fragments.length && text.trim().length < max; i++) {
    text += fragments[i];
    const p = params[i];
    if (p) text += p.kind === "RawNode" ? headOf(p, max) : "?";
  }
  return text.trimStart();
}

/** The tables a statement writes (lower case; empty for a read; EVERY_TABLE for an undeclared raw write). */
export function tablesWritten(query: RootOperationNode): Set<string> {
  const node = query as unknown as Node;
  const out = new Set<string>();
  const ctes = (node.with as { expressions?: Array<{ expression: RootOperationNode }> } | undefined)?.expressions ?? [];
  for (const cte of ctes) for (const t of tablesWritten(cte.expression)) out.add(t);
  switch (node.kind) {
    case "InsertQueryNode":
      for (const t of tableNames(node.into)) out.add(t);
      break;
    case "UpdateQueryNode":
      for (const t of tableNames(node.table)) out.add(t);
      break;
    case "DeleteQueryNode":
    case "MergeQueryNode":
      for (const t of tableNames(node.from ?? node.into)) out.add(t);
      break;
    case "RawNode": {
      const head = headOf(node);
      const declared = DECLARED.exec(head);
      if (declared) for (const t of declared[1]!.split(",").filter(Boolean)) out.add(t.toLowerCase());
      else if (head && !READ.test(head)) out.add(EVERY_TABLE);
      break;
    }
  }
  return out;
}

class WatchedConnection implements DatabaseConnection {
  /** Tables written in the open transaction; null outside one. */
  tx: Set<string> | null = null;
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    const tables = tablesWritten(query.query);
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
