import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallClock } from "../clock";
import { openStore, type Store } from "../store/db";
import { SMALL_SELECTION, StatusRows } from "./status-rows";

describe("StatusRows", () => {
  let store: Store;
  const uids = Array.from({ length: 120 }, (_, i) => `SP${String(i).padStart(3, "0")}`);
  beforeAll(async () => {
    store = await openStore("file::memory:");
    const now = Date.now();
    await store.db
      .insertInto("plant")
      .values(
        uids.map((uid) => ({
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
        })),
      )
      .execute();
  });
  afterAll(() => store.close());

  it("computes each plant's row once and recomputes only the plants that changed", async () => {
    const rows = new StatusRows(store.db, wallClock, { store });
    const first = await rows.rowsFor(uids);
    expect(first.map((r) => r.plant_uid)).toEqual(uids);
    expect(rows.computed).toBe(120);
    // A subset in another order, from the kept rows.
    const some = [uids[7]!, ...uids.slice(10, 110), uids[3]!];
    expect((await rows.rowsFor(some)).map((r) => r.plant_uid)).toEqual(some);
    expect(rows.computed).toBe(120);
    rows.plantsChanged([uids[5]!, uids[9]!]);
    await rows.rowsFor(uids);
    expect(rows.computed).toBe(122);
    // Unknown plants are skipped.
    expect(await rows.rowsFor([...uids, "SP-GONE"])).toHaveLength(120);
  });

  it("drops every row when a plant is written, and computes small selections directly", async () => {
    const rows = new StatusRows(store.db, wallClock, { store });
    await rows.rowsFor(uids);
    await store.db.updateTable("plant").set({ name: "renamed" }).where("uid", "=", uids[0]!).execute();
    const after = await rows.rowsFor(uids);
    expect(after[0]!.name).toBe("renamed");
    expect(rows.computed).toBe(240);
    const few = uids.slice(0, SMALL_SELECTION - 1);
    await rows.rowsFor(few);
    expect(rows.computed).toBe(240 + few.length);
  });

  it("does not keep a row computed while its plant changed", async () => {
    const rows = new StatusRows(store.db, wallClock, { store });
    const pending = rows.rowsFor(uids);
    rows.plantsChanged([uids[1]!]);
    await pending;
    await rows.rowsFor(uids);
    expect(rows.computed).toBe(121);
  });
});
