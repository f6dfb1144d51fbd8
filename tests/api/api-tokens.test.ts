/**
 * API tokens for other systems (issue 27 point 6; domain/api-tokens.ts): a member's token acts as the member, never
 * wider — narrowed to its plants, to reading in the `read` scope — never reaches member or token management, stops at
 * its expiry and at its revocation (on the next call, on another server of the cluster too: PostgreSQL, two servers
 * on one database), and is rate limited per minute with 429 and Retry-After, counted across the servers.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiTokenCreated, ApiTokenListResponse, MemberApiTokensResponse } from "../../domain/api-tokens";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES, type ApiClient } from "../helpers/http";
import { startCluster, type Cluster } from "../helpers/cluster";
import { ADMIN_PASSWORD, createPgDatabase, startServer, type TestServer } from "../helpers/server";

describe.each(STORES)("API tokens on %s", (storeKind) => {
  let a: TestServer;
  let b: TestServer | null = null;
  let store: Store;
  let admin: string;
  let member: { id: string; password: string };
  let session: string;
  let p1 = "";
  let p2 = "";
  const api = (): ApiClient => apiClient(a.baseUrl);

  beforeAll(async () => {
    a = await startServer({ store: storeKind, env: { SERVER_ID: "tokens-a" } });
    // A second server on the same database and secrets: a cluster without the balancer.
    if (storeKind === "postgres")
      b = await startServer({
        store: "postgres",
        env: { SERVER_ID: "tokens-b" },
        reuse: { dataDir: a.dataDir, databaseUrl: a.databaseUrl },
      });
    store = await openTestStore(a.databaseUrl);
    admin = (await api().session("admin", ADMIN_PASSWORD)).accessToken;
    for (const name of ["토큰 시험 1", "토큰 시험 2"]) {
      const created = await api().call<{ plant: { uid: string } }>("POST", "/plant", {
        token: admin,
        json: { name, capa: 10, locality: "경북" },
      });
      expect(created.status, created.text).toBe(201);
      if (!p1) p1 = created.body.plant.uid;
      else p2 = created.body.plant.uid;
    }
    // A level-1 member on the root node: sees and edits both plants, administers no member.
    member = await createMember(store, { auth: 1 });
    session = (await api().session(member.id, member.password)).accessToken;
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await b?.stop({ keepData: true });
    await a?.stop();
  });

  const create = async (json: Record<string, unknown>, token = session) => {
    const res = await api().call<ApiTokenCreated>("POST", "/token", { token, json });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };

  it("creates a token shown once and stored as its SHA-256; lists it with its last use", async () => {
    const made = await create({ name: "SCADA", scope: "read" });
    expect(made.secret).toMatch(/^spt_[A-Za-z0-9_-]{43}$/);
    expect(made.token).toMatchObject({ name: "SCADA", scope: "read", plants: null, lastUsedAt: null, revokedAt: null });
    expect(made.token.perMinute).toBeGreaterThan(0);
    const row = await store.db.selectFrom("api_token").selectAll().where("id", "=", made.token.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(createHash("sha256").update(made.secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(made.secret);

    const plants = await api().call("GET", "/plant", { token: made.secret });
    expect(plants.status, plants.text).toBe(200);
    const list = await api().call<ApiTokenListResponse>("GET", "/token", { token: session });
    expect(list.status).toBe(200);
    const listed = list.body.tokens.find((t) => t.id === made.token.id)!;
    expect(listed.lastUsedAt).toBeGreaterThan(0);
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    expect(list.body.plants.map((p) => p.uid)).toEqual(expect.arrayContaining([p1, p2]));
  });

  it("answers 400 with field errors for bad input, and a plant the member does not see", async () => {
    const res = await api().call("POST", "/token", {
      token: session,
      json: { name: "", scope: "admin", perMinute: 100000, expiresOn: "2001-01-01" },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toMatchObject({ name: "required", scope: "invalid_scope", perMinute: "out_of_range" });
    const past = await api().call("POST", "/token", {
      token: session,
      json: { name: "x", scope: "read", expiresOn: "2001-01-01" },
    });
    expect(past.status).toBe(400);
    expect(past.body.fields).toEqual({ expiresOn: "in_the_past" });
    const foreign = await api().call("POST", "/token", { token: session, json: { name: "x", scope: "read", plants: ["NOPE"] } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toEqual({ plants: "unknown_plant" });
    expect(await store.db.selectFrom("api_token").select("id").where("name", "=", "x").execute()).toEqual([]);
  });

  it("a plant limit narrows what the token sees to those plants", async () => {
    const { secret } = await create({ name: "한 발전소", scope: "read", plants: [p1] });
    const list = await api().call<{ plantList: Array<{ uid: string }> }>("GET", "/plant", { token: secret });
    expect(list.status, list.text).toBe(200);
    expect(list.body.plantList.map((p) => p.uid)).toEqual([p1]);
    expect((await api().call("GET", `/plant/${p1}`, { token: secret })).status).toBe(200);
    expect((await api().call("GET", `/plant/${p2}`, { token: secret })).status).toBe(404);
    expect((await api().call("GET", `/pvstatus/new?plantUid=${p2}`, { token: secret })).status).toBe(404);
    expect((await api().call("GET", `/pvstatus/new?plantUid=${p1}`, { token: secret })).status).toBe(200);
    // The member's own session still sees both (the token's narrower set is not kept for the member).
    const mine = await api().call<{ plantList: Array<{ uid: string }> }>("GET", "/plant", { token: session });
    expect(mine.body.plantList.map((p) => p.uid)).toEqual(expect.arrayContaining([p1, p2]));
    expect((await api().call("GET", `/pvstatus/new?plantUid=${p2}`, { token: session })).status).toBe(200);
  });

  it("the reading scope refuses writes and commands with 403; the command scope refuses configuration", async () => {
    const read = await create({ name: "읽기", scope: "read" });
    const command = await create({ name: "명령", scope: "command" });
    const rename = { json: { name: "바뀐 이름", capa: 10, locality: "경북" } };
    for (const [method, path] of [
      ["PUT", `/plant/${p1}`],
      ["POST", "/alarm/999999/ack"],
      ["POST", "/command/hex"],
      ["GET", "/measurement/setGridAlarmRelease?mac=00:00:00:00:00:00&address=1&kind=1"],
    ] as const) {
      const res = await api().call(method, path, { token: read.secret, ...(method === "GET" ? {} : rename) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
    }
    const put = await api().call("PUT", `/plant/${p1}`, { token: command.secret, ...rename });
    expect(put.status).toBe(403);
    expect(put.body.message).toBe("api_token_scope");
    // An operating call goes through to the route (which finds no such alarm).
    const ack = await api().call("POST", "/alarm/999999/ack", { token: command.secret, json: {} });
    expect(ack.status, ack.text).toBe(404);
    // Narrower than the member: the admin edits the plant with a session, not with a command token.
    const adminCommand = await create({ name: "관리자 명령", scope: "command" }, admin);
    const again = { json: { name: "토큰 시험 1", capa: 10, locality: "경북" } };
    expect((await api().call("PUT", `/plant/${p1}`, { token: adminCommand.secret, ...again })).status).toBe(403);
    const own = await api().call("PUT", `/plant/${p1}`, { token: admin, ...again });
    expect(own.status, own.text).toBe(200);
  });

  it("a token never manages members or tokens, whatever its scope or its member's level", async () => {
    const mine = await create({ name: "관리 시도", scope: "command" });
    const admins = await create({ name: "관리자 토큰", scope: "command" }, admin);
    for (const secret of [mine.secret, admins.secret])
      for (const [method, path, json] of [
        ["GET", "/token", undefined],
        ["POST", "/token", { name: "또", scope: "command" }],
        ["DELETE", `/token/${mine.token.id}`, undefined],
        ["GET", `/token/member/${member.id}`, undefined],
        ["GET", "/member/isAuth", undefined],
        ["GET", "/member/node/list", undefined],
        ["POST", "/member", { id: "tok_made", name: "x", password: "Abcdefg1!", auth: 1 }],
        ["PUT", `/member/${member.id}`, { name: "x" }],
        ["POST", "/member/detail", { kind: "plant", uid: p1 }],
      ] as const) {
        const res = await api().call(method, path, { token: secret, json });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
        expect(res.body.message).toBe("not_for_api_tokens");
      }
    expect(await store.db.selectFrom("member").select("id").where("id", "=", "tok_made").execute()).toEqual([]);
  });

  it("an expired token is refused with 401", async () => {
    const t = await create({ name: "만료", scope: "read" });
    expect((await api().call("GET", "/plant", { token: t.secret })).status).toBe(200);
    await store.db
      .updateTable("api_token")
      .set({ expires_at: Date.now() - 1 })
      .where("id", "=", t.token.id)
      .execute();
    const res = await api().call("GET", "/plant", { token: t.secret });
    expect(res.status).toBe(401);
    const list = await api().call<ApiTokenListResponse>("GET", "/token", { token: session });
    expect(list.body.tokens.find((x) => x.id === t.token.id)!.expiresAt).toBeLessThan(Date.now());
  });

  it("a revoked token is refused on the next call, on every server", async () => {
    const t = await create({ name: "회수", scope: "read" });
    const servers = [a, ...(b ? [b] : [])];
    for (const s of servers) expect((await apiClient(s.baseUrl).call("GET", "/plant", { token: t.secret })).status).toBe(200);
    const revoked = await api().call("DELETE", `/token/${t.token.id}`, { token: session });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.token.revokedAt).toBeGreaterThan(0);
    expect(revoked.body.token.revokedBy).toBe(member.id);
    // No waiting: the token's row is read on every call, on whichever server it arrives.
    for (const s of servers) expect((await apiClient(s.baseUrl).call("GET", "/plant", { token: t.secret })).status).toBe(401);
  });

  it("over its limit per minute a token is answered 429 with Retry-After, counted across the servers", async () => {
    // Not across a minute boundary: the count starts again there.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const t = await create({ name: "한도", scope: "read", perMinute: 3, perDay: 100 });
    const servers = [a, b ?? a, a];
    for (const s of servers) expect((await apiClient(s.baseUrl).call("GET", "/plant", { token: t.secret })).status).toBe(200);
    const over = await apiClient((b ?? a).baseUrl).call("GET", "/plant", { token: t.secret });
    expect(over.status).toBe(429);
    const retry = Number(over.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(over.body).toMatchObject({ message: "rate_limited", retryAfter: retry });
    // Another token of the same member has its own count.
    const other = await create({ name: "다른 한도", scope: "read", perMinute: 3 });
    expect((await api().call("GET", "/plant", { token: other.secret })).status).toBe(200);
  }, 90_000);

  it("an administrator sees and revokes the tokens of members they administer, not above them", async () => {
    const t = await create({ name: "관리 대상", scope: "read" });
    const seen = await api().call<MemberApiTokensResponse>("GET", `/token/member/${member.id}`, { token: admin });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.member.id).toBe(member.id);
    expect(seen.body.tokens.map((x) => x.id)).toContain(t.token.id);
    const revoked = await api().call("DELETE", `/token/${t.token.id}`, { token: admin });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.token.revokedBy).toBe("admin");
    expect((await api().call("GET", "/plant", { token: t.secret })).status).toBe(401);

    // A level-3 member administers no member (SPEC §6): 403; another member's token does not exist for them.
    const admins = await create({ name: "관리자 것", scope: "read" }, admin);
    const plain = await createMember(store, { auth: 3 });
    const plainSession = (await api().session(plain.id, plain.password)).accessToken;
    expect((await api().call("GET", `/token/member/${member.id}`, { token: plainSession })).status).toBe(403);
    expect((await api().call("DELETE", `/token/${admins.token.id}`, { token: plainSession })).status).toBe(404);
    expect((await api().call("DELETE", `/token/${admins.token.id}`, { token: session })).status).toBe(404);
    // A level-2 administrator does not reach the level-10 admin's tokens.
    const lower = await createMember(store, { auth: 2 });
    const lowerSession = (await api().session(lower.id, lower.password)).accessToken;
    expect((await api().call("GET", "/token/member/admin", { token: lowerSession })).status).toBe(404);
    expect((await api().call("DELETE", `/token/${admins.token.id}`, { token: lowerSession })).status).toBe(404);
    expect((await api().call("GET", `/token/member/${member.id}`, { token: lowerSession })).status).toBe(200);
    expect((await api().call("GET", "/plant", { token: admins.secret })).status).toBe(200);
  });

  it("a read-only member (the guest) creates no token", async () => {
    const guest = await createMember(store, { read_only: 1 });
    const g = (await api().session(guest.id, guest.password)).accessToken;
    const res = await api().call("POST", "/token", { token: g, json: { name: "손님", scope: "read" } });
    expect(res.status).toBe(403);
  });
});

/** The same behind HAProxy (tests/helpers/cluster.ts): two servers on one PostgreSQL database, calls through the balancer. */
describe.runIf(STORES.includes("postgres"))("API tokens in a cluster behind HAProxy", () => {
  let cluster: Cluster;
  let db: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    db = await createPgDatabase();
    cluster = await startCluster({ databaseUrl: db.url, servers: 2 });
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    await db?.drop();
  });

  const nodeClients = () => cluster.up().map((n) => apiClient(n.server!.baseUrl));

  it("a revocation holds on every server at once, and the limit is counted across them", async () => {
    const balancer = apiClient(cluster.url);
    const admin = (await balancer.session("admin", ADMIN_PASSWORD)).accessToken;
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const made = await balancer.call<ApiTokenCreated>("POST", "/token", {
      token: admin,
      json: { name: "클러스터", scope: "read", perMinute: 4 },
    });
    expect(made.status, made.text).toBe(201);
    const secret = made.body.secret;
    const [a, b] = nodeClients();
    expect(b).toBeDefined();
    // Two calls on each server: the fifth, on either, is over the limit of four.
    for (const c of [a, b, a, b]) expect((await c.call("GET", "/plant", { token: secret })).status).toBe(200);
    const over = await balancer.call("GET", "/plant", { token: secret });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    const other = await balancer.call<ApiTokenCreated>("POST", "/token", { token: admin, json: { name: "회수", scope: "read" } });
    for (const c of [a, b]) expect((await c.call("GET", "/plant", { token: other.body.secret })).status).toBe(200);
    expect((await a.call("DELETE", `/token/${other.body.token.id}`, { token: admin })).status).toBe(200);
    for (const c of [b, a, balancer]) expect((await c.call("GET", "/plant", { token: other.body.secret })).status).toBe(401);
  }, 120_000);
});
