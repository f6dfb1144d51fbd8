/**
 * Ready means ready (issue 31): a demo server answers its health check as ready while its 90 days of history are still
 * being played in, with the replay's progress, its event-loop delay and the alarm engine's counts; the portal shows
 * the replay's progress as a banner meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HealthAnswer } from "../../domain/contract/health";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";

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
    expect(await res.json()).toMatchObject({ ready: true, database: "ok" });
    // The singleton jobs are taken right after the server is ready (on PostgreSQL at the lease's first poll).
    const health = await waitFor(async () => {
      const h = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as HealthAnswer;
      return h.alarmEngine ? h : null;
    });
    expect(health.alarmEngine).toEqual({
      passes: expect.any(Number),
      batchesIn: expect.any(Number),
      batchesJudged: expect.any(Number),
      // The alarm shards this server's engine judges: none yet while the history is played in.
      shards: expect.any(Array),
    });
    expect(health.eventLoop).toEqual({ p99Ms: expect.any(Number), maxMs: expect.any(Number), windowS: expect.any(Number) });
    expect(health.replay!.percent).toBeGreaterThanOrEqual(0);
    expect(health.replay!.percent).toBeLessThan(100);

    const s = await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD);
    const page = await fetch(`${server.baseUrl}/`, {
      headers: {
        cookie: `accessToken=${s.accessToken}; refreshToken=${s.refreshToken}; sessionId=${s.sessionId}; NewAppOpenPop=1`,
      },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/데모 이력 생성 중 \d+ %/);
  });
});
