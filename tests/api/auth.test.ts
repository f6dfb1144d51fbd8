/**
 * /api authentication against a real server, on the embedded SQLite store and on PostgreSQL:
 * login, input validation, throttling, the 401 {isLogin:false} rule, token claims,
 * refresh-token rotation with reuse detection, and logout.
 */
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THROTTLE } from "../../api/auth/throttle";
import { decodeTokenPayload, type AccessClaims } from "../../domain/contract/auth";
import { GUEST_ID, GUEST_PASSWORD } from "../../domain/guest";
import { createMember, openTestStore, readSecrets, tokenFamily, uniqueId, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";

/** The claims SPEC §3 "User state" lists, plus exp and id. */
const USER_STATE_CLAIMS = [
  "id",
  "exp",
  "auth",
  "service",
  "nodeName",
  "logo",
  "S3_DOMAIN",
  "diagram",
  "cctv",
  "page",
  "phone",
  "helmetName",
  "plantName",
  "alarmCount",
] as const;

describe.each(STORES)("auth API on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;

  beforeAll(async () => {
    server = await startServer({ store: storeKind });
    store = await openTestStore(server.databaseUrl);
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  describe("login", () => {
    it("answers tokens, a session id and pwd_yn for the right password", async () => {
      const res = await apiClient(server.baseUrl).login("admin", ADMIN_PASSWORD);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        sessionId: expect.any(String),
        pwd_yn: 0,
        deviceToken: expect.any(String),
      });
      const claims = decodeTokenPayload<AccessClaims>(res.body.accessToken)!;
      expect(claims.id).toBe("admin");
      expect(claims.sid).toBe(res.body.sessionId);
      expect(claims.exp - claims.iat).toBe(900); // ACCESS_TOKEN_TTL default
      const family = await tokenFamily(store, res.body.sessionId);
      expect(family).toMatchObject({ member_id: "admin", revoked_at: null });
    });

    it("logs the guest in with the fixed guest credentials", async () => {
      const res = await apiClient(server.baseUrl).login(GUEST_ID, GUEST_PASSWORD);
      expect(res.status).toBe(200);
      expect(decodeTokenPayload<AccessClaims>(res.body.accessToken)).toMatchObject({ id: GUEST_ID, readOnly: 1 });
    });

    it("gives the same 401 login_failure for a wrong password, an unknown id and a disabled member", async () => {
      const disabled = await createMember(store, { use_yn: 0 });
      const wrong = await apiClient(server.baseUrl).login("admin", "not-the-password");
      const unknown = await apiClient(server.baseUrl).login(uniqueId("nobody"), "whatever-123");
      const off = await apiClient(server.baseUrl).login(disabled.id, disabled.password);
      for (const res of [wrong, unknown, off]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: "login_failure" });
      }
      expect(unknown.text).toBe(wrong.text);
      expect(off.text).toBe(wrong.text);
    });

    it("answers 400 with field errors for missing or empty fields", async () => {
      const c = apiClient(server.baseUrl);
      const none = await c.call("POST", "/member/login", { json: {} });
      expect(none.status).toBe(400);
      expect(none.body.message).toBe("invalid_input");
      expect(Object.keys(none.body.fields).sort()).toEqual(["id", "password"]);

      const empty = await c.call("POST", "/member/login", { json: { id: "  ", password: "" } });
      expect(empty.status).toBe(400);
      expect(empty.body.fields).toEqual({ id: "required", password: "required" });

      const wrongTypes = await c.call("POST", "/member/login", { json: { id: 42, password: ["x"] } });
      expect(wrongTypes.status).toBe(400);
      expect(Object.keys(wrongTypes.body.fields).sort()).toEqual(["id", "password"]);
    });

    it("answers 400, never 500, for malformed or non-JSON bodies", async () => {
      const c = apiClient(server.baseUrl);
      const bodies: Array<[string, string]> = [
        ['{"id": "admin", "password": ', "application/json"],
        ["null", "application/json"],
        ['"admin"', "application/json"],
        ["[1,2]", "application/json"],
        ["id=admin&password=admin1234!", "application/x-www-form-urlencoded"],
        ["", "application/json"],
      ];
      for (const [raw, contentType] of bodies) {
        const res = await c.call("POST", "/member/login", { raw, contentType });
        expect(res.status, `${contentType} ${raw}`).toBe(400);
        expect(res.headers.get("content-type")).toMatch(/application\/json/);
        expect(typeof res.body.message).toBe("string");
      }
    });
  });

  describe("throttling", () => {
    it("after 5 failures for one id even the right password waits, from any address, then it unlocks", async () => {
      const m = await createMember(store);
      const c = apiClient(server.baseUrl);
      for (let i = 0; i < THROTTLE.freeFailures; i++) {
        expect((await c.login(m.id, `wrong-${i}-pass`)).status).toBe(401);
      }
      const blocked = await c.login(m.id, m.password);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get("retry-after")).toBe(String(THROTTLE.baseDelayMs / 1000));
      expect(blocked.body).toEqual({ message: "too_many_attempts", retryAfter: THROTTLE.baseDelayMs / 1000 });
      // The id is throttled, not only the address.
      expect((await apiClient(server.baseUrl).login(m.id, m.password)).status).toBe(429);
      // The owner is not locked out for long: after Retry-After the right password works.
      await expect.poll(async () => (await c.login(m.id, m.password)).status, { timeout: 5_000, interval: 200 }).toBe(200);
      // A success forgets the failures: one more wrong password is a plain 401 again.
      expect((await c.login(m.id, "wrong-again-1")).status).toBe(401);
    });

    it("throttles one address that tries many ids, but not other addresses", async () => {
      const m = await createMember(store);
      const attacker = apiClient(server.baseUrl);
      for (let i = 0; i < THROTTLE.freeFailures; i++) {
        expect((await attacker.login(uniqueId("guess"), "password-1")).status).toBe(401);
      }
      const res = await attacker.login(m.id, m.password);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await apiClient(server.baseUrl).login(m.id, m.password)).status).toBe(200);
    });

    it("grows the wait exponentially up to the cap and forgets after the quiet window", async () => {
      const m = await createMember(store);
      const key = `id:${m.id.toLowerCase()}`;
      const setState = async (failures: number, lastFailureAt: number) => {
        await store.db.deleteFrom("login_throttle").where("key", "=", key).execute();
        await store.db
          .insertInto("login_throttle")
          .values({ key, failures, first_failure_at: lastFailureAt, last_failure_at: lastFailureAt })
          .execute();
      };
      const c = apiClient(server.baseUrl);

      await setState(THROTTLE.freeFailures + 3, Date.now());
      let res = await c.login(m.id, m.password);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe(String((THROTTLE.baseDelayMs * 2 ** 3) / 1000));

      await setState(100, Date.now());
      res = await c.login(m.id, m.password);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe(String(THROTTLE.maxDelayMs / 1000));

      await setState(100, Date.now() - THROTTLE.forgetAfterMs - 1_000);
      res = await c.login(m.id, m.password);
      expect(res.status).toBe(200);
      const left = await store.db.selectFrom("login_throttle").selectAll().where("key", "=", key).executeTakeFirst();
      expect(left).toBeUndefined();
    });
  });

  describe("every /api call needs a valid token", () => {
    const protectedCalls: Array<[string, string]> = [
      ["GET", "/member"],
      ["GET", "/member/isAuth"],
      ["GET", "/member/logout"],
      ["GET", "/member/check/id/admin"],
      ["PUT", "/member/admin/password"],
      ["GET", "/plant"],
      ["POST", "/no/such/call"],
    ];

    it("answers 401 {isLogin:false} without a token", async () => {
      const c = apiClient(server.baseUrl);
      for (const [method, path] of protectedCalls) {
        const res = await c.call(method, path, method === "GET" ? {} : { json: {} });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body.isLogin, `${method} ${path}`).toBe(false);
      }
    });

    it("answers 401 {isLogin:false} for bad, foreign, expired and refresh tokens", async () => {
      const c = apiClient(server.baseUrl);
      const good = await c.session("admin", ADMIN_PASSWORD);
      const claims = decodeTokenPayload<AccessClaims>(good.accessToken)!;
      const { iat: _iat, exp: _exp, ...rest } = claims;
      const sign = (secret: string, exp: number) =>
        new SignJWT({ ...rest })
          .setProtectedHeader({ alg: "HS256" })
          .setIssuer("solar-portal")
          .setIssuedAt(exp - 900)
          .setExpirationTime(exp)
          .sign(new TextEncoder().encode(secret));
      const now = Math.floor(Date.now() / 1000);
      const realSecret = readSecrets(server.dataDir).jwt;
      // Sanity: the forging works, so the rejections below are about the token, not the forging.
      expect((await c.isAuth(await sign(realSecret, now + 60))).status).toBe(200);

      const bad: Record<string, Record<string, string>> = {
        garbage: { authorization: "Bearer not.a.token" },
        "wrong scheme": { authorization: `Basic ${good.accessToken}` },
        "empty bearer": { authorization: "Bearer " },
        "refresh token as access token": { authorization: `Bearer ${good.refreshToken}` },
        "foreign secret": { authorization: `Bearer ${await sign("x".repeat(48), now + 600)}` },
        expired: { authorization: `Bearer ${await sign(realSecret, now - 5)}` },
        "alg none": {
          authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString("base64url")}.${good.accessToken.split(".")[1]}.`,
        },
      };
      for (const [name, headers] of Object.entries(bad)) {
        for (const [method, path] of protectedCalls.slice(0, 4)) {
          const res = await c.call(method, path, { headers });
          expect(res.status, `${name}: ${method} ${path}`).toBe(401);
          expect(res.body.isLogin, `${name}: ${method} ${path}`).toBe(false);
        }
      }
    });

    it("answers 404 for an unknown call once authenticated", async () => {
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session("admin", ADMIN_PASSWORD);
      const res = await c.call("GET", "/no/such/call", { token: accessToken });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("no_such_call");
    });
  });

  describe("isAuth", () => {
    it("carries every SPEC §3 User-state claim", async () => {
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session("admin", ADMIN_PASSWORD);
      const res = await c.isAuth(accessToken);
      expect(res.status).toBe(200);
      expect(res.body.isLogin).toBe(true);
      for (const claim of USER_STATE_CLAIMS) expect(res.body, claim).toHaveProperty(claim);
      const token = decodeTokenPayload<Record<string, unknown>>(accessToken)!;
      for (const claim of USER_STATE_CLAIMS) expect(token[claim], claim).toEqual(res.body[claim]);
      expect(res.body).toMatchObject({
        id: "admin",
        auth: 10,
        nodeName: expect.any(String),
        logo: expect.any(String),
        S3_DOMAIN: expect.any(String),
        phone: expect.any(String),
        helmetName: expect.any(String),
        plantName: expect.any(String),
        alarmCount: expect.any(Number),
      });
      expect(Number.isInteger(res.body.service)).toBe(true);
      expect(res.body.service).toBeGreaterThanOrEqual(0);
      expect(res.body.service).toBeLessThanOrEqual(0xffff);
      expect(res.body.exp * 1000).toBeGreaterThan(Date.now());
    });

    it("reflects the member's own service mask, level and flags", async () => {
      const m = await createMember(store, { auth: 4, service: 0b101, diagram: 0, cctv: 1, page: 0, phone: "010-1234-5678" });
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session(m.id, m.password);
      const res = await c.isAuth(accessToken);
      expect(res.body).toMatchObject({ id: m.id, auth: 4, service: 0b101, diagram: 0, cctv: 1, page: 0, phone: "010-1234-5678" });
    });
  });

  describe("refresh-token rotation", () => {
    it("rotates on use and the renewed access token works", async () => {
      const c = apiClient(server.baseUrl);
      const first = await c.session("admin", ADMIN_PASSWORD);
      const res = await c.refreshAccess(first.refreshToken);
      expect(res.status).toBe(200);
      expect(res.body.sessionId).toBe(first.sessionId);
      expect(res.body.refreshToken).not.toBe(first.refreshToken);
      expect((await c.isAuth(res.body.accessToken)).status).toBe(200);
      // The new refresh token works in turn.
      const next = await c.refreshAccess(res.body.refreshToken);
      expect(next.status).toBe(200);
      expect(next.body.refreshToken).not.toBe(res.body.refreshToken);
    });

    it("tolerates the immediately previous token within the grace window (parallel renewals)", async () => {
      const c = apiClient(server.baseUrl);
      const first = await c.session("admin", ADMIN_PASSWORD);
      const a = await c.refreshAccess(first.refreshToken);
      const b = await c.refreshAccess(first.refreshToken);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      // The racer gets the current token, not a new branch of the family.
      expect(b.body.refreshToken).toBe(a.body.refreshToken);
      expect((await c.refreshAccess(a.body.refreshToken)).status).toBe(200);
    });

    it("revokes the whole family when an older token is presented again", async () => {
      const c = apiClient(server.baseUrl);
      const r0 = await c.session("admin", ADMIN_PASSWORD);
      const r1 = (await c.refreshAccess(r0.refreshToken)).body;
      const r2 = (await c.refreshAccess(r1.refreshToken)).body;
      expect((await c.isAuth(r2.accessToken)).status).toBe(200);
      // r0 is now neither the current nor the previous token: a theft signal.
      const reuse = await c.refreshAccess(r0.refreshToken);
      expect(reuse.status).toBe(401);
      expect(reuse.body).toEqual({ message: "renewal_token_failure!", isLogin: false });
      expect((await c.refreshAccess(r2.refreshToken)).status).toBe(401);
      expect((await c.isAuth(r2.accessToken)).status).toBe(401);
      expect(await tokenFamily(store, r0.sessionId)).toMatchObject({ revoked_reason: "refresh_token_reuse" });
      // Other sessions of the member are not touched.
      const other = await c.session("admin", ADMIN_PASSWORD);
      expect((await c.isAuth(other.accessToken)).status).toBe(200);
    });

    it("renews the refresh token itself and slides the session's expiry", async () => {
      const c = apiClient(server.baseUrl);
      const first = await c.session("admin", ADMIN_PASSWORD);
      const before = (await tokenFamily(store, first.sessionId))!;
      const res = await c.refreshRefresh(first.refreshToken);
      expect(res.status).toBe(200);
      expect(res.body.refreshToken).not.toBe(first.refreshToken);
      const after = (await tokenFamily(store, first.sessionId))!;
      expect(after.expires_at).toBeGreaterThanOrEqual(before.expires_at);
      expect(after.previous_jti).toBe(before.current_jti);
      expect((await c.isAuth(res.body.accessToken)).status).toBe(200);
    });

    it("refuses renewal without a token, with garbage or with an access token", async () => {
      const c = apiClient(server.baseUrl);
      const s = await c.session("admin", ADMIN_PASSWORD);
      for (const token of [undefined, "garbage", s.accessToken]) {
        for (const path of ["/member/refresh/accessToken", "/member/refresh/refreshToken"]) {
          const res = await c.call("PUT", path, { token });
          expect(res.status, `${path} ${token?.slice(0, 10)}`).toBe(401);
          expect(res.body.isLogin).toBe(false);
        }
      }
    });

    it("refuses renewal once the member is disabled", async () => {
      const m = await createMember(store);
      const c = apiClient(server.baseUrl);
      const s = await c.session(m.id, m.password);
      await store.db.updateTable("member").set({ use_yn: 0 }).where("id", "=", m.id).execute();
      expect((await c.refreshAccess(s.refreshToken)).status).toBe(401);
    });
  });

  describe("logout", () => {
    it.each(["GET", "POST"])("%s /member/logout revokes the session at once", async (method) => {
      const c = apiClient(server.baseUrl);
      const s = await c.session("admin", ADMIN_PASSWORD);
      const res = await c.call(method, "/member/logout", { token: s.accessToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ isLogin: false });
      expect((await c.isAuth(s.accessToken)).status).toBe(401);
      const renew = await c.refreshAccess(s.refreshToken);
      expect(renew.status).toBe(401);
      expect(renew.body.isLogin).toBe(false);
      expect(await tokenFamily(store, s.sessionId)).toMatchObject({ revoked_reason: "logout" });
    });

    it("ends only that session", async () => {
      const c = apiClient(server.baseUrl);
      const a = await c.session("admin", ADMIN_PASSWORD);
      const b = await c.session("admin", ADMIN_PASSWORD);
      await c.call("GET", "/member/logout", { token: a.accessToken });
      expect((await c.isAuth(b.accessToken)).status).toBe(200);
    });

    it("ends a session revoked straight in the store, outside every server", async () => {
      // The check on every call keeps what it read until token_family is written (api/auth/sessions.ts): a write by
      // another connection is seen at once on SQLite (data_version), and on PostgreSQL once the database's notice of
      // it (migration 0018) has reached the server, a moment after the commit.
      const c = apiClient(server.baseUrl);
      const s = await c.session("admin", ADMIN_PASSWORD);
      expect((await c.isAuth(s.accessToken)).status).toBe(200);
      expect((await c.isAuth(s.accessToken)).status).toBe(200);
      await store.db
        .updateTable("token_family")
        .set({ revoked_at: Date.now(), revoked_reason: "by_hand" })
        .where("id", "=", s.sessionId)
        .execute();
      if (storeKind === "postgres") await waitFor(async () => (await c.isAuth(s.accessToken)).status === 401, { every: 50 });
      expect((await c.isAuth(s.accessToken)).status).toBe(401);
    });
  });
});
