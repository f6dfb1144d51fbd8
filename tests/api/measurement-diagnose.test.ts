/**
 * Measurement and diagnosis calls against a real server on both stores. Readings go through the real
 * POST /api/ingest (so rollups are the writer's own): two hours of a 100 kW plant at G 800 W/m², T 45 °C,
 * one inverter at 60 % of its rating (the worked example of DESIGN.md: PR 0.75, PR_STC 0.818, EPI 0.94),
 * no daily counters (so a day's energy is the integrated power),
 * the other failing at 30 %, a connection board with a blown string, a VCB with leakage current.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import { backfillRegular } from "../../api/store/migrations/0017_plant_daily_regular";
import { serviceMask } from "../../domain/service-bits";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";

const HOUR = 3_600_000;
const fmt = (t: number) => formatSeoul(t, "YYYY-MM-DD HH:mm:ss");

/** A rated inverter (5 kW) with no readings, added straight into the plant: its plant-day rows no longer stand for a request of the others. */
async function addSpareInverter(store: Store, uid: string, plantUid: string, address: number) {
  const now = Date.now();
  await store.db
    .insertInto("device")
    .values({
      uid,
      rtu_uid: null,
      plant_uid: plantUid,
      kind: 1,
      name: "여분",
      address,
      capa: 5000,
      use_yn: 1,
      created_at: now,
      updated_at: now,
    } as any)
    .execute();
}

