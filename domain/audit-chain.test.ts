import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GENESIS, canonicalEntry, entryHash, verifyEntries, type AuditEntry, type ChainedEntry } from "./audit-chain";

function chain(entries: AuditEntry[]): ChainedEntry[] {
  let prev = GENESIS;
  return entries.map((e) => {
    const hash = entryHash(prev, e);
    const out = { ...e, prev_hash: prev, hash };
    prev = hash;
    return out;
  });
}

const base: AuditEntry[] = [
  { seq: 1, at: 1000, kind: "command", plant_uid: "P1", ref_seq: 7, member_id: "kim", detail: '{"action":"off"}' },
  { seq: 2, at: 1500, kind: "command_result", plant_uid: "P1", ref_seq: 7, member_id: null, detail: '{"status":"done"}' },
  { seq: 3, at: 2000, kind: "alarm_ack", plant_uid: "P2", ref_seq: 11, member_id: "lee", detail: '{"note":"확인"}' },
];

describe("audit chain", () => {
  it("hashes sha256(previous hash + canonical entry), the entry as a fixed-order array", () => {
    expect(canonicalEntry(base[0])).toBe('[1,1000,"command","P1",7,"kim","{\\"action\\":\\"off\\"}"]');
    const expected = createHash("sha256")
      .update(GENESIS + '[1,1000,"command","P1",7,"kim","{\\"action\\":\\"off\\"}"]')
      .digest("hex");
    expect(entryHash(GENESIS, base[0])).toBe(expected);
  });

  it("an intact chain verifies, and pages continue from the last hash", () => {
    const c = chain(base);
    expect(verifyEntries(c).broken).toBeNull();
    const first = verifyEntries(c.slice(0, 2));
    expect(verifyEntries(c.slice(2), first.lastHash)).toEqual({ broken: null, lastHash: c[2].hash });
  });

  it("an edited field is reported at its entry", () => {
    const c = chain(base);
    c[1] = { ...c[1], detail: '{"status":"failed"}' };
    expect(verifyEntries(c).broken).toEqual({ seq: 2, reason: "hash_mismatch" });
  });

  it("an edited field with its hash recomputed breaks the next entry's link", () => {
    const c = chain(base);
    const edited = { ...c[0], member_id: "park" };
    c[0] = { ...edited, hash: entryHash(GENESIS, edited) };
    expect(verifyEntries(c).broken).toEqual({ seq: 2, reason: "prev_mismatch" });
  });

  it("a deleted entry breaks the link of the one after it", () => {
    const c = chain(base);
    expect(verifyEntries([c[0], c[2]]).broken).toEqual({ seq: 3, reason: "prev_mismatch" });
  });
});
