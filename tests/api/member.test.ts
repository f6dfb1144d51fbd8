/**
 * /api member calls against a real server on both stores: own profile, id check,
 * own password change (pwd_yn), and the read-only guest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../api/auth/password";
import { decodeTokenPayload, type AccessClaims } from "../../domain/contract/auth";
import { GUEST_ID, GUEST_PASSWORD } from "../../domain/guest";
import { createMember, memberRow, openTestStore, tokenFamily, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";

describe.each(STORES)("member API on %s", (storeKind) => {
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

  describe("GET /member", () => {
    it("answers the caller's own profile without secrets", async () => {
      const m = await createMember(store, {
        name: "홍길동",
        auth: 2,
        service: 3,
        phone: "010-0000-1111",
        email: "hong@example.kr",
      });
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session(m.id, m.password);
      const res = await c.call("GET", "/member", { token: accessToken });
      expect(res.status).toBe(200);
      expect(res.body.member).toMatchObject({
        id: m.id,
        name: "홍길동",
        auth: 2,
        service: 3,
        use_yn: 1,
        pwd_yn: 0,
        readOnly: 0,
        phone: "010-0000-1111",
        email: "hong@example.kr",
        nodeName: expect.any(String),
      });
      expect(res.text).not.toMatch(/password_hash|\$argon2/);
    });

    it("shows the seeded admin at level 10 under the root node", async () => {
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session("admin", ADMIN_PASSWORD);
      const res = await c.call("GET", "/member", { token: accessToken });
      expect(res.body.member).toMatchObject({ id: "admin", auth: 10, use_yn: 1 });
      expect(res.body.member.nodeName).not.toBe("");
    });
  });

  describe("GET /member/check/id/{id}", () => {
    it("finds existing ids case-insensitively and reports free ones", async () => {
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session("admin", ADMIN_PASSWORD);
      const check = (id: string) => c.call("GET", `/member/check/id/${encodeURIComponent(id)}`, { token: accessToken });
      expect((await check("admin")).body).toEqual({ id: "admin", valid: true, exists: true });
      expect((await check("ADMIN")).body).toEqual({ id: "ADMIN", valid: true, exists: true });
      expect((await check("Guest")).body).toMatchObject({ valid: true, exists: true });
      const free = await check("free-id.2026");
      expect(free.status).toBe(200);
      expect(free.body).toEqual({ id: "free-id.2026", valid: true, exists: false });
    });

    it("marks ids that break the pattern as invalid", async () => {
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session("admin", ADMIN_PASSWORD);
      for (const id of ["ab", "-admin", "has space", "한글아이디", "x".repeat(31), "semi;colon"]) {
        const res = await c.call("GET", `/member/check/id/${encodeURIComponent(id)}`, { token: accessToken });
        expect(res.status, id).toBe(200);
        expect(res.body, id).toEqual({ id, valid: false, exists: false });
      }
    });
  });

  describe("own password change", () => {
    const change = (c: ReturnType<typeof apiClient>, token: string, id: string, body: unknown) =>
      c.call("PUT", `/member/${encodeURIComponent(id)}/password`, { token, json: body });

    it("refuses a wrong current password with a field error", async () => {
      const m = await createMember(store);
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session(m.id, m.password);
      const res = await change(c, accessToken, m.id, { currentPassword: "not-it-123", newPassword: "Fresh-pass-2026" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "invalid_input", fields: { currentPassword: "wrong_password" } });
      expect(await verifyPassword((await memberRow(store, m.id))!.password_hash, m.password)).toBe(true);
    });

    it("refuses weak new passwords with the rule that failed", async () => {
      const m = await createMember(store, { id: "weakling01" });
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session(m.id, m.password);
      const cases: Array<[string, string]> = [
        ["short1!", "too_short"],
        ["onlyletters", "too_simple"],
        ["12345678901", "too_simple"],
        ["WEAKLING01", "same_as_id"],
        [m.password, "same_as_current"],
        ["a1".repeat(65), "too_long"],
      ];
      for (const [newPassword, problem] of cases) {
        const res = await change(c, accessToken, m.id, { currentPassword: m.password, newPassword });
        expect(res.status, newPassword).toBe(400);
        expect(res.body.fields, newPassword).toEqual({ newPassword: problem });
      }
      const missing = await change(c, accessToken, m.id, {});
      expect(missing.status).toBe(400);
      expect(missing.body.fields).toHaveProperty("currentPassword");
      const malformed = await c.call("PUT", `/member/${m.id}/password`, { token: accessToken, raw: "{oops" });
      expect(malformed.status).toBe(400);
    });

    it("clears pwd_yn, keeps this session with fresh tokens and revokes the member's other sessions", async () => {
      const m = await createMember(store, { pwd_yn: 1 });
      const c = apiClient(server.baseUrl);
      const here = await c.session(m.id, m.password);
      const elsewhere = await c.session(m.id, m.password);
      expect(here.pwd_yn).toBe(1);
      expect(decodeTokenPayload<AccessClaims>(here.accessToken)!.pwd_yn).toBe(1);

      // While pwd_yn = 1 the member may do nothing else.
      const blocked = await c.call("GET", "/member/check/id/someone", { token: here.accessToken });
      expect(blocked.status).toBe(403);
      expect(blocked.body.message).toBe("password_change_required");

      const newPassword = "Brand-new-2026!";
      const res = await change(c, here.accessToken, m.id, { currentPassword: m.password, newPassword });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ sessionId: here.sessionId, pwd_yn: 0 });
      expect(decodeTokenPayload<AccessClaims>(res.body.accessToken)!.pwd_yn).toBe(0);

      const row = (await memberRow(store, m.id))!;
      expect(row.pwd_yn).toBe(0);
      expect(row.password_changed_at).not.toBeNull();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);

      // This session continues; the unblocked call now works.
      expect((await c.call("GET", "/member/check/id/someone", { token: res.body.accessToken })).status).toBe(200);
      expect((await c.refreshAccess(res.body.refreshToken)).status).toBe(200);
      // The other session is gone, access and refresh alike.
      expect((await c.isAuth(elsewhere.accessToken)).status).toBe(401);
      expect((await c.refreshAccess(elsewhere.refreshToken)).status).toBe(401);
      expect(await tokenFamily(store, elsewhere.sessionId)).toMatchObject({ revoked_reason: "password_changed" });

      // Old password out, new one in.
      expect((await c.login(m.id, m.password)).status).toBe(401);
      const again = await c.login(m.id, newPassword);
      expect(again.status).toBe(200);
      expect(again.body.pwd_yn).toBe(0);
    });

    it("allows only the member's own password", async () => {
      const m = await createMember(store);
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session(m.id, m.password);
      const res = await change(c, accessToken, "admin", { currentPassword: m.password, newPassword: "Hijack-2026!" });
      expect(res.status).toBe(403);
      expect(await verifyPassword((await memberRow(store, "admin"))!.password_hash, ADMIN_PASSWORD)).toBe(true);
    });

    it("refuses the read-only guest with 403", async () => {
      const c = apiClient(server.baseUrl);
      const { accessToken } = await c.session(GUEST_ID, GUEST_PASSWORD);
      const res = await change(c, accessToken, GUEST_ID, { currentPassword: GUEST_PASSWORD, newPassword: "Guest-owned-2026" });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("read_only_member");
      // The fixed guest credentials still work for everybody else.
      expect((await c.login(GUEST_ID, GUEST_PASSWORD)).status).toBe(200);
    });
  });

  it("the guest may read", async () => {
    const c = apiClient(server.baseUrl);
    const { accessToken } = await c.session(GUEST_ID, GUEST_PASSWORD);
    const res = await c.call("GET", "/member", { token: accessToken });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ id: GUEST_ID, readOnly: 1 });
  });
});
