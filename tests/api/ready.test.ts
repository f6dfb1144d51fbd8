/**
 * Ready means ready (issue 31): a demo server answers its health check as ready while its 90 days of history are still
 * being played in, with the replay's progress, its event-loop delay and the alarm engine's counts; the portal shows
 * the replay's progress as a banner meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HealthAnswer } from "../../domain/contract/health";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";

describe.each(STORES)("a demo server on %s", (store) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ store, env: { SIMULATE: "1", HISTORY_DAYS: "90" }, timeoutMs: 180_000 });
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("is ready while the history is played in, says how far it is, and the portal shows it", async () => {
    const res = await fetch(`${server.baseUrl}/api/health`);
    expect(res.status).toBe(200);
    const health = (await res.json()) as HealthAnswer;
    expect(health).toMatchObject({ ready: true, database: "ok", alarmEngine: { passes: expect.any(Number) } });
    expect(health.eventLoop).toEqual({ p99Ms: expect.any(Number), maxMs: expect.any(Number), windowS: expect.any(Number) });
    expect(health.replay!.percent).toBeGreaterThanOrEqual(0);
    expect(health.replay!.percent).toBeLessThan(100);

    const s = await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD);
    const page = await fetch(`${server.baseUrl}/`, {
      headers: { cookie: `accessToken=${s.accessToken}; refreshToken=${s.refreshToken}; sessionId=${s.sessionId}; NewAppOpenPop=1` },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/데모 이력 생성 중 \d+ %/);
  });
});
