/**
 * The tamper-evident command and acknowledgement log (issue 29 §1): each entry carries
 * sha256(previous entry's hash + canonical entry). The canonical entry is the JSON array of its fields in a fixed
 * order (seq, at, kind, plant, reference, member, detail) — an array, so no key order to agree on; `detail` is the
 * stored JSON text itself. The first entry's previous hash is GENESIS. Editing a field, deleting, inserting or
 * reordering rows changes a hash that the next entry (or the entry itself) no longer matches.
 */
import { createHash } from "node:crypto";

export const GENESIS = "0".repeat(64);

/** What is recorded: a command, the gateway's answer to it, an alarm acknowledgement. */
export const AUDIT_KINDS = ["command", "command_result", "alarm_ack"] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditEntry {
  seq: number;
  at: number;
  kind: string;
  plant_uid: string | null;
  ref_seq: number | null;
  member_id: string | null;
  /** JSON text (the command, its outcome, the acknowledgement's note). */
  detail: string;
}

export interface ChainedEntry extends AuditEntry {
  prev_hash: string;
  hash: string;
}

export function canonicalEntry(e: AuditEntry): string {
  return JSON.stringify([e.seq, e.at, e.kind, e.plant_uid, e.ref_seq, e.member_id, e.detail]);
}

export function entryHash(prevHash: string, e: AuditEntry): string {
  return createHash("sha256").update(prevHash).update(canonicalEntry(e)).digest("hex");
}

export type BrokenReason = "prev_mismatch" | "hash_mismatch";
export interface ChainBreak {
  seq: number;
  reason: BrokenReason;
}

/**
 * Walks entries in seq order, continuing from `prevHash` (the hash of the entry before the first one given): the
 * first entry whose previous hash is not the one before it (a row deleted, inserted or reordered) or whose own hash
 * does not match its fields (a row edited), else null. Returns the last hash too, to walk a long chain in pages.
 */
export function verifyEntries(entries: ChainedEntry[], prevHash = GENESIS): { broken: ChainBreak | null; lastHash: string } {
  let prev = prevHash;
  for (const e of entries) {
    if (e.prev_hash !== prev) return { broken: { seq: e.seq, reason: "prev_mismatch" }, lastHash: prev };
    if (entryHash(prev, e) !== e.hash) return { broken: { seq: e.seq, reason: "hash_mismatch" }, lastHash: prev };
    prev = e.hash;
  }
  return { broken: null, lastHash: prev };
}
