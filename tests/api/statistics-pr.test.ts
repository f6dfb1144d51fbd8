/**
 * PR with a sensor fault in the data (issue 26: /statistics showed plants at 125–432 % whose environment sensor had
 * a communication fault): on both stores, through the real POST /api/ingest, PR is never above a physical bound at
 * any unit, per plant or for the scope; a plant whose sensor measured too little of the day shows no PR (withheld,
 * with the reason), and one with a short gap keeps the plant's true PR from the steps measured.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import { openTestStore, createMember, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";

const STEP = 600_000;
const HOUR = 3_600_000;
const DAY = seoulDayStart(Date.now()) - 86_400_000;
const DATE = formatSeoul(DAY, "YYYY-MM-DD");
/** One 10 kWp inverter at 8 kW 06:00–17:50 under 1,000 W/m²: the true PR is 0.8. */
const SUN = Array.from({ length: 72 }, (_, i) => DAY + 6 * HOUR + i * STEP);
/** No plant can convert more than the sun gives it: PR above 1 is a wrong figure. */
const PHYSICAL_BOUND = 1;

async function feed(baseUrl: string, g: GatewayFixture, sensorUntil: number, sensorFrom: number) {
  const readings: unknown[] = [];
  for (const ts of SUN) readings.push({ device: g.inverters[0], ts, values: { iw: 8000 } });
  // The sensor is silent (a communication fault) from `sensorUntil` to `sensorFrom`.
  for (let ts = DAY; ts < DAY + 86_400_000; ts += STEP) {
    if (ts >= sensorUntil && ts < sensorFrom) continue;
    const sun = ts >= DAY + 6 * HOUR && ts < DAY + 18 * HOUR;
    readings.push({ device: g.env, ts, values: { iis: sun ? 1000 : 0, his: sun ? 900 : 0, sts: 25, ats: 20 } });
  }
  const res = await postReadings(baseUrl, g, readings);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.rejected ?? []).toEqual([]);
}

for (const storeKind of STORES) {
  describe(`statistics PR with a sensor fault (${storeKind})`, () => {
    let server: TestServer;
    let store: Store;
    let faulty: GatewayFixture;
    let gap: GatewayFixture;
    let token: string;
    const get = (path: string) => apiClient(server.baseUrl).call("GET", path, { token });

    beforeAll(async () => {
      server = await startServer({ store: storeKind, env: { PORTAL_WORKERS: "1" }, timeoutMs: 150_000 });
      store = await openTestStore(server.databaseUrl);
      faulty = await createGatewayFixture(store, { inverters: 1, capaKw: 10 });
      gap = await createGatewayFixture(store, { inverters: 1, capaKw: 10 });
      const member = await createMember(store, { service: 0 });
      token = (await apiClient(server.baseUrl).session(member.id, member.password)).accessToken;
      // faulty: the sensor stops at 09:00 (3 of 12 sunny hours measured); gap: silent 12:00–12:50 only.
      await feed(server.baseUrl, faulty, DAY + 9 * HOUR, DAY + 86_400_000);
      await feed(server.baseUrl, gap, DAY + 12 * HOUR, DAY + 13 * HOUR);
    }, 240_000);

    afterAll(async () => {
      await store?.close();
      await server?.stop();
    });

    const report = async (plant: string, unit: string, per: "plant" | "group") => {
      const res = await get(`/rpi/statistics/group/${per}?plant=${plant}&unit=${unit}&start=${DATE}&end=${DATE}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };

    it("never gives a PR above the physical bound, at any unit, per plant or for the scope", async () => {
      for (const g of [faulty, gap])
        for (const unit of ["10", "30", "60", "day"])
          for (const per of ["plant", "group"] as const) {
            const body = await report(g.plantUid, unit, per);
            const figures = [body.summary.pr, ...body.totals.map((t: { pr: number | null }) => t.pr)].filter((v) => v !== null);
            for (const pr of figures) expect(pr, `${unit} ${per}`).toBeLessThanOrEqual(PHYSICAL_BOUND);
          }
    });

    it("withholds the PR of a plant whose sensor measured too little of the day, with the reason", async () => {
      for (const unit of ["30", "60", "day"]) {
        const body = await report(faulty.plantUid, unit, "plant");
        expect(body.summary.pr, unit).toBeNull();
        expect(body.summary.pr_withheld, unit).toBe("irradiance_coverage");
        expect(body.totals[0].pr_withheld, unit).toBe("irradiance_coverage");
        // Generation itself is whole: 8 kW for 12 h.
        expect(body.summary.energy_wh, unit).toBeCloseTo(96_000, 3);
      }
    });

    it("keeps the plant's PR over the steps measured when the gap is short", async () => {
      for (const unit of ["10", "30", "60"]) {
        const body = await report(gap.plantUid, unit, "plant");
        expect(body.summary.pr_withheld, unit).toBeNull();
        // The steps without irradiance are dropped from both sums: the true 0.8.
        expect(body.summary.pr, unit).toBeCloseTo(0.8, 6);
      }
      // A day row carries the whole day's energy against 11 of 12 hours measured: kept (coverage 0.92), below 0.9.
      const day = await report(gap.plantUid, "day", "plant");
      expect(day.summary.pr).toBeGreaterThan(0.8);
      expect(day.summary.pr).toBeLessThan(0.8 / 0.9);
    });
  });
}
