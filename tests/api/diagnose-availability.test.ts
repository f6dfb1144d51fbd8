/**
 * Availability of a plant in POST /diagnose/generate (issue 28 §2; domain/analytics/availability.ts) against a real
 * server on both stores, readings through the real POST /api/ingest. Three 50 kW inverters over four hours (24
 * ten-minute steps) at 800 W/m²:
 *   A produces throughout;
 *   B is silent for steps 6–11 while its counter advances (a communication gap);
 *   C is silent for steps 12–14, reads 0 kW at step 15 with its counter where it was (an outage), and its counter
 *     resets at step 16;
 *   the irradiance sensor is silent at steps 20–21 while the inverters produce (a sensor fault).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeoul } from "../../domain/seoul-time";
import { openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";

const HOUR = 3_600_000;
const STEP = 600_000;
const fmt = (t: number) => formatSeoul(t, "YYYY-MM-DD HH:mm:ss");

describe.each(STORES)("diagnosis availability on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let g: GatewayFixture;
  let admin: string;
  let from: number;
  let to: number;
  const generate = (unit: number, deviceUids = g.inverters) =>
    apiClient(server.baseUrl).call("POST", "/diagnose/generate", {
      token: admin,
      json: { deviceUids, unit, start: fmt(from), end: fmt(to), periodType: "custom" },
    });

  beforeAll(async () => {
    server = await startServer({ store: storeKind, port: await freePort(), timeoutMs: 180_000 });
    store = await openTestStore(server.databaseUrl);
    g = await createGatewayFixture(store, { inverters: 3, capaKw: 150 });
    const now = Date.now();
    to = now - (now % HOUR) - HOUR;
    from = to - 4 * HOUR;
    const [a, b, c] = g.inverters as [string, string, string];
    const readings: unknown[] = [];
    for (let i = 0; i < 24; i++) {
      const ts = from + i * STEP;
      const counter = (base: number) => base + 5_000 * (i + 1);
      readings.push({ device: a, ts, values: { iw: 30_000, total_wh: counter(1e6) } });
      if (i < 6 || i > 11) readings.push({ device: b, ts, values: { iw: 30_000, total_wh: counter(2e6) } });
      if (i < 12) readings.push({ device: c, ts, values: { iw: 30_000, total_wh: counter(3e6) } });
      if (i === 15) readings.push({ device: c, ts, values: { iw: 0, total_wh: 3e6 + 5_000 * 12 } });
      if (i >= 16) readings.push({ device: c, ts, values: { iw: 30_000, total_wh: 5_000 * (i - 15) } });
      if (i !== 20 && i !== 21) readings.push({ device: g.env, ts, values: { iis: 800, his: 600, sts: 45, ats: 20 } });
    }
    const res = await postReadings(server.baseUrl, g, readings);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rejected).toEqual([]);
    admin = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it("10-minute steps: gaps are coverage, not availability; the counter tells a communication gap from an outage", async () => {
    const res = await generate(10);
    expect(res.status, res.text).toBe(200);
    const av = res.body.availability;
    expect(av.stepMinutes).toBe(10);
    // 22 lit steps × 3 inverters: 57 measured (one at 0 kW), 9 without a reading, 6 without irradiance.
    expect(av.time.availability).toBeCloseTo(56 / 57, 9);
    expect(av.time.coverage).toBeCloseTo(57 / 72, 9);
    expect(av.time.gapHours).toBeCloseTo((9 * 50) / 6 / 150, 9);
    expect(av.irradianceGapHours).toBeCloseTo((6 * 50) / 6 / 150, 9);
    // B's six silent steps produced (its counter advanced); C's three did not: an outage with its 0 kW step.
    expect(av.energy.communicationGapHours).toBeCloseTo((6 * 50) / 6 / 150, 9);
    expect(av.energy.outageGapHours).toBeCloseTo((3 * 50) / 6 / 150, 9);
    expect(av.energy.unresolvedGapHours).toBe(0);
    expect(av.energy.availability).toBeCloseTo(1 - 4 / 66, 9);
    expect(av.energy.coverage).toBeCloseTo(66 / 72, 9);
    expect(av.energy.lostKwh).toBeCloseTo((4 * 50 * 0.8 * (1 - 0.00415 * 20) * 0.87) / 6, 6);
    // C's counter reset is reported, once, with what it fell from and to.
    expect(av.counterAnomalyCount).toBe(1);
    expect(av.counterAnomalies).toEqual([
      { inverterId: g.inverters[2], t: from + 16 * STEP, kind: "reset", fromKwh: 3_060, toKwh: 5 },
    ]);
    expect(av.exclusions.curtailment).toEqual({ hours: 0, expectedKwh: 0 });
    // One definition: the IEC panel's availability and downtime loss are these, not a second count.
    expect(res.body.figures.availability).toBeCloseTo(56 / 57, 9);
    expect(res.body.figures.losses.downtimeKwh).toBeCloseTo(av.energy.lostKwh, 9);
  });

  it("the fleet ranking's availability is the same definition on the plant's hourly grid", async () => {
    const res = await apiClient(server.baseUrl).call(
      "GET",
      `/diagnose/ranking?${new URLSearchParams({ start: fmt(from), end: fmt(to) })}`,
      { token: admin },
    );
    expect(res.status, res.text).toBe(200);
    const mine = res.body.plants.find((p: { plantUid: string }) => p.plantUid === g.plantUid);
    // Four sunny hours × three inverters: B's silent hour is a gap (coverage 11/12), never counted available; C's
    // outage steps fall inside hours with other readings, whose mean power is above 0.
    expect(mine.availability).toBe(1);
    expect(mine.availabilityCoverage).toBeCloseTo(11 / 12, 9);
    const hourly = await generate(60);
    expect(mine.availability).toBe(hourly.body.figures.availability);
  });

  it("hourly steps (rollups): the silent hour is a communication gap, the reset is found between hours", async () => {
    for (const unit of [60, 1440]) {
      const res = await generate(unit);
      expect(res.status, res.text).toBe(200);
      const av = res.body.availability;
      expect(av.stepMinutes).toBe(60);
      expect(av.time.availability).toBe(1);
      expect(av.time.coverage).toBeCloseTo(11 / 12, 9);
      expect(av.energy.communicationGapHours).toBeCloseTo(50 / 150, 9);
      expect(av.energy.availability).toBe(1);
      expect(av.counterAnomalies.map((x: { kind: string; inverterId: string }) => [x.kind, x.inverterId])).toEqual([
        ["reset", g.inverters[2]],
      ]);
    }
  });

  it("one inverter alone has its own availability; no data is no availability, never 100 %", async () => {
    const res = await generate(10, [g.inverters[1]!]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.availability.time.availability).toBe(1);
    // 22 lit steps with irradiance: 16 measured, 6 silent; and 2 produced without irradiance.
    expect(res.body.availability.time.coverage).toBeCloseTo(16 / 24, 9);
    const empty = await apiClient(server.baseUrl).call("POST", "/diagnose/generate", {
      token: admin,
      json: { deviceUids: [g.inverters[0]], unit: 10, start: fmt(to + HOUR / 2), end: fmt(to + HOUR), periodType: "custom" },
    });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.availability.time.availability).toBeNull();
    expect(empty.body.availability.energy.availability).toBeNull();
  });

  it("a period longer than a year has no availability (bounded cost), the other figures still", async () => {
    const res = await apiClient(server.baseUrl).call("POST", "/diagnose/generate", {
      token: admin,
      json: { deviceUids: g.inverters, unit: 1440, start: fmt(to - 400 * 24 * HOUR), end: fmt(to), periodType: "custom" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.availability).toBeNull();
    expect(res.body.figures.energyKwh).toBeGreaterThan(0);
  });
});