describe.each(STORES)("measurement and diagnosis API on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let g: GatewayFixture;
  let other: GatewayFixture;
  let admin: string;
  let foreign: string;
  let compareOnly: string;
  let noDiagnose: string;
  let from: number;
  let to: number;
  const c = () => apiClient(server.baseUrl);
  const get = (path: string, token = admin) => c().call("GET", path, { token });
  const post = (path: string, json: unknown, token = admin) => c().call("POST", path, { token, json });
  const q = (o: Record<string, string | number | string[]>) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) for (const x of Array.isArray(v) ? v : [v]) u.append(k, String(x));
    return u.toString();
  };

  beforeAll(async () => {
    server = await startServer({ store: storeKind, port: await freePort(3400, 3499), timeoutMs: 180_000 });
    store = await openTestStore(server.databaseUrl);
    const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
    const now = Date.now();
    const nodeSeq = Number(
      (
        await store.db
          .insertInto("node")
          .values({ parent_seq: root.seq, name: "진단 테스트", sort_order: 0, created_at: now })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );
    const otherSeq = Number(
      (
        await store.db
          .insertInto("node")
          .values({ parent_seq: root.seq, name: "남의 그룹", sort_order: 1, created_at: now })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );
    g = await createGatewayFixture(store, { inverters: 2, capaKw: 100, nodeSeq });
    other = await createGatewayFixture(store, { inverters: 1, capaKw: 50, nodeSeq: otherSeq });
    to = now - (now % HOUR) - HOUR;
    from = to - 2 * HOUR;
    const readings: unknown[] = [];
    for (let t = from; t < to; t += 600_000) {
      readings.push(
        {
          device: g.inverters[0],
          ts: t,
          values: { iw: 30_000, dc_w: 31_000, dc_v: 650, dc_a: 47.7, ac_v: 380, ac_a: 45.6, pf: 0.99, hz: 60, total_wh: 1e6 },
        },
        { device: g.inverters[1], ts: t, values: { iw: 15_000, total_wh: 1e6, fault_code: 136, fault_hex: "0x0088" } },
        { device: g.env, ts: t, values: { iis: 800, his: 600, sts: 45, ats: 20 } },
        { device: g.board, ts: t, values: { v: 650, total_a: 32, channels: [8, 8, 0, 8, 8] } },
        { device: g.vcb, ts: t, values: { v: 22_900, a: 1, w: 44_000, pf: 0.99, state: 1, gf_ma: 3.2 } },
      );
    }
    const res = await postReadings(server.baseUrl, g, readings);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rejected).toEqual([]);
    await postReadings(server.baseUrl, other, [{ device: other.inverters[0], ts: from, values: { iw: 1000 } }]);
    await store.db
      .insertInto("alarm")
      .values({
        plant_uid: g.plantUid,
        rtu_uid: g.rtuUid,
        device_uid: g.vcb,
        code: 1000001,
        level: 3,
        fault_code: null,
        message: "테스트",
        raised_at: from,
        released_at: null,
      } as any)
      .execute();
    admin = (await c().session("admin", ADMIN_PASSWORD)).accessToken;
    const m1 = await createMember(store, { node_seq: otherSeq });
    foreign = (await c().session(m1.id, m1.password)).accessToken;
    const m2 = await createMember(store, { node_seq: nodeSeq, service: serviceMask(["diagnoseCompare"]) });
    compareOnly = (await c().session(m2.id, m2.password)).accessToken;
    const m3 = await createMember(store, { node_seq: nodeSeq, service: 0 });
    noDiagnose = (await c().session(m3.id, m3.password)).accessToken;
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  describe("diagnosis", () => {
    it("generate at unit 10 and 60: the worked example's PR 0.75, PR_STC 0.818, EPI 0.94 for the healthy inverter", async () => {
      for (const unit of [10, 60]) {
        const res = await post("/diagnose/generate", {
          deviceUids: [g.inverters[0]],
          unit,
          start: fmt(from),
          end: fmt(to),
          periodType: "custom",
        });
        expect(res.status, res.text).toBe(200);
        const f = res.body.figures;
        expect(f.performanceRatio).toBeCloseTo(0.75, 3);
        expect(f.performanceRatioStc).toBeCloseTo(0.818, 3);
        expect(f.energyPerformanceIndex).toBeCloseTo(0.94, 2);
        expect(f.referenceYield).toBeCloseTo(1.6, 3);
        // The healthy inverter read 30 kW in every sunny step: available throughout, by the one definition, which
        // the figures repeat (domain/analytics/availability.ts), and its downtime loss is that definition's.
        expect(f.availability).toBe(1);
        expect(f.availability).toBe(res.body.availability.time.availability);
        expect(f.losses.downtimeKwh).toBe(res.body.availability.energy.lostKwh);
        expect(res.body.irradianceMode).toBe(3);
        expect(res.body.times).toHaveLength(unit === 10 ? 12 : 2);
        expect(res.body.coefficients).toEqual({ temperatureCoefficient: -0.00415, systemFactor: 0.87 });
        // Reference and generation per bucket: 50 kW × 0.8 × 0.917 × 0.87 against 30 kW.
        const perHour = unit === 10 ? 1 / 6 : 1;
        expect(res.body.reference[1]).toBeCloseTo(50 * 0.8 * (1 - 0.00415 * 20) * 0.87 * perHour, 2);
        expect(res.body.generation[1]).toBeCloseTo(30 * perHour, 3);
      }
    });

    it("an RTU stands for its inverters; a plant's coefficients change the reference", async () => {
      const put = await c().call("PUT", `/diagnose/coefficients/${g.plantUid}`, {
        token: admin,
        json: { temperatureCoefficient: -0.0035, systemFactor: 0.9 },
      });
      expect(put.status, put.text).toBe(200);
      const res = await post("/diagnose/generate", { rtuUids: [g.rtuUid], unit: 60, start: fmt(from), end: fmt(to) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.deviceUids).toEqual(g.inverters);
      expect(res.body.figures.expectedKwh).toBeCloseTo(100 * 1.6 * (1 - 0.0035 * 20) * 0.9, 1);
      expect(
        (
          await c().call("PUT", `/diagnose/coefficients/${g.plantUid}`, {
            token: admin,
            json: { temperatureCoefficient: null, systemFactor: null },
          })
        ).status,
      ).toBe(200);
      const bad = await c().call("PUT", `/diagnose/coefficients/${g.plantUid}`, {
        token: admin,
        json: { temperatureCoefficient: 0.5, systemFactor: 0.9 },
      });
      expect(bad.status).toBe(400);
    });

    it("produce ranks the failing inverter first, against its plant's median", async () => {
      for (const unit of [10, 60, 1440]) {
        const res = await post("/diagnose/produce", { deviceUids: g.inverters, unit, start: fmt(from), end: fmt(to) });
        expect(res.status, res.text).toBe(200);
        const [worst, best] = res.body.producers;
        expect(worst.deviceUid).toBe(g.inverters[1]);
        expect(worst.specificYield).toBeCloseTo((15 * 2) / 50, 3);
        expect(worst.deviation).toBeCloseTo(15 / 22.5 - 1, 3);
        expect(best.deviation).toBeCloseTo(30 / 22.5 - 1, 3);
      }
    });

    it("the fleet ranking lists the member's plants by EPI, lowest first", async () => {
      const res = await get(`/diagnose/ranking?${q({ start: fmt(from - 86_400_000), end: fmt(to + 86_400_000) })}`);
      expect(res.status, res.text).toBe(200);
      const mine = res.body.plants.find((p: any) => p.plantUid === g.plantUid);
      expect(mine.epi).toBeCloseTo((30 + 15) / (100 * 0.8 * (1 - 0.00415 * 20) * 0.87), 2);
      const epis = res.body.plants.map((p: any) => p.epi).filter((e: any) => e !== null);
      expect([...epis].sort((a, b) => a - b)).toEqual(epis);
      const scoped = await get(`/diagnose/ranking?${q({ start: fmt(from), end: fmt(to) })}`, foreign);
      expect(scoped.body.plants.map((p: any) => p.plantUid)).toEqual([other.plantUid]);
    });

    it("generate at unit day (rollups summed per group of alike inverters) and the fleet ranking (sums in SQL) agree with the hourly figures", async () => {
      const day = { start: fmt(from - 86_400_000), end: fmt(to + 86_400_000) };
      const hourly = await post("/diagnose/generate", { deviceUids: g.inverters, unit: 60, start: fmt(from), end: fmt(to) });
      const daily = await post("/diagnose/generate", { deviceUids: g.inverters, unit: 1440, ...day });
      expect(daily.status, daily.text).toBe(200);
      const h = hourly.body.figures;
      const d = daily.body.figures;
      for (const k of [
        "energyKwh",
        "expectedKwh",
        "performanceRatio",
        "performanceRatioStc",
        "energyPerformanceIndex",
        "availability",
      ]) {
        expect(d[k], k).toBeCloseTo(h[k], 6);
      }
      expect(daily.body.generation.reduce((a: number, x: number) => a + x, 0)).toBeCloseTo(45 * 2, 3);
      // The whole plant's days came from rollup_plant_daily; with a third rated inverter in the plant (no readings) the
      // same request is summed per group of inverters instead: both ways give the same answer.
      await addSpareInverter(store, `${g.plantUid}X`, g.plantUid, 99);
      const grouped = await post("/diagnose/generate", { deviceUids: g.inverters, unit: 1440, ...day });
      await store.db.deleteFrom("device").where("uid", "=", `${g.plantUid}X`).execute();
      expect(grouped.status, grouped.text).toBe(200);
      expect(grouped.body.generation).toEqual(daily.body.generation);
      expect(grouped.body.reference).toEqual(daily.body.reference);
      for (const [k, v] of Object.entries(d)) if (typeof v === "number") expect(grouped.body.figures[k], k).toBeCloseTo(v, 9);
      for (const [k, v] of Object.entries(d.losses)) expect(grouped.body.figures.losses[k], k).toBeCloseTo(v as number, 9);
      const one = await post("/diagnose/generate", { deviceUids: [g.inverters[1]], unit: 1440, ...day });
      expect(one.body.figures.energyKwh).toBeCloseTo(15 * 2, 3);
      const ranking = await get(`/diagnose/ranking?${q(day)}`);
      const mine = ranking.body.plants.find((p: any) => p.plantUid === g.plantUid);
      expect(mine.epi).toBeCloseTo(d.energyPerformanceIndex, 6);
      expect(mine.pr).toBeCloseTo(d.performanceRatio, 6);
      expect(mine.availability).toBeCloseTo(d.availability, 6);
      expect(mine.expectedKwh).toBeCloseTo(d.expectedKwh, 6);
    });

    it("a whole plant's days come from rollup_plant_daily when regular; clipping, missing-energy and over-lit days are read per inverter; both ways are equal", async () => {
      // Five days three weeks back, written as daily rollups: regular, one inverter near its limit (≥ 97.5 % of 50 kW),
      // one without energy, one that produced in more steps than the day was lit, regular again with downtime.
      const base = seoulDayStart(from) - 21 * DAY_MS;
      const days = [0, 1, 2, 3, 4].map((i) => base + i * DAY_MS);
      const inv = (uid: string, t: number, e: number | null, maxW: number, run: number) => ({
        device_uid: uid,
        day_ts: t,
        kind: 1,
        samples: 144,
        energy_wh: e,
        max_w: maxW,
        his_wh: null,
        iis_wh: null,
        avg_sts: null,
        avg_ats: null,
        total_wh: null,
        iis_sts_wh: null,
        sun_samples: null,
        lit_samples: null,
        run_samples: run,
      });
      const rows = days.flatMap((t, i) => [
        inv(g.inverters[0], t, 200_000 + i * 1000, i === 1 ? 49_000 : 40_000, i === 3 ? 45 : 40),
        inv(g.inverters[1], t, i === 2 ? null : 100_000, 20_000, i === 4 ? 20 : 30),
        {
          ...inv(g.env, t, null, 0, 0),
          kind: 4,
          max_w: null,
          run_samples: null,
          iis_wh: 5000 + i * 100,
          his_wh: 4000,
          iis_sts_wh: (5000 + i * 100) * 40,
          avg_sts: 40,
          avg_ats: 20,
          sun_samples: 30,
          lit_samples: 40,
        },
      ]);
      await store.db.insertInto("rollup_daily").values(rows).execute();
      // As a rating edit would: the next reader recomputes the plant's rows with the writer's statement.
      await store.db
        .insertInto("rollup_plant_daily_stale")
        .values({ plant_uid: g.plantUid })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const period = { unit: 1440, start: fmt(base), end: fmt(base + 5 * DAY_MS - 60_000) };
      const flags = async () =>
        (
          await store.db
            .selectFrom("rollup_plant_daily")
            .select(["day_ts", "regular"])
            .where("plant_uid", "=", g.plantUid)
            .where("day_ts", ">=", base)
            .where("day_ts", "<", base + 5 * DAY_MS)
            .orderBy("day_ts")
            .execute()
        ).map((r) => Number(r.regular));
      try {
        const fast = await post("/diagnose/generate", { deviceUids: g.inverters, ...period });
        expect(fast.status, fast.text).toBe(200);
        expect(await flags()).toEqual([1, 0, 0, 0, 1]);
        // Migration 0017's backfill of existing rows says the same as the writer.
        await store.db.updateTable("rollup_plant_daily").set({ regular: 7 }).where("plant_uid", "=", g.plantUid).execute();
        await backfillRegular(store.db);
        expect(await flags()).toEqual([1, 0, 0, 0, 1]);
        // A third rated inverter in the plant: no plant-day row stands for the request, every day is grouped per inverter.
        await addSpareInverter(store, `${g.plantUid}Y`, g.plantUid, 98);
        const grouped = await post("/diagnose/generate", { deviceUids: g.inverters, ...period });
        await store.db.deleteFrom("device").where("uid", "=", `${g.plantUid}Y`).execute();
        expect(grouped.status, grouped.text).toBe(200);
        expect(fast.body.times).toHaveLength(5);
        expect(fast.body.generation).toEqual(grouped.body.generation);
        expect(fast.body.reference).toEqual(grouped.body.reference);
        const f = fast.body.figures;
        expect(f.losses.clippingKwh).toBeGreaterThan(0);
        // These days exist only as daily rollups: availability is judged on hourly steps (domain/analytics/
        // availability.ts, the one definition), of which there are none — no figure and no downtime, never 100 %.
        expect(f.availability).toBeNull();
        expect(fast.body.availability.time.coverage).toBeNull();
        expect(f.losses.downtimeKwh).toBe(0);
        for (const [k, v] of Object.entries(grouped.body.figures)) if (typeof v === "number") expect(f[k], k).toBeCloseTo(v, 9);
        for (const [k, v] of Object.entries(grouped.body.figures.losses)) expect(f.losses[k], k).toBeCloseTo(v as number, 9);
      } finally {
        await store.db.deleteFrom("rollup_daily").where("day_ts", "in", days).execute();
        await store.db.deleteFrom("rollup_plant_daily").where("day_ts", "in", days).execute();
      }
    });

    it("the ranking (per-plant daily rollup) follows a rating edit and late readings, and leaves unrated inverters out", async () => {
      const day = { start: fmt(from - 86_400_000), end: fmt(to + 86_400_000) };
      const mine = async () => {
        const res = await get(`/diagnose/ranking?${q(day)}`);
        expect(res.status, res.text).toBe(200);
        return res.body.plants.find((p: any) => p.plantUid === g.plantUid);
      };
      const generated = async () =>
        (await post("/diagnose/generate", { deviceUids: g.inverters, unit: 1440, ...day })).body.figures;
      // Through the device form's API, as an engineer corrects a rating (the failing inverter: 50 → 100 kW).
      const rate = async (capaKw: number | null) => {
        const dev = (await get(`/device/${g.inverters[1]}`)).body.device;
        const res = await c().call("PUT", `/device/${g.inverters[1]}`, {
          token: admin,
          json: { name: dev.name, kind: 1, rtuUid: dev.rtu_uid, plantUid: dev.plant_uid, address: dev.address, capaKw },
        });
        expect(res.status, res.text).toBe(200);
      };
      const c20 = 1 - 0.00415 * 20;
      const before = await mine();
      expect(before).toMatchObject({ rating: "complete", unratedInverters: 0 });
      expect(before.expectedKwh).toBeCloseTo(100 * 1.6 * c20 * 0.87, 6);

      await rate(100);
      const edited = await mine();
      expect(edited.expectedKwh).toBeCloseTo(150 * 1.6 * c20 * 0.87, 6);
      expect(edited.epi).toBeCloseTo(90 / (150 * 1.6 * c20 * 0.87), 6);
      expect(edited.epi).toBeCloseTo((await generated()).energyPerformanceIndex, 6);

      // An hour of late readings before the period's first: the writer recomputes the plant's day with them.
      const late: unknown[] = [];
      for (let t = from - HOUR; t < from; t += 600_000) {
        late.push(
          { device: g.inverters[0], ts: t, values: { iw: 30_000, total_wh: 1e6 } },
          { device: g.env, ts: t, values: { iis: 800, his: 600, sts: 45, ats: 20 } },
        );
      }
      expect((await postReadings(server.baseUrl, g, late)).status).toBe(200);
      const lateRanked = await mine();
      expect(lateRanked.energyKwh).toBeCloseTo(90 + 30, 6);
      const lateGenerated = await generated();
      expect(lateRanked.epi).toBeCloseTo(lateGenerated.energyPerformanceIndex, 6);
      expect(lateRanked.expectedKwh).toBeCloseTo(lateGenerated.expectedKwh, 6);
      expect(lateRanked.epi).not.toBeCloseTo(edited.epi, 3);

      // No rating: the inverter is left out (its energy with its capacity), and the plant says so.
      await rate(null);
      const partial = await mine();
      expect(partial).toMatchObject({ rating: "partial", unratedInverters: 1 });
      expect(partial.energyKwh).toBeCloseTo(30 * 3, 6);
      expect(partial.expectedKwh).toBeCloseTo(50 * 2.4 * c20 * 0.87, 6);
      expect(partial.epi).toBeCloseTo(90 / (50 * 2.4 * c20 * 0.87), 6);
      // The same rule in generate and produce (domain/diagnose-ranking.ts): no equal share of the plant is invented.
      const gen = await post("/diagnose/generate", { deviceUids: g.inverters, unit: 1440, ...day });
      expect(gen.status, gen.text).toBe(200);
      expect(gen.body).toMatchObject({ rating: "partial", unratedDeviceUids: [g.inverters[1]], capacityKw: 50 });
      expect(gen.body.figures.energyKwh).toBeCloseTo(partial.energyKwh, 6);
      expect(gen.body.figures.expectedKwh).toBeCloseTo(partial.expectedKwh, 6);
      expect(gen.body.figures.energyPerformanceIndex).toBeCloseTo(partial.epi, 6);
      expect(gen.body.generation.reduce((a: number, x: number) => a + x, 0)).toBeCloseTo(90, 3);
      const raw = await post("/diagnose/generate", { deviceUids: g.inverters, unit: 10, start: fmt(from - HOUR), end: fmt(to) });
      expect(raw.body).toMatchObject({ rating: "partial", unratedDeviceUids: [g.inverters[1]] });
      expect(raw.body.figures.energyPerformanceIndex).toBeCloseTo(partial.epi, 6);
      const produce = await post("/diagnose/produce", { deviceUids: g.inverters, unit: 1440, ...day });
      expect(produce.status, produce.text).toBe(200);
      const unratedRow = produce.body.producers.find((r: any) => r.deviceUid === g.inverters[1]);
      const ratedRow = produce.body.producers.find((r: any) => r.deviceUid === g.inverters[0]);
      expect(unratedRow).toMatchObject({ rated: false, specificYield: null, deviation: null, capacityKw: 0 });
      expect(unratedRow.energyKwh).toBeCloseTo(30, 6);
      expect(ratedRow).toMatchObject({ rated: true });
      expect(ratedRow.specificYield).toBeCloseTo(90 / 50, 6);
      expect(ratedRow.plantMedian).toBeCloseTo(90 / 50, 6);
      expect(produce.body.producers.at(-1).deviceUid).toBe(g.inverters[1]);
      await store.db.updateTable("device").set({ capa: null }).where("uid", "=", g.inverters[0]).execute();
      const missing = await mine();
      expect(missing).toMatchObject({ rating: "missing", unratedInverters: 2, epi: null, pr: null, availability: null });
      const none = await post("/diagnose/generate", { deviceUids: g.inverters, unit: 1440, ...day });
      expect(none.status, none.text).toBe(200);
      expect(none.body).toMatchObject({ rating: "missing", capacityKw: 0 });
      expect(none.body.figures).toMatchObject({ energyPerformanceIndex: null, performanceRatio: null, energyKwh: 0 });

      await store.db.updateTable("device").set({ capa: 5000 }).where("uid", "in", g.inverters).execute();
      // The plant's coefficients weigh the stored terms too: a change recomputes them.
      const coefficients = (json: unknown) => c().call("PUT", `/diagnose/coefficients/${g.plantUid}`, { token: admin, json });
      expect((await coefficients({ temperatureCoefficient: -0.0035, systemFactor: 0.9 })).status).toBe(200);
      expect((await mine()).expectedKwh).toBeCloseTo(100 * 2.4 * (1 - 0.0035 * 20) * 0.9, 6);
      expect((await coefficients({ temperatureCoefficient: null, systemFactor: null })).status).toBe(200);
      const restored = await mine();
      expect(restored).toMatchObject({ rating: "complete", unratedInverters: 0 });
      expect(restored.expectedKwh).toBeCloseTo(100 * 2.4 * c20 * 0.87, 6);
    });

    it("remembers the first compare selection and reuses it for period-only requests", async () => {
      const period = { start: fmt(from), end: fmt(to), unit: 10 };
      const first = await get(
        `/diagnose/compare?${q({ ...period, compareUid: g.inverters, compareKind: 1, compareType: "power" })}`,
        compareOnly,
      );
      expect(first.status, first.text).toBe(200);
      expect(first.body.remembered).toBe(false);
      expect(first.body.series.map((s: any) => s.values[0])).toEqual([30, 15]);
      const second = await get(
        `/diagnose/compare?${q({ ...period, compareUid: [g.env], compareKind: 4, compareType: "poa" })}`,
        compareOnly,
      );
      expect(second.body.series[0].values[0]).toBe(800);
      const again = await get(`/diagnose/compare?${q({ start: fmt(from), end: fmt(to), unit: 60 })}`, compareOnly);
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({
        remembered: true,
        selectedDeviceUid: g.inverters,
        selectedDeviceKind: 1,
        selectedDataType: "power",
      });
      expect(again.body.series[1].values).toEqual([15, 15]);
      expect((await c().call("DELETE", "/diagnose/compare/selection", { token: compareOnly })).status).toBe(204);
      const none = await get(`/diagnose/compare?${q(period)}`, compareOnly);
      expect(none.status).toBe(400);
      expect(none.body.message).toBe("no_selection");
    });

    it("service bits: compare-only may not produce or generate; without diagnose nothing", async () => {
      const body = { deviceUids: g.inverters, unit: 60, start: fmt(from), end: fmt(to) };
      expect((await post("/diagnose/produce", body, compareOnly)).status).toBe(403);
      expect((await post("/diagnose/generate", body, compareOnly)).status).toBe(403);
      expect(
        (
          await get(
            `/diagnose/compare?${q({ start: fmt(from), end: fmt(to), unit: 10, compareUid: g.inverters, compareKind: 1, compareType: "power" })}`,
            noDiagnose,
          )
        ).status,
      ).toBe(403);
    });

    it("member scoping: a foreign device answers 404, as a missing one does", async () => {
      const body = { deviceUids: g.inverters, unit: 60, start: fmt(from), end: fmt(to) };
      const res = await post("/diagnose/produce", body, foreign);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("device_not_found");
      expect((await post("/diagnose/generate", { ...body, deviceUids: ["NOPE"] })).status).toBe(404);
      expect((await get(`/measurement?deviceUid=${g.board}`, foreign)).status).toBe(404);
      expect((await get(`/rpe/measurement?${q({ rtuUid: g.rtuUid, start: fmt(from), end: fmt(to) })}`, foreign)).status).toBe(
        404,
      );
    });

    it("bad input: start after end, unit 7, ten years at unit 10, a non-inverter, two plants → 4xx with a message", async () => {
      const base = { deviceUids: g.inverters, unit: 10, start: fmt(from), end: fmt(to) };
      const cases: Array<[unknown, string, string]> = [
        [{ ...base, start: fmt(to), end: fmt(from) }, "start_after_end", "start"],
        [{ ...base, unit: 7 }, "invalid_input", "unit"],
        [{ ...base, start: fmt(to - 3650 * 86_400_000) }, "window_too_long", "end"],
        [{ ...base, start: "2026-02-30 00:00:00" }, "bad_start", "start"],
        [{ ...base, deviceUids: [g.env] }, "only_inverters", "deviceUids"],
        [{ ...base, deviceUids: [g.inverters[0], other.inverters[0]] }, "one_plant_only", "deviceUids"],
      ];
      for (const [body, message, field] of cases) {
        const res = await post("/diagnose/generate", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toBe(message);
        expect(res.body.fields[field]).toBeTruthy();
      }
      const res = await get(
        `/rpi/measurement?${q({ rtuUid: g.rtuUid, start: fmt(to - 3650 * 86_400_000), end: fmt(to), unit: 10 })}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("window_too_long");
      expect(
        (
          await get(
            `/diagnose/compare?${q({ start: fmt(from), end: fmt(to), unit: 10, compareUid: [g.env], compareKind: 1, compareType: "power" })}`,
          )
        ).status,
      ).toBe(400);
    });
  });

  describe("measurement", () => {
    it("the screen's pickers: the member's plants with devices, the chosen plant's devices; a foreign plant is not chosen", async () => {
      const res = await get(`/measurement/devices?plantUid=${g.plantUid}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.plantUid).toBe(g.plantUid);
      expect(res.body.plant.uid).toBe(g.plantUid);
      expect(res.body.matches).toBeNull();
      expect(res.body.devices.map((d: any) => d.uid)).toEqual(expect.arrayContaining([...g.inverters, g.env, g.board, g.vcb]));
      expect(res.body.devices.find((d: any) => d.uid === g.inverters[0])).toMatchObject({ kind: 1, rtu_uid: g.rtuUid });
      const scoped = await get(`/measurement/devices?plantUid=${g.plantUid}`, foreign);
      expect(scoped.body.plantUid).toBe(other.plantUid);
      // The name search answers only the member's plants with devices, at most `limit`.
      const gName = (await get(`/measurement/devices?plantUid=${g.plantUid}`)).body.plant.name as string;
      const found = await get(`/measurement/devices?${q({ q: gName.slice(1).toUpperCase() })}`);
      expect(found.body.matches.plants.map((p: any) => p.uid)).toContain(g.plantUid);
      const hidden = await get(`/measurement/devices?${q({ q: gName })}`, foreign);
      expect(hidden.body.matches.plants.map((p: any) => p.uid)).not.toContain(g.plantUid);
      const one = await get(`/measurement/devices?${q({ q: "", limit: 1 })}`);
      expect(one.body.matches).toBeNull();
      expect((await get(`/measurement/devices?${q({ q: "x".repeat(101) })}`)).status).toBe(400);
      expect((await get(`/measurement/devices?${q({ q: "a", limit: 0 })}`)).status).toBe(400);
      expect(scoped.body.devices.map((d: any) => d.uid)).toEqual(expect.arrayContaining(other.inverters));
      expect(scoped.body.devices.map((d: any) => d.uid)).not.toContain(g.inverters[0]);
    });

    it("a connection board: each string against its board's median, the blown one flagged", async () => {
      const res = await get(`/measurement?deviceUid=${g.board}`);
      expect(res.status, res.text).toBe(200);
      const b = res.body.devices[0].board;
      expect(b.median).toBe(8);
      expect(b.lowStrings).toBe(1);
      expect(b.strings.filter((s: any) => s.low).map((s: any) => s.channel)).toEqual([3]);
    });

    it("inverters of a plant: details only where the RTU's invDetail bit is set; the fault register decoded", async () => {
      const plain = await get(`/measurement?${q({ plantUid: g.plantUid, kind: 1, includeInverterDetails: 1 })}`);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.body.devices).toHaveLength(2);
      expect(plain.body.devices[0].invDetail).toBe(false);
      expect(plain.body.devices[0].inverter.acPowerKw).toBe(30);
      expect(plain.body.devices[0].inverter.dcVoltageV).toBeNull();
      expect(plain.body.devices[1].inverter.faults.map((f: any) => f.code)).toEqual([8, 128]);
      await store.db.updateTable("rtu").set({ config: 0b0100 }).where("uid", "=", g.rtuUid).execute();
      const detailed = await get(`/ri?deviceUid=${g.inverters[0]}`);
      expect(detailed.body.invDetail).toBe(true);
      expect(detailed.body.inverter).toMatchObject({ dcVoltageV: 650, frequencyHz: 60 });
      expect(detailed.body.inverter.efficiency).toBeCloseTo(30 / 31, 6);
    });

    it("environment and grid windows: 10-minute keys, irradiance mode, leakage current, unreleased alarms", async () => {
      const env = await get(`/rpe/measurement?${q({ rtuUid: g.rtuUid, start: fmt(from), end: fmt(to), unit: 10 })}`);
      expect(env.status, env.text).toBe(200);
      expect(env.body.times).toHaveLength(12);
      expect(env.body.irradianceMode).toBe(3);
      expect(env.body.devices[0].values.iis[0]).toBe(800);
      const grid = await get(`/rpg?${q({ rtuUid: g.rtuUid, start: fmt(from), end: fmt(to), unit: 10 })}`);
      expect(grid.body.devices.map((d: any) => d.kind).sort()).toEqual([2, 7, 8]);
      const vcb = grid.body.devices.find((d: any) => d.kind === 7);
      expect(vcb.values.leakage[0]).toBe(3.2);
      const rtg = await get(`/rtg?rtuUid=${g.rtuUid}`);
      expect(rtg.body.devices.find((d: any) => d.device.uid === g.vcb).breaker).toMatchObject({
        leakageMa: 3.2,
        state: 1,
        activeAlarms: 1,
      });
      expect((await get(`/rte?rtuUid=${g.rtuUid}`)).body.devices[0].env).toMatchObject({
        poa: 800,
        horizontal: 600,
        moduleC: 45,
      });
      expect((await get(`/rpe/devices?plantUid=${g.plantUid}`)).body.devices.map((d: any) => d.uid)).toEqual([g.env]);
      expect((await get(`/rpi/measurement?${q({ rtuUid: g.rtuUid, start: fmt(from), end: fmt(to), unit: 60 })}`)).status).toBe(
        400,
      );
    });

    it("fault codes and status detail decode registers; grid alarm release needs a writer", async () => {
      const detail = await get(`/measurement/statusinfo/detail?${q({ deviceModule: "SG50", faultHex: "0x0088" })}`);
      expect(detail.status, detail.text).toBe(200);
      expect(detail.body.faults.map((f: any) => f.code)).toEqual([8, 128]);
      expect((await get("/measurement/statusinfo/detail?faultHex=zz")).status).toBe(400);
      const codes = await get(`/measurement/fault/codes?${q({ faultJsonString: JSON.stringify(["0x0008", 128]) })}`);
      expect(codes.body.codes.map((f: any) => f.code)).toEqual([8, 128]);
      expect((await get("/measurement/fault/codes?faultJsonString=%5B")).status).toBe(400);
      const rtu = await store.db.selectFrom("rtu").select("mac").where("uid", "=", g.rtuUid).executeTakeFirstOrThrow();
      const vcb = await store.db.selectFrom("device").select("address").where("uid", "=", g.vcb).executeTakeFirstOrThrow();
      if (vcb.address === null) await store.db.updateTable("device").set({ address: 7 }).where("uid", "=", g.vcb).execute();
      const address = vcb.address ?? 7;
      expect((await get(`/measurement/setGridAlarmRelease?${q({ mac: rtu.mac!, address, kind: 7 })}`, foreign)).status).toBe(404);
      const rel = await post("/measurement/setGridAlarmRelease", { mac: rtu.mac, address, kind: 7 });
      expect(rel.status, rel.text).toBe(200);
      expect(rel.body.released).toBe(1);
      expect((await get(`/measurement/setGridAlarmRelease?${q({ mac: rtu.mac!, address, kind: 1 })}`)).status).toBe(400);
    });
  });
});
