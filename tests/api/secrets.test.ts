/**
 * Signing keys come from config or are generated in the data directory on first start —
 * never from the repository: two installs never accept each other's tokens, and a restart
 * keeps the sessions of its own install.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { readSecrets } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, REPO_ROOT, startServer, type TestServer } from "../helpers/server";

// Each test starts one or two whole servers (two for a restart): on a loaded machine that takes longer
// than the default 30 s per test, so these tests get the server-start budget instead.
describe.each(STORES)("signing secrets on %s", { timeout: 240_000 }, (storeKind) => {
  const running: TestServer[] = [];
  const start = async (...args: Parameters<typeof startServer>) => {
    const s = await startServer(...args);
    running.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  });

  it("generates them in the data directory, private to the owner, and signs with them", async () => {
    const server = await start({ store: storeKind });
    const file = path.join(server.dataDir, "secrets.json");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(path.relative(REPO_ROOT, server.dataDir).startsWith("..")).toBe(true);
    const secrets = readSecrets(server.dataDir);
    expect(secrets.jwt.length).toBeGreaterThanOrEqual(32);
    expect(secrets.session.length).toBeGreaterThanOrEqual(32);
    expect(secrets.jwt).not.toBe(secrets.session);

    const { accessToken } = await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD);
    const { payload } = await jwtVerify(accessToken, new TextEncoder().encode(secrets.jwt));
    expect(payload.id).toBe("admin");
  });

  it("differ per install: another data directory refuses this install's tokens", async () => {
    const a = await start({ store: storeKind });
    const b = await start({ store: storeKind });
    expect(readSecrets(a.dataDir).jwt).not.toBe(readSecrets(b.dataDir).jwt);
    const { accessToken } = await apiClient(a.baseUrl).session("admin", ADMIN_PASSWORD);
    const onB = await apiClient(b.baseUrl).isAuth(accessToken);
    expect(onB.status).toBe(401);
    expect(onB.body.isLogin).toBe(false);
  });

  it("survive a restart, so signed-in members stay signed in", async () => {
    const first = await startServer({ store: storeKind });
    const c = apiClient(first.baseUrl);
    const tokens = await c.session("admin", ADMIN_PASSWORD);
    const secret = readSecrets(first.dataDir).jwt;
    await first.stop({ keepData: true });

    const again = await start({ store: storeKind, reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
    expect(readSecrets(again.dataDir).jwt).toBe(secret);
    const c2 = apiClient(again.baseUrl);
    expect((await c2.isAuth(tokens.accessToken)).status).toBe(200);
    expect((await c2.refreshAccess(tokens.refreshToken)).status).toBe(200);
  });

  it("come from JWT_SECRET and SESSION_SECRET when given, and then nothing is written", async () => {
    const jwt = "j".repeat(40);
    const server = await start({ store: storeKind, env: { JWT_SECRET: jwt, SESSION_SECRET: "s".repeat(40) } });
    expect(existsSync(path.join(server.dataDir, "secrets.json"))).toBe(false);
    const { accessToken } = await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD);
    await expect(jwtVerify(accessToken, new TextEncoder().encode(jwt))).resolves.toBeTruthy();
  });

  it("refuses to start with a short JWT_SECRET, naming the variable", async () => {
    await expect(start({ store: storeKind, env: { JWT_SECRET: "short" }, timeoutMs: 20_000 })).rejects.toThrow(/JWT_SECRET/);
  });
});
