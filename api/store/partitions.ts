/**
 * Monthly range partitions of the PostgreSQL measurement tables. Made ahead of time (a partition
 * cannot be carved out of the default partition once that holds rows for its range), so anything
 * outside the prepared months still lands safely in the default partition.
 */
import { sql } from "kysely";
import { rawWrite } from "./table-writes";
import { addSeoul, formatSeoul, seoulMonthStart } from "../../domain/seoul-time";
import type { Clock } from "../clock";
import type { SingletonJob } from "../cluster/singletons";
import type { Store } from "./db";
import { dataChanged } from "./data-changes";

const TABLES = ["m_inverter", "m_env", "m_board", "m_breaker"];

export async function ensureMonthlyPartitions(store: Store, fromMs: number, toMs: number): Promise<string[]> {
  if (store.dialect !== "postgres") return [];
  const partitioned = await sql<{ relname: string }>`
    select c.relname from pg_partitioned_table p join pg_class c on c.oid = p.partrelid`.execute(store.db);
  const names = new Set(partitioned.rows.map((r) => r.relname));
  const created: string[] = [];
  // Months begin at 00:00 Asia/Seoul.
  for (let lo = seoulMonthStart(fromMs), hi = addSeoul(lo, 1, "month"); lo <= toMs; lo = hi, hi = addSeoul(lo, 1, "month")) {
    for (const table of TABLES) {
      if (!names.has(table)) continue;
      const name = `${table}_${formatSeoul(lo, "YYYY-MM").replace("-", "")}`;
      const exists = await sql<{ n: number }>`select count(*)::int as n from pg_class where relname = ${name}`.execute(store.db);
      if (exists.rows[0]!.n > 0) continue;
      try {
        await sql.raw(`create table ${name} partition of ${table} for values from (${lo}) to (${hi})`).execute(store.db);
        created.push(name);
      } catch (error) {
        // The default partition already holds rows of that month: they stay there, still queryable.
        // Another server made the same partition a moment ago: fine too.
        if (!/would be violated by some row|updated partition constraint|already exists/.test(String(error))) throw error;
      }
    }
  }
  return created;
}

export const PARTITION_MAINTENANCE = "partition-maintenance";
/** Partitions are made this far ahead. */
const AHEAD_MS = 62 * 86_400_000;

/**
 * Removes raw measurements older than `retentionDays` (rollups are kept for ever). On PostgreSQL a
 * monthly partition wholly before the cutoff is detached and dropped (no row-by-row delete); rows before
 * the cutoff in partly expired months and in the default partition are deleted. Returns what it did.
 */
export async function applyRetention(
  store: Store,
  now: number,
  retentionDays: number,
): Promise<{ dropped: string[]; deleted: number }> {
  const cutoff = now - retentionDays * 86_400_000;
  const dropped: string[] = [];
  let deleted = 0;
  if (store.dialect === "postgres") {
    const parts = await sql<{ parent: string; child: string; bound: string }>`
      select p.relname as parent, c.relname as child, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
      where p.relname in (${sql.join(TABLES)})`.execute(store.db);
    for (const part of parts.rows) {
      const m = /TO \('?(-?\d+)'?\)/.exec(part.bound);
      if (m && Number(m[1]) <= cutoff) {
        await sql.raw(`alter table ${part.parent} detach partition ${part.child}`).execute(store.db);
        await sql.raw(`drop table ${part.child}`).execute(store.db);
        dropped.push(part.child);
      }
    }
  }
  for (const table of TABLES) {
    const r = await rawWrite([table], sql`delete from ${sql.table(table)} where ts < ${cutoff}`).execute(store.db);
    deleted += Number(r.numAffectedRows ?? 0);
  }
  if (dropped.length || deleted) dataChanged({ from: -Infinity, to: cutoff });
  return { dropped, deleted };
}

/**
 * Which PostgreSQL extensions could take this work over, said once in the log. TimescaleDB is used by
 * migration 0002 when installable; pg_partman partitions integer keys by fixed-width ranges, which
 * cannot express the Seoul calendar months these epoch-millisecond tables are cut by, so the built-in
 * path keeps running when it is present too.
 */
export async function describePartitioning(store: Store): Promise<string> {
  if (store.dialect !== "postgres") return "partitions: SQLite store (no partitions; retention deletes rows)";
  const ext = await sql<{ name: string; installed: string | null }>`
    select name, installed_version as installed from pg_available_extensions where name in ('timescaledb', 'pg_partman')`.execute(
    store.db,
  );
  const has = (n: string) => ext.rows.find((r) => r.name === n);
  const hyper = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'timescaledb'`.execute(
    store.db,
  );
  const parts = [
    hyper.rows[0]!.n > 0
      ? "TimescaleDB present: measurement tables are hypertables"
      : `TimescaleDB ${has("timescaledb") ? "available but not installed in this database" : "not available on this PostgreSQL"}: monthly partitions (built-in), no hypertables, compression or continuous aggregates`,
    has("pg_partman")
      ? "pg_partman present but not used (fixed-width integer ranges cannot follow Seoul calendar months); built-in maintenance"
      : "pg_partman not available; built-in maintenance",
  ];
  return `partitions: ${parts.join("; ")}`;
}

/**
 * Partition maintenance (a singleton job): months ahead are made before they begin, and raw data
 * older than the retention setting is removed, at start and then every `intervalMs`.
 */
export function partitionMaintenance(
  store: Store,
  clock: Clock,
  opts: { retentionDays: number | null; intervalMs: number; log: (m: string, e?: unknown) => void },
): SingletonJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  const pass = async () => {
    const now = clock.now();
    const created = await ensureMonthlyPartitions(store, now - 31 * 86_400_000, now + AHEAD_MS);
    if (created.length) opts.log(`partitions: created ${created.join(", ")}`);
    if (opts.retentionDays != null) {
      const r = await applyRetention(store, now, opts.retentionDays);
      if (r.dropped.length || r.deleted)
        opts.log(
          `retention (${opts.retentionDays} days): dropped ${r.dropped.join(", ") || "no partition"}, deleted ${r.deleted} rows`,
        );
    }
  };
  return {
    name: PARTITION_MAINTENANCE,
    start() {
      const run = () => {
        if (running) return;
        running = pass()
          .catch((e) => opts.log("partition maintenance failed", e))
          .finally(() => (running = null));
      };
      run();
      timer = setInterval(run, opts.intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
