/**
 * Issue 29 §2, alarm figures against a real server on both stores: a fresh group with two plants and hand-made
 * alarms on one Seoul day; GET /api/alarm/figures answers the hand-computed rate, nuisance share and mean times in
 * all and per code, plant and group, and refuses a bad period.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSeoul } from "../../domain/seoul-time";
import { openTestStore, type Store } from "../helpers/fixtures";
import { STORES, apiClient } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture } from "../helpers/telemetry";

const MIN = 60_000;
const DAY = "2026-03-03";

describe.each(STORES)("alarm figures on %s", (kind) => {
  let server: TestServer;
  let store: Store;
  let admin: string;

  beforeAll(async () => {
    server = await startServer({ store: kind, env: { PORTAL_WORKERS: "0", ALARM_INTERVAL_MS: "3600000" }, timeoutMs: 110_000 });
    store = await openTestStore(server.databaseUrl);
    admin = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  const get = (path: string) => apiClient(server.baseUrl).call("GET", path, { token: admin });

  it("answers the hand-computed figures per code, plant and group", async () => {
    const root = await store.db
      .selectFrom("node")
      .select("seq")
      .where("parent_seq", "is", null)
      .orderBy("seq")
      .executeTakeFirstOrThrow();
    const { seq: group } = await store.db
      .insertInto("node")
      .values({ name: `figures-${Date.now()}`, parent_seq: root.seq, created_at: Date.now() })
      .returning("seq")
      .executeTakeFirstOrThrow();
    const a = await createGatewayFixture(store, { nodeSeq: Number(group) });
    const b = await createGatewayFixture(store, { nodeSeq: Number(group) });
    const t = parseSeoul(DAY)! + 9 * 60 * MIN;
    const alarm = (plant: string, code: number, raisedAt: number, releasedAt: number | null, ackAt: number | null) => ({
      plant_uid: plant,
      rtu_uid: null,
      device_uid: null,
      code,
      level: 3,
      fault_code: null,
      message: "test",
      raised_at: raisedAt,
      released_at: releasedAt,
      ack_at: ackAt,
      ack_by: ackAt === null ? null : "admin",
    });
    await store.db
      .insertInto("alarm")
      .values([
        // A: acknowledged after 4 min, cleared after 30; cleared after 5 without acknowledgement (nuisance).
        alarm(a.plantUid, 1000006, t, t + 30 * MIN, t + 4 * MIN),
        alarm(a.plantUid, 1000006, t, t + 5 * MIN, null),
        // B: cleared after 11 min without acknowledgement (not nuisance); acknowledged after 20, still open.
        alarm(b.plantUid, 1000001, t, t + 11 * MIN, null),
        alarm(b.plantUid, 1000006, t, null, t + 20 * MIN),
        // The day before: outside the period.
        alarm(a.plantUid, 1000006, t - 24 * 60 * MIN, null, null),
      ])
      .execute();
    const res = await get(`/alarm/figures?start=${DAY}&end=${DAY}&isGroup=1&group=${group}`);
    expect(res.status, res.text).toBe(200);
    // 4 alarms / 2 plants / 1 day × 100 = 200; 1 of 4 nuisance; ack (4+20)/2 = 12 min; clear (30+5+11)/3.
    expect(res.body).toMatchObject({ days: 1, plants: 2 });
    expect(res.body.total).toEqual({
      count: 4,
      perHundredPlantsPerDay: 200,
      nuisance: 1,
      nuisanceShare: 0.25,
      acknowledged: 2,
      meanToAckMs: 12 * MIN,
      cleared: 3,
      meanToClearMs: ((30 + 5 + 11) / 3) * MIN,
    });
    expect(res.body.byCode.map((r: { code: number; count: number }) => [r.code, r.count])).toEqual([
      [1000006, 3],
      [1000001, 1],
    ]);
    // Code 1000006: 3 over 2 plants = 150 per 100 plants per day.
    expect(res.body.byCode[0]).toMatchObject({ perHundredPlantsPerDay: 150, nuisance: 1 });
    const plantA = res.body.byPlant.find((r: { plant_uid: string }) => r.plant_uid === a.plantUid);
    expect(plantA).toMatchObject({ count: 2, perHundredPlantsPerDay: 200, nuisanceShare: 0.5, meanToAckMs: 4 * MIN });
    expect(res.body.byGroup).toEqual([expect.objectContaining({ group: Number(group), count: 4, perHundredPlantsPerDay: 200 })]);

    // One plant; a period of two days halves the rate.
    const two = await get(`/alarm/figures?start=${DAY}&end=2026-03-04&plant=${b.plantUid}`);
    expect(two.body.total).toMatchObject({ count: 2, perHundredPlantsPerDay: 100 });

    const bad = await get(`/alarm/figures?start=${DAY}&end=2026-03-01`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ end: "end_before_start" });
    expect((await get(`/alarm/figures?start=${DAY}&end=${DAY}&plant=nope`)).status).toBe(404);
  });
});
