import { sql, type RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "./db";
import { EVERY_TABLE, onTableWrite, rawWrite, tablesWritten } from "./table-writes";

describe("tablesWritten", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore("file::memory:");
  });
  afterAll(() => store.close());

  it("names the tables a statement writes from its operation tree, and none for a read", () => {
    const db = store.db;
    const of = (q: { compile(): { query: RootOperationNode } }) => [...tablesWritten(q.compile().query)];
    expect(of(db.insertInto("alarm").values({ plant_uid: "P" } as never))).toEqual(["alarm"]);
    expect(
      of(
        db
          .updateTable("alarm")
          .set({ ack_at: 1 } as never)
          .where("seq", "=", 2),
      ),
    ).toEqual(["alarm"]);
    expect(of(db.updateTable("plant as p").set({ name: "x" }))).toEqual(["plant"]);
    expect(of(db.deleteFrom("device").where("uid", "in", ["a"]))).toEqual(["device"]);
    expect(
      of(
        db
          .with("gone", (w) => w.deleteFrom("rtu").returning("uid"))
          .selectFrom("gone")
          .selectAll(),
      ),
    ).toEqual(["rtu"]);
    expect(of(db.selectFrom("alarm").select("seq").where("code", ">", 1))).toEqual([]);
  });

  it("takes a raw statement's declared tables; an undeclared raw write counts as every table, a raw read as none", () => {
    const of = (q: { compile(db: unknown): { query: RootOperationNode } }) => [...tablesWritten(q.compile(store.db).query)];
    expect(of(rawWrite(["rollup_daily", "rollup_hourly"], sql`insert into rollup_daily select 1`))).toEqual([
      "rollup_daily",
      "rollup_hourly",
    ]);
    expect(of(sql`update plant set name = ${"x"}`)).toEqual([EVERY_TABLE]);
    expect(of(sql`insert into ${sql.table("alarm")} values (1)`)).toEqual([EVERY_TABLE]);
    expect(of(sql`select count(*) from plant where name = ${"update plant"}`)).toEqual([]);
    expect(of(sql`  with x as (select 1) select * from x`)).toEqual([]);
  });
});

describe("onTableWrite", () => {
  let store: Store;
  const heard: string[][] = [];
  let stop: () => void;
  const now = Date.now();
  const plant = (uid: string) => ({
    uid,
    name: uid,
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
  });
  beforeAll(async () => {
    store = await openStore("file::memory:");
    stop = onTableWrite((tables) => heard.push([...tables].sort()));
  });
  afterAll(async () => {
    stop();
    await store.close();
  });

  it("tells a write outside a transaction at once, and nothing for a read", async () => {
    heard.length = 0;
    await store.db.insertInto("plant").values(plant("W1")).execute();
    expect(heard).toEqual([["plant"]]);
    await store.db.selectFrom("plant").selectAll().execute();
    await sql`select count(*) from plant`.execute(store.db);
    expect(heard).toHaveLength(1);
    await rawWrite(["plant"], sql`update plant set name = ${"renamed"} where uid = ${"W1"}`).execute(store.db);
    expect(heard).toEqual([["plant"], ["plant"]]);
  });

  it("tells a transaction's writes once it committed, and nothing for a rollback", async () => {
    heard.length = 0;
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto("plant").values(plant("W2")).execute();
      await trx.updateTable("plant").set({ name: "x" }).where("uid", "=", "W2").execute();
      expect(heard).toEqual([]); // not yet committed
    });
    expect(heard).toEqual([["plant"]]);
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.deleteFrom("plant").where("uid", "=", "W2").execute();
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(heard).toEqual([["plant"]]);
    expect(await store.db.selectFrom("plant").select("uid").where("uid", "=", "W2").executeTakeFirst()).toBeDefined();
  });
});
