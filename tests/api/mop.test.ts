/**
 * SPEC §7 GET /mop/{id} and GET /mop/detail/{id} (issue 27 point 5): a member's plants overview and a plant's detail,
 * scoped by the one visibility rule — a member's own, a member the caller administers (only plants both see), never
 * another's; a plant the caller may not see answers 404 like one that does not exist; an API token's plant limit
 * narrows both. Bare GET /monitor answers as /monitor/gen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiTokenCreated } from "../../domain/api-tokens";
import type { MopDetail, MopOverview } from "../../domain/contract/detail";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";

describe.each(STORES)("GET /mop/{id} and /mop/detail/{id} on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let admin: string;
  let member: { id: string; password: string };
  let session: string;
  let p1 = "";
  let p2 = "";
  const api = () => apiClient(server.baseUrl);

  beforeAll(async () => {
    server = await startServer({ store: storeKind });
    store = await openTestStore(server.databaseUrl);
    admin = (await api().session("admin", ADMIN_PASSWORD)).accessToken;
    const uids: string[] = [];
    for (const name of ["운영 현황 1", "운영 현황 2"]) {
      const created = await api().call<{ plant: { uid: string } }>("POST", "/plant", {
        token: admin,
        json: { name, capa: 250, locality: "전남" },
      });
      expect(created.status, created.text).toBe(201);
      uids.push(created.body.plant.uid);
    }
    [p1, p2] = uids;
    // A level-3 member in no group, linked to the first plant only: administers nobody (SPEC §6).
    member = await createMember(store, { auth: 3, node_seq: null });
    await store.db.insertInto("member_plant").values({ member_id: member.id, plant_uid: p1, created_at: Date.now() }).execute();
    session = (await api().session(member.id, member.password)).accessToken;
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it("a member's own overview holds the plants they see, with totals", async () => {
    const res = await api().call<MopOverview>("GET", `/mop/${member.id}`, { token: session });
    expect(res.status, res.text).toBe(200);
    expect(res.body.member.id).toBe(member.id);
    expect(res.body.plants.map((p) => p.plant_uid)).toEqual([p1]);
    expect(res.body.plants[0]).toMatchObject({ name: "운영 현황 1", capa: 250, locality: "전남" });
    expect(res.body.plants[0].operation.op).toBeTypeOf("object");
    expect(res.body.totals).toMatchObject({ plants: 1, capa: 250, alarm_count: 0 });
    expect(res.body.now).toBeGreaterThan(0);
  });

  it("another member's overview: only for an administrator of theirs, only plants both see", async () => {
    expect((await api().call("GET", "/mop/admin", { token: session })).status).toBe(403);
    const seen = await api().call<MopOverview>("GET", `/mop/${member.id}`, { token: admin });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.plants.map((p) => p.plant_uid)).toEqual([p1]);
    const mine = await api().call<MopOverview>("GET", "/mop/admin", { token: admin });
    expect(mine.body.plants.map((p) => p.plant_uid)).toEqual(expect.arrayContaining([p1, p2]));
    expect((await api().call("GET", "/mop/no_such_member", { token: admin })).status).toBe(404);
    // A level-2 administrator (id area) does not reach the level-10 admin.
    const lower = await createMember(store, { auth: 2 });
    const lowerSession = (await api().session(lower.id, lower.password)).accessToken;
    expect((await api().call("GET", "/mop/admin", { token: lowerSession })).status).toBe(404);
    expect((await api().call("GET", `/mop/${"x".repeat(65)}`, { token: admin })).status).toBe(400);
  });

  it("a plant's detail, for a plant the caller sees; 404 otherwise", async () => {
    const res = await api().call<MopDetail>("GET", `/mop/detail/${p1}`, { token: session });
    expect(res.status, res.text).toBe(200);
    expect(res.body.kind).toBe("plant");
    expect(res.body.plant).toMatchObject({ plant_uid: p1, name: "운영 현황 1" });
    expect(Array.isArray(res.body.devices)).toBe(true);
    expect(Array.isArray(res.body.alarms)).toBe(true);
    for (const uid of [p2, "NO_SUCH_PLANT"]) {
      const hidden = await api().call("GET", `/mop/detail/${uid}`, { token: session });
      expect(hidden.status).toBe(404);
      expect(hidden.body.message).toBe("no_such_plant");
    }
    expect((await api().call("GET", `/mop/detail/${p2}`, { token: admin })).status).toBe(200);
  });

  it("an API token's plant limit narrows both", async () => {
    const made = await api().call<ApiTokenCreated>("POST", "/token", {
      token: admin,
      json: { name: "운영 연동", scope: "read", plants: [p2] },
    });
    expect(made.status, made.text).toBe(201);
    const secret = made.body.secret;
    const overview = await api().call<MopOverview>("GET", "/mop/admin", { token: secret });
    expect(overview.status, overview.text).toBe(200);
    expect(overview.body.plants.map((p) => p.plant_uid)).toEqual([p2]);
    // A plant-limited token reaches no group, so no other member (domain/visibility.ts reachesNode).
    expect((await api().call("GET", `/mop/${member.id}`, { token: secret })).status).toBe(404);
    expect((await api().call("GET", `/mop/detail/${p1}`, { token: secret })).status).toBe(404);
    expect((await api().call("GET", `/mop/detail/${p2}`, { token: secret })).status).toBe(200);
  });

  it("bare GET /monitor answers as GET /monitor/gen", async () => {
    const bare = await api().call("GET", "/monitor", { token: session });
    const gen = await api().call("GET", "/monitor/gen", { token: session });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body.kind).toBe("gen");
    expect(bare.body.monitorList.map((r: { plant_uid: string }) => r.plant_uid)).toEqual(
      gen.body.monitorList.map((r: { plant_uid: string }) => r.plant_uid),
    );
  });
});
