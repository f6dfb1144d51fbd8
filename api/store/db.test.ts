import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openStore, type Store } from "./db";
import { migrations } from "./migrations/index";

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
    const insertElsewhere = other.prepare(
      "insert into node (parent_seq, name, sort_order, created_at) values (null, 'other', 0, 0)",
    );
    const seq = await store.db.transaction().execute(async (trx) => {
      await trx.selectFrom("node").select("seq").execute();
      // Another connection cannot slip a write in between this transaction's read and its write.
      expect(() => insertElsewhere.run()).toThrow(/locked|busy/i);
      const row = await trx
        .insertInto("node")
        .values({ parent_seq: null, name: "mine", sort_order: 0, created_at: 0 })
        .returning("seq")
        .executeTakeFirstOrThrow();
      return row.seq;
    });
    expect(seq).toBeGreaterThan(0);
    // Once it committed, the other connection writes as usual.
    expect(insertElsewhere.run().changes).toBe(1);
  });
});

describe("migrations (Kysely's Migrator)", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const tables = (file: string) => {
    const db = new SQLite(file, { readonly: true });
    try {
      return (db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  };
  const logged = (file: string) => {
    const db = new SQLite(file, { readonly: true });
    try {
      return (db.prepare("select name from kysely_migration order by name").all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  };

  it("a new store runs every migration once and logs it in kysely_migration; a second open runs none", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "db-test-"));
    const file = path.join(dir, "t.db");
    let store = await openStore(`file:${file}`);
    expect(await migrate(store)).toEqual([]);
    await store.close();
    expect(logged(file)).toEqual(migrations.map((m) => m.name).sort());
    expect(tables(file)).not.toContain("schema_migration");
    store = await openStore(`file:${file}`);
    expect(await migrate(store)).toEqual([]);
    await store.close();
  });

  it("a store made before the switch keeps its log (schema_migration moves over) and runs only what it lacks", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "db-test-"));
    const file = path.join(dir, "t.db");
    await (await openStore(`file:${file}`)).close();
    // Turn it into a store of the old runner that has not yet seen 0007_statistics.
    const raw = new SQLite(file);
    raw.exec(`create table schema_migration (name text primary key, applied_at integer not null);
      insert into schema_migration (name, applied_at) select name, 1700000000000 from kysely_migration where name <> '0007_statistics';
      drop table kysely_migration; drop table kysely_migration_lock; drop table report_subscription;`);
    raw.close();
    const store = await openStore(`file:${file}`);
    await store.close();
    expect(tables(file)).not.toContain("schema_migration");
    expect(tables(file)).toContain("report_subscription");
    expect(logged(file)).toEqual(migrations.map((m) => m.name).sort());
    const again = await openStore(`file:${file}`);
    expect(await migrate(again)).toEqual([]);
    await again.close();
  });
});
