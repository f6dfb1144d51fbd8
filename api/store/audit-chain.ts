/**
 * The tamper-evident command and acknowledgement log (issue 29 §1; hashing in domain/audit-chain.ts).
 * appendAudit runs inside the write's own transaction (the command's insert, its outcome's update, the alarm's
 * acknowledgement), so an entry exists exactly when its write does. Appends are serialized so that each entry
 * chains to the one committed before it, with several servers writing at once:
 * - PostgreSQL: a transaction-scoped advisory lock (released at commit or rollback) taken before anything else;
 *   the entry's seq is drawn under the lock, so seq order is commit order.
 * - SQLite: the insert comes first, which takes the database's single write lock for the rest of the transaction
 *   (so a second process waits, busy_timeout) before the previous entry is read.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import { GENESIS, entryHash, verifyEntries, type AuditKind, type ChainBreak, type ChainedEntry } from "../../domain/audit-chain";
import type { Dialect } from "./db";
import type { Database } from "./schema";

/** The advisory lock's key (any constant bigint the project uses for nothing else): "audit" in ASCII. */
const AUDIT_LOCK_KEY = 0x6175646974;

export interface NewAuditEntry {
  at: number;
  kind: AuditKind;
  plant_uid: string | null;
  ref_seq: number | null;
  member_id: string | null;
  detail: Record<string, unknown>;
}

/** Appends one entry to the chain; call it inside the transaction of the write it records. */
export async function appendAudit(trx: Transaction<Database>, dialect: Dialect, entry: NewAuditEntry): Promise<ChainedEntry> {
  if (dialect === "postgres") await sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`.execute(trx);
  const detail = JSON.stringify(entry.detail);
  const { seq } = await trx
    .insertInto("audit_chain")
    .values({
      at: entry.at,
      kind: entry.kind,
      plant_uid: entry.plant_uid,
      ref_seq: entry.ref_seq,
      member_id: entry.member_id,
      detail,
      prev_hash: "",
      hash: "",
    })
    .returning("seq")
    .executeTakeFirstOrThrow();
  const prev = await trx
    .selectFrom("audit_chain")
    .select("hash")
    .where("seq", "<", seq)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  const prevHash = prev?.hash ?? GENESIS;
  const row = {
    seq: Number(seq),
    at: entry.at,
    kind: entry.kind,
    plant_uid: entry.plant_uid,
    ref_seq: entry.ref_seq,
    member_id: entry.member_id,
    detail,
  };
  const hash = entryHash(prevHash, row);
  await trx.updateTable("audit_chain").set({ prev_hash: prevHash, hash }).where("seq", "=", seq).execute();
  return { ...row, prev_hash: prevHash, hash };
}

const toEntry = (r: {
  seq: number;
  at: number;
  kind: string;
  plant_uid: string | null;
  ref_seq: number | null;
  member_id: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
}): ChainedEntry => ({
  seq: Number(r.seq),
  at: Number(r.at),
  kind: r.kind,
  plant_uid: r.plant_uid,
  ref_seq: r.ref_seq === null ? null : Number(r.ref_seq),
  member_id: r.member_id,
  detail: r.detail,
  prev_hash: r.prev_hash,
  hash: r.hash,
});

const PAGE = 2000;

export interface ChainVerdict {
  intact: boolean;
  checked: number;
  broken: (ChainBreak & { at: number | null }) | null;
  lastSeq: number | null;
}

/** Walks the whole chain in seq order (pages of PAGE rows): intact, or the first broken entry. */
export async function verifyAuditChain(db: Kysely<Database>): Promise<ChainVerdict> {
  let prevHash = GENESIS;
  let after = 0;
  let checked = 0;
  let lastSeq: number | null = null;
  for (;;) {
    const rows = (
      await db.selectFrom("audit_chain").selectAll().where("seq", ">", after).orderBy("seq").limit(PAGE).execute()
    ).map(toEntry);
    if (!rows.length) break;
    const { broken, lastHash } = verifyEntries(rows, prevHash);
    if (broken) {
      const at = rows.find((r) => r.seq === broken.seq)?.at ?? null;
      return {
        intact: false,
        checked: checked + rows.findIndex((r) => r.seq === broken.seq),
        broken: { ...broken, at },
        lastSeq,
      };
    }
    checked += rows.length;
    prevHash = lastHash;
    after = rows[rows.length - 1].seq;
    lastSeq = after;
    if (rows.length < PAGE) break;
  }
  return { intact: true, checked, broken: null, lastSeq };
}

export interface AuditQuery {
  /** null: every entry (a member who reaches everything); else entries of these plants. */
  plantUids: string[] | null;
  from: number;
  to: number;
  kind?: AuditKind;
  page: number;
  size: number;
}

/** A page of the log in a period (at in [from, to)), newest first, with the plant's name, and the total. */
export async function listAudit(db: Kysely<Database>, q: AuditQuery) {
  if (q.plantUids && !q.plantUids.length) return { rows: [], total: 0 };
  let base = db
    .selectFrom("audit_chain")
    .leftJoin("plant", "plant.uid", "audit_chain.plant_uid")
    .where("audit_chain.at", ">=", q.from)
    .where("audit_chain.at", "<", q.to);
  if (q.plantUids) base = base.where("audit_chain.plant_uid", "in", q.plantUids);
  if (q.kind) base = base.where("audit_chain.kind", "=", q.kind);
  const [{ n }] = await base.select((eb) => eb.fn.countAll<number>().as("n")).execute();
  const rows = await base
    .selectAll("audit_chain")
    .select("plant.name as plantName")
    .orderBy("audit_chain.seq", "desc")
    .limit(q.size)
    .offset((q.page - 1) * q.size)
    .execute();
  return { rows: rows.map((r) => ({ ...toEntry(r), plantName: r.plantName ?? null })), total: Number(n) };
}
