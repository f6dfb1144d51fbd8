import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./db";

describe("SQLite store transactions", () => {
  let dir: string;
  let store: Store | undefined;
  let other: SQLite.Database | undefined;
  afterEach(async () => {
    other?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("take the write lock at begin, so a read-then-write transaction is not failed by another connection's write", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "db-test-"));
    const file = path.join(dir, "t.db");
    store = await openStore(`file:${file}`);
    other = new SQLite(file);
    other.pragma("busy_timeout = 0");
    const insertElsewhere = other.prepare("insert into node (parent_seq, name, sort_order, created_at) values (null, 'other', 0, 0)");
    const seq = await store.db.transaction().execute(async (trx) => {
      await trx.selectFrom("node").select("seq").execute();
      // Another connection cannot slip a write in between this transaction's read and its write.
      expect(() => insertElsewhere.run()).toThrow(/locked|busy/i);
      const row = await trx.insertInto("node").values({ parent_seq: null, name: "mine", sort_order: 0, created_at: 0 }).returning("seq").executeTakeFirstOrThrow();
      return row.seq;
    });
    expect(seq).toBeGreaterThan(0);
    // Once it committed, the other connection writes as usual.
    expect(insertElsewhere.run().changes).toBe(1);
  });
});
