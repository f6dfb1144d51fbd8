/**
 * Monthly range partitions of the PostgreSQL measurement tables. Made ahead of time (a partition
 * cannot be carved out of the default partition once that holds rows for its range), so anything
 * outside the prepared months still lands safely in the default partition.
 */
import { sql } from "kysely";
import type { Store } from "./db";

const TABLES = ["m_inverter", "m_env", "m_board", "m_breaker"];

function monthStart(year: number, month: number): number {
  return Date.UTC(year, month, 1) - 9 * 3_600_000; // months begin at 00:00 Asia/Seoul
}

export async function ensureMonthlyPartitions(store: Store, fromMs: number, toMs: number): Promise<string[]> {
  if (store.dialect !== "postgres") return [];
  const partitioned = await sql<{ relname: string }>`
    select c.relname from pg_partitioned_table p join pg_class c on c.oid = p.partrelid`.execute(store.db);
  const names = new Set(partitioned.rows.map((r) => r.relname));
  const created: string[] = [];
  const from = new Date(fromMs + 9 * 3_600_000);
  const to = new Date(toMs + 9 * 3_600_000);
  for (let y = from.getUTCFullYear(), m = from.getUTCMonth(); y < to.getUTCFullYear() || (y === to.getUTCFullYear() && m <= to.getUTCMonth()); m === 11 ? (y++, (m = 0)) : m++) {
    const lo = monthStart(y, m);
    const hi = monthStart(m === 11 ? y + 1 : y, (m + 1) % 12);
    for (const table of TABLES) {
      if (!names.has(table)) continue;
      const name = `${table}_${y}${String(m + 1).padStart(2, "0")}`;
      const exists = await sql<{ n: number }>`select count(*)::int as n from pg_class where relname = ${name}`.execute(store.db);
      if (exists.rows[0]!.n > 0) continue;
      try {
        await sql.raw(`create table ${name} partition of ${table} for values from (${lo}) to (${hi})`).execute(store.db);
        created.push(name);
      } catch (error) {
        // The default partition already holds rows of that month: they stay there, still queryable.
        if (!/would be violated by some row|updated partition constraint/.test(String(error))) throw error;
      }
    }
  }
  return created;
}
