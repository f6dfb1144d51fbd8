/**
 * Every permission decision that a server keeps (api/cache/kept-tables.ts: session liveness, the plants a member
 * sees on the status screens, a member's report scope) is refused on the next request once access is revoked —
 * through the API and straight in the store — on the server that wrote at once, and on another server of a cluster
 * (PostgreSQL: two servers on one database) as soon as the notice of the write has arrived.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES, type ApiClient } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { pollUntil } from "../helpers/wait";

/** Asks until `refused` holds (the other server hears of a write when its notice arrives), with a deadline. */
const eventually = (ask: () => Promise<number>, refused: (status: number) => boolean) =>
  pollUntil(ask, refused, { ms: 5_000, every: 25 });

describe.each(STORES)("revoked access is refused on the next request, on %s", (storeKind) => {
  let a: TestServer;
  let b: TestServer | null = null;
  let store: Store;
  let admin: string;
  let plant = "";
  let member: { id: string; password: string };
  const clients = () => [apiClient(a.baseUrl), ...(b ? [apiClient(b.baseUrl)] : [])];

  beforeAll(async () => {
    a = await startServer({ store: storeKind, env: { SERVER_ID: "revoke-a" } });
    // A second server on the same database (and the same secrets): a cluster without the balancer.
    if (storeKind === "postgres")
      b = await startServer({
        store: "postgres",
        env: { SERVER_ID: "revoke-b" },
        reuse: { dataDir: a.dataDir, databaseUrl: a.databaseUrl },
      });
    store = await openTestStore(a.databaseUrl);
    // A member without a group: they see the plant only through its link.
    member = await createMember(store, { node_seq: null, auth: 1 });
    admin = (await apiClient(a.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
    const created = await apiClient(a.baseUrl).call<{ plant: { uid: string } }>("POST", "/plant", {
      token: admin,
      json: { name: "회수 시험 발전소", capa: 10, locality: "경북" },
    });
    expect(created.status, created.text).toBe(201);
    plant = created.body.plant.uid;
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await b?.stop({ keepData: true });
    await a?.stop();
  });

  const link = () =>
    store.db.insertInto("member_plant").values({ member_id: member.id, plant_uid: plant, created_at: Date.now() }).execute();

  /** Each decision: how to ask, and whether an answer says "refused". */
  const decisions: Array<{ name: string; ask: (c: ApiClient, token: string) => Promise<number> }> = [
    {
      name: "the plants a member sees (GET /pvstatus/new)",
      ask: async (c, token) => (await c.call("GET", `/pvstatus/new?plantUid=${plant}`, { token })).status,
    },
    {
      name: "a member's report scope (GET /rpi/statistics/scope)",
      ask: async (c, token) => {
        const res = await c.call<{ plants: Array<{ uid: string }> }>("GET", `/rpi/statistics/scope?plant=${plant}`, { token });
        return res.status === 200 && !res.body.plants.some((p) => p.uid === plant) ? 404 : res.status;
      },
    },
  ];
  const refused = (s: number) => s === 403 || s === 404;

  for (const d of decisions) {
    for (const how of ["through the API", "straight in the store"] as const)
      it(`${d.name}: unlinked ${how}`, async () => {
        await link();
        const token = (await apiClient(a.baseUrl).session(member.id, member.password)).accessToken;
        // Each server has the decision kept now.
        for (const c of clients())
          expect(
            await eventually(
              () => d.ask(c, token),
              (s) => s === 200,
            ),
          ).toBe(200);
        for (const c of clients()) expect(await d.ask(c, token)).toBe(200);
        if (how === "through the API") {
          const del = await apiClient(a.baseUrl).call("DELETE", `/member/link/${member.id}/${plant}`, { token: admin });
          expect(del.status, del.text).toBe(200);
        } else await store.db.deleteFrom("member_plant").where("member_id", "=", member.id).execute();
        // The writing server at once: on the API's commit, or SQLite's data_version for a write by another connection;
        // a write straight into PostgreSQL when the database's notice arrives (migration 0019), like any other server.
        if (how === "through the API" || storeKind === "sqlite")
          expect(await d.ask(apiClient(a.baseUrl), token)).toSatisfy(refused);
        for (const c of clients()) expect(await eventually(() => d.ask(c, token), refused)).toSatisfy(refused);
      });
  }

  it("session liveness: a logout through the API, and a revocation straight in the store", async () => {
    const c = apiClient(a.baseUrl);
    const s = await c.session(member.id, member.password);
    for (const x of clients()) expect((await x.isAuth(s.accessToken)).status).toBe(200);
    expect((await c.call("GET", "/member/logout", { token: s.accessToken })).status).toBe(200);
    expect((await c.isAuth(s.accessToken)).status).toBe(401);
    if (b)
      expect(
        await eventually(
          async () => (await apiClient(b!.baseUrl).isAuth(s.accessToken)).status,
          (x) => x === 401,
        ),
      ).toBe(401);

    const t = await c.session(member.id, member.password);
    for (const x of clients()) expect((await x.isAuth(t.accessToken)).status).toBe(200);
    await store.db
      .updateTable("token_family")
      .set({ revoked_at: Date.now(), revoked_reason: "by_hand" })
      .where("id", "=", t.sessionId)
      .execute();
    if (storeKind === "sqlite") expect((await c.isAuth(t.accessToken)).status).toBe(401);
    for (const x of clients())
      expect(
        await eventually(
          async () => (await x.isAuth(t.accessToken)).status,
          (v) => v === 401,
        ),
      ).toBe(401);
  });
});
