/**
 * The integrated report at unit day reads the plants' kept days (migration 0016, api/store/plant-stat-days.ts)
 * instead of summing every inverter-day: against a real server on both stores, the answer must be exactly the one
 * the report computes from rollup_daily itself (the reference path, `plantDays: false`) — after ingest through the
 * real POST /api/ingest (the rollup writer keeps the rows), after late data, after a device moves to another plant
 * (the triggers mark both plants stale and the report recomputes them), and with a scope that holds only some of a
 * plant's devices (that plant is summed the old way).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import type { AccessClaims } from "../../domain/contract/auth";
import { prepareReport, reportAnswer, type ReportRequest } from "../../api/statistics/report";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";

const STEP = 600_000;
const HOUR = 3_600_000;
const DAY_MS = 86_400_000;
/** Three Seoul days ending yesterday. */
const FIRST = seoulDayStart(Date.now()) - 3 * DAY_MS;
const DAYS = [FIRST, FIRST + DAY_MS, FIRST + 2 * DAY_MS];
const START = formatSeoul(DAYS[0]!, "YYYY-MM-DD");
const END = formatSeoul(DAYS[2]!, "YYYY-MM-DD");

/** Readings with fractional values (sums whose order could show in the last bits), a sensor gap on the second day. */
function readings(g: GatewayFixture, days: number[], seed: number) {
  const out: unknown[] = [];
  for (const [d, day] of days.entries()) {
    for (let i = 0; i < 72; i++) {
      const ts = day + 6 * HOUR + i * STEP;
      for (const [k, inv] of g.inverters.entries()) {
        if ((i + k + d) % 17 === 0) continue; // a missed step now and then
        out.push({ device: inv, ts, values: { iw: 1234.567 * (1 + 0.137 * k) + 97.31 * Math.sin(i / 7 + d + seed) } });
      }
    }
    for (let i = 0; i < 144; i++) {
      const ts = day + i * STEP;
      if (d === 1 && i >= 72 && i < 80) continue;
      out.push({
        device: g.env,
        ts,
        values: { iis: 611.3 * Math.max(0, Math.sin((i - 36) / 23)) + seed / 7, his: 500.1, sts: 31.7, ats: 20.2 },
      });
    }
  }
  return out;
}

async function feed(baseUrl: string, g: GatewayFixture, rows: unknown[]) {
  for (let i = 0; i < rows.length; i += 2000) {
    const res = await postReadings(baseUrl, g, rows.slice(i, i + 2000));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rejected ?? []).toEqual([]);
  }
}

