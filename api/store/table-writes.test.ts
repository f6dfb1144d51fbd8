import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "./db";
import { onTableWrite, tablesWritten } from "./table-writes";

describe("tablesWritten", () => {
  it("names the tables a statement writes, and none for a read", () => {
    expect(tablesWritten('insert into "alarm" ("plant_uid") values (?)')).toEqual(new Set(["alarm"]));
    expect(tablesWritten('update "alarm" set "ack_at" = $1 where "seq" = $2')).toEqual(new Set(["alarm"]));
    expect(tablesWritten('delete from "public"."device" where "uid" in ($1)')).toEqual(new Set(["device"]));
    expect(tablesWritten("INSERT OR REPLACE INTO plant (uid) VALUES (?)")).toEqual(new Set(["plant"]));
    expect(tablesWritten("with x as (select 1) update alarm set level = 1")).toEqual(new Set(["alarm"]));
    expect(tablesWritten('select "updated_at", "deleted" from "alarm" where "raised_at" > ?')).toEqual(new Set());
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
    await sql`update plant set name = ${"renamed"} where uid = ${"W1"}`.execute(store.db);
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
