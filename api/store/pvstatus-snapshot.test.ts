import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallClock } from "../clock";
import { openStore, type Store } from "./db";
import { StatusSnapshot } from "./pvstatus-snapshot";

describe("StatusSnapshot", () => {
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

  it("shares one build between calls until invalidated", async () => {
    const snap = new StatusSnapshot(store.db, wallClock);
    const a = await snap.rowsWithVersion(uids);
    const b = await snap.rowsWithVersion(uids.slice(0, 110));
    expect(a.rows).toHaveLength(120);
    expect(b.rows.map((r) => r.plant_uid)).toEqual(uids.slice(0, 110));
    expect(a.version).not.toBeNull();
    expect(b.version).toBe(a.version);
    snap.invalidate();
    const c = await snap.rowsWithVersion(uids);
    expect(c.version).not.toBe(a.version);
  });

  it("expires after its TTL and computes small selections directly when stale", async () => {
    const snap = new StatusSnapshot(store.db, wallClock, 1);
    expect((await snap.rowsWithVersion(uids.slice(0, 3))).version).toBeNull();
    const first = await snap.rowsWithVersion(uids);
    await new Promise((r) => setTimeout(r, 5));
    expect((await snap.rowsWithVersion(uids)).version).not.toBe(first.version);
  });

  it("concurrent callers share one build; a change during the build is not kept", async () => {
    const snap = new StatusSnapshot(store.db, wallClock);
    const [x, y] = await Promise.all([snap.rowsWithVersion(uids), snap.rowsWithVersion(uids)]);
    expect(x.version).toBe(y.version);
    const pending = snap.rowsWithVersion(uids);
    snap.invalidate();
    const during = await pending;
    const after = await snap.rowsWithVersion(uids);
    expect(after.version).not.toBe(during.version);
  });
});