for (const storeKind of STORES) {
  describe(`integrated report from the per-plant days (${storeKind})`, () => {
    let server: TestServer;
    let store: Store;
    let a: GatewayFixture;
    let b: GatewayFixture;
    let admin: string;
    const claims = { id: "admin", service: 0, scope: undefined } as unknown as AccessClaims;
    const get = (path: string) => apiClient(server.baseUrl).call("GET", path, { token: admin });

    /** The answer both ways, in this process, with one `now`; the kept-days one must equal the reference. */
    async function bothWays(q: Partial<ReportRequest>) {
      const req: ReportRequest = { unit: "day", start: START, end: END, sunRise: false, series: true, ...q };
      const now = Date.now();
      const p = await prepareReport(store.db, claims, "integrated", req, now, "fleet");
      const kept = await reportAnswer(store.db, p, req, now);
      const reference = await reportAnswer(store.db, { ...p, plantDays: false }, req, now);
      return { kept, reference };
    }

    const keptRows = (plant: string) =>
      store.db.selectFrom("rollup_plant_stat_daily").selectAll().where("plant_uid", "=", plant).orderBy("day_ts").execute();

    beforeAll(async () => {
      server = await startServer({ store: storeKind, timeoutMs: 150_000 });
      store = await openTestStore(server.databaseUrl);
      a = await createGatewayFixture(store, { inverters: 3, capaKw: 50 });
      b = await createGatewayFixture(store, { inverters: 2, capaKw: 30 });
      const boss = await createMember(store, { service: 0 });
      admin = (await apiClient(server.baseUrl).session(boss.id, boss.password)).accessToken;
      await feed(server.baseUrl, a, readings(a, DAYS, 1));
      await feed(server.baseUrl, b, readings(b, DAYS, 2));
    }, 240_000);

    afterAll(async () => {
      await store?.close();
      await server?.stop();
    });

    it("answers exactly what the report sums from the daily rollup, per plant, per group and through the API", async () => {
      for (const q of [
        { plant: a.plantUid },
        { plant: b.plantUid, categoryType: "group" as const },
        {},
        { categoryType: "group" as const },
      ]) {
        const { kept, reference } = await bothWays(q);
        expect(kept).toEqual(reference);
        expect(kept.reportPlants!.length).toBeGreaterThan(0);
      }
      // The rows were kept by the rollup writer as the readings came in: one per plant and day, nothing stale.
      expect((await keptRows(a.plantUid)).map((r) => Number(r.day_ts))).toEqual(DAYS);
      expect(await store.db.selectFrom("rollup_plant_stat_stale").selectAll().execute()).toEqual([]);
      const res = await get(`/rpi/statistics/group/plant?plant=${a.plantUid}&unit=day&start=${START}&end=${END}`);
      expect(res.status, res.text).toBe(200);
      const { reference } = await bothWays({ plant: a.plantUid });
      expect(res.body.reportPlants).toEqual(reference.reportPlants);
      expect(res.body.totals).toEqual(reference.totals);
    });

    it("is the path the report reads: a kept row shows in the answer", async () => {
      const row = (await keptRows(a.plantUid))[1]!;
      await store.db
        .updateTable("rollup_plant_stat_daily")
        .set({ energy_wh: 1 })
        .where("plant_uid", "=", a.plantUid)
        .where("day_ts", "=", row.day_ts)
        .execute();
      const { kept, reference } = await bothWays({ plant: a.plantUid });
      await store.db
        .updateTable("rollup_plant_stat_daily")
        .set({ energy_wh: row.energy_wh })
        .where("plant_uid", "=", a.plantUid)
        .where("day_ts", "=", row.day_ts)
        .execute();
      expect(kept.reportPlants!.find((r) => r.ts === Number(row.day_ts))!.energy_wh).toBe(1);
      expect(reference.reportPlants!.find((r) => r.ts === Number(row.day_ts))!.energy_wh).toBe(Number(row.energy_wh));
      const again = await bothWays({ plant: a.plantUid });
      expect(again.kept).toEqual(again.reference);
      expect(again.kept.reportPlants).toEqual(reference.reportPlants);
    });

    it("follows late data, a device moved to another plant, and a scope of some of a plant's devices", async () => {
      const before = await get(`/rpi/statistics/group/plant?unit=day&start=${START}&end=${END}`);
      expect(before.status, before.text).toBe(200);
      // Late readings of the first day, before sunrise: the writer recomputes that plant-day.
      await feed(
        server.baseUrl,
        a,
        a.inverters.map((inv, k) => ({ device: inv, ts: DAYS[0]! + 5 * HOUR + k * STEP, values: { iw: 3.3 + k } })),
      );
      const late = await get(`/rpi/statistics/group/plant?unit=day&start=${START}&end=${END}`);
      expect(late.body.reportPlants).not.toEqual(before.body.reportPlants);
      let both = await bothWays({});
      expect(late.body.reportPlants).toEqual(both.reference.reportPlants);
      expect(both.kept).toEqual(both.reference);

      // An inverter of b moves to a: both plants are marked, and recomputed before the next report reads them.
      await store.db.updateTable("device").set({ plant_uid: a.plantUid }).where("uid", "=", b.inverters[0]!).execute();
      const marked = (await store.db.selectFrom("rollup_plant_stat_stale").select("plant_uid").execute()).map((r) => r.plant_uid);
      expect(marked.sort()).toEqual([a.plantUid, b.plantUid].sort());
      both = await bothWays({});
      expect(both.kept).toEqual(both.reference);
      expect(await store.db.selectFrom("rollup_plant_stat_stale").selectAll().execute()).toEqual([]);
      const moved = await get(`/rpi/statistics/group/plant?unit=day&start=${START}&end=${END}`);
      expect(moved.body.reportPlants).toEqual(both.reference.reportPlants);
      expect(moved.body.reportPlants).not.toEqual(late.body.reportPlants);

      // An inverter out of use leaves it out of the scope: that plant is summed from the daily rollup, still the same.
      await store.db.updateTable("device").set({ use_yn: 0 }).where("uid", "=", a.inverters[0]!).execute();
      both = await bothWays({ plant: a.plantUid });
      expect(both.kept).toEqual(both.reference);
      expect(both.kept.deviceInverters.map((d) => d.uid)).not.toContain(a.inverters[0]);
      await store.db.updateTable("device").set({ use_yn: 1 }).where("uid", "=", a.inverters[0]!).execute();
      await store.db.updateTable("device").set({ plant_uid: b.plantUid }).where("uid", "=", b.inverters[0]!).execute();
      both = await bothWays({});
      expect(both.kept).toEqual(both.reference);
    });
  });
}
