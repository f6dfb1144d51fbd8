import SQLite from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../store/db";
import type { ClusterNotices } from "./answer-cache";
import { TableAnswers } from "./table-answers";
import { KEPT_TABLES } from "./kept-tables";
import { KEPT_TABLES_0019 } from "../store/migrations/0019_kept_table_notices";
import { sql } from "kysely";

/** Servers' notices through one in-memory channel (PostgreSQL LISTEN/NOTIFY delivers to every server, the sender too). */
function channel() {
  const listeners: Array<(p: string) => void> = [];
  const resyncs: Array<() => void> = [];
  const state = { up: true };
  const notices: ClusterNotices = {
    listening: () => state.up,
    on: (_c, fn) => void listeners.push(fn),
    send: async (_c, payload) => {
      for (const l of listeners) l(payload);
    },
    onResync: (fn) => void resyncs.push(fn),
  };
  return { notices, state, resync: () => resyncs.forEach((r) => r()) };
}

describe("TableAnswers", () => {
  let store: Store;
  const now = Date.now();
  beforeAll(async () => {
    store = await openStore("file::memory:");
    await store.db
      .insertInto("plant")
      .values({
        uid: "T1",
        name: "first",
        alias: null,
        capa: 100,
        locality: null,
        address: null,
        lat: null,
        lng: null,
        node_seq: null,
        package_seq: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  afterAll(() => store.close());

  const nameOf = async () =>
    (await store.db.selectFrom("plant").select("name").where("uid", "=", "T1").executeTakeFirstOrThrow()).name;
  const opts = { maxBytes: 1 << 20, ttlMs: 60_000 };

  it("answers again from what it kept until a table it read is written", async () => {
    const cache = new TableAnswers({ channel: "solar_test_a", reads: "alarmList", ...opts });
    let computed = 0;
    const ask = () => cache.of({ q: 1 }, async () => ({ name: await nameOf(), n: ++computed }));
    expect(JSON.parse((await ask()).body.toString())).toEqual({ name: "first", n: 1 });
    expect(JSON.parse((await ask()).body.toString())).toEqual({ name: "first", n: 1 });
    // Another key is its own answer.
    await cache.of({ q: 2 }, async () => ({ n: ++computed }));
    expect(computed).toBe(2);
    // A write to another table changes nothing.
    await store.db.insertInto("node").values({ name: "g", parent_seq: null, created_at: now }).execute();
    expect(JSON.parse((await ask()).body.toString()).n).toBe(1);
    // A committed write of the table read: the next answer is computed again and shows it.
    await store.db.updateTable("plant").set({ name: "second" }).where("uid", "=", "T1").execute();
    expect(JSON.parse((await ask()).body.toString())).toEqual({ name: "second", n: 3 });
  });

  it("does not keep an answer whose computation a write overtook", async () => {
    const cache = new TableAnswers({ channel: "solar_test_b", reads: "alarmList", ...opts });
    let computed = 0;
    const first = await cache.of({ q: 1 }, async () => {
      const name = await nameOf();
      await store.db.updateTable("plant").set({ name: "third" }).where("uid", "=", "T1").execute();
      return { name, n: ++computed };
    });
    expect(JSON.parse(first.body.toString()).name).not.toBe("third");
    const again = await cache.of({ q: 1 }, async () => ({ name: await nameOf(), n: ++computed }));
    expect(JSON.parse(again.body.toString())).toEqual({ name: "third", n: 2 });
  });

  it("drops on the other servers of a cluster what a write on one of them touched", async () => {
    const { notices, resync } = channel();
    const a = new TableAnswers({ channel: "solar_test_c", reads: "alarmList", ...opts, notices });
    const b = new TableAnswers({ channel: "solar_test_c", reads: "alarmList", ...opts, notices });
    let n = 0;
    await b.of({ k: 1 }, async () => ({ n: ++n }));
    // a's table write (a change it heard here) reaches b through the notices.
    a.changed({ tables: ["alarm"] });
    await new Promise((r) => setImmediate(r));
    expect(b.get(TableAnswers.keyOf({ k: 1 }))).toBeUndefined();
    await b.of({ k: 1 }, async () => ({ n: ++n }));
    expect(b.size).toBe(1);
    resync();
    expect(b.size).toBe(0);
  });

  it("serves and keeps nothing while its notice channel is down", async () => {
    const { notices, state } = channel();
    const cache = new TableAnswers({ channel: "solar_test_e", reads: "alarmList", ...opts, notices });
    let n = 0;
    const ask = async () => JSON.parse((await cache.of({ k: 1 }, async () => ({ n: ++n }))).body.toString()).n;
    expect(await ask()).toBe(1);
    expect(await ask()).toBe(1);
    state.up = false;
    expect(await ask()).toBe(2);
    expect(await ask()).toBe(3);
    state.up = true;
    expect(await ask()).toBe(1); // what it kept before (the resync on reconnecting drops it, tested above)
  });

  it("on SQLite, drops its answers when another connection committed to the file", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "answers-")), "a.db");
    const mine = await openStore(`file:${file}`);
    // Another process's handle: a connection of its own, its statements not through this process's driver.
    const theirs = new SQLite(file);
    try {
      const cache = new TableAnswers({ channel: "solar_test_d", reads: "visiblePlants", ...opts, store: mine });
      const count = async () =>
        (
          await mine.db
            .selectFrom("node")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n;
      const ask = async () =>
        JSON.parse((await cache.of({ k: 1 }, async () => ({ n: Number(await count()) }))).body.toString()).n;
      const before = await ask();
      expect(await ask()).toBe(before);
      theirs.prepare("insert into node (name, parent_seq, sort_order, created_at) values ('x', null, 0, ?)").run(now);
      expect(await ask()).toBe(before + 1);
    } finally {
      theirs.close();
      await mine.close();
    }
  });
});

describe("the kept answers' tables", () => {
  it("are exactly the tables PostgreSQL notices writes to (migration 0019)", () => {
    expect([...KEPT_TABLES].sort()).toEqual([...KEPT_TABLES_0019].sort());
  });

  it("a raw write that did not declare its tables drops every kept answer", async () => {
    const store = await openStore("file::memory:");
    try {
      const cache = new TableAnswers({ channel: "solar_test_f", reads: "notices", maxBytes: 1 << 20, ttlMs: 60_000 });
      let n = 0;
      await cache.of({ k: 1 }, async () => ({ n: ++n }));
      await sql`update rollup_daily set samples = 0 where 1 = 0`.execute(store.db);
      await cache.of({ k: 1 }, async () => ({ n: ++n }));
      expect(n).toBe(2);
    } finally {
      await store.close();
    }
  });
});
