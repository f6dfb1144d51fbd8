/**
 * Curtailment orders (issue 28 §3) against a real server on both stores: the calls (create, list, update, delete, CSV
 * import all or none), their scope (a member who cannot see the plant gets 404, one below the plant administration
 * level 403), bad input (400 with the field), and an order in the diagnosis: its steps left out of PR and availability
 * and the energy lost in it reported.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeoul } from "../../domain/seoul-time";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";

const HOUR = 3_600_000;
const STEP = 600_000;
const fmt = (t: number) => formatSeoul(t, "YYYY-MM-DD HH:mm");

describe.each(STORES)("curtailment orders on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let g: GatewayFixture;
  let admin: string;
  let foreign: string;
  let viewer: string;
  let from: number;
  let to: number;
  const c = () => apiClient(server.baseUrl);
  const path = () => `/curtailment/${g.plantUid}`;
  const order = (over: Record<string, unknown> = {}) => ({
    start: fmt(from + HOUR),
    end: fmt(from + 2 * HOUR),
    limitValue: 50,
    limitUnit: "pct",
    source: "kpx",
    note: "KPX 출력 제어",
    ...over,
  });

  beforeAll(async () => {
    server = await startServer({ store: storeKind, port: await freePort(), timeoutMs: 180_000 });
    store = await openTestStore(server.databaseUrl);
    const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
    const now = Date.now();
    const mine = Number(
      (
        await store.db
          .insertInto("node")
          .values({ parent_seq: root.seq, name: "출력 제어 테스트", sort_order: 0, created_at: now })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );
    const elsewhere = Number(
      (
        await store.db
          .insertInto("node")
          .values({ parent_seq: root.seq, name: "남의 그룹", sort_order: 1, created_at: now })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );
    // Two 50 kW inverters (100 kW plant) over three hours at 800 W/m², 25 °C: both deliver 35 kW, except during the
    // order's hour (the second), when they are held at 25 kW (50 % of the plant: 25 kW each).
    g = await createGatewayFixture(store, { inverters: 2, capaKw: 100, nodeSeq: mine });
    to = now - (now % HOUR) - HOUR;
    from = to - 3 * HOUR;
    const readings: unknown[] = [];
    for (let i = 0; i < 18; i++) {
      const ts = from + i * STEP;
      const held = i >= 6 && i < 12;
      for (const [n, dev] of g.inverters.entries())
        readings.push({ device: dev, ts, values: { iw: held ? 25_000 : 35_000, total_wh: (n + 1) * 1e6 + 6_000 * (i + 1) } });
      readings.push({ device: g.env, ts, values: { iis: 800, his: 600, sts: 25, ats: 20 } });
    }
    const res = await postReadings(server.baseUrl, g, readings);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    admin = (await c().session("admin", ADMIN_PASSWORD)).accessToken;
    const f = await createMember(store, { node_seq: elsewhere, auth: 10 });
    foreign = (await c().session(f.id, f.password)).accessToken;
    const v = await createMember(store, { node_seq: mine, auth: 1 });
    viewer = (await c().session(v.id, v.password)).accessToken;
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it("create, list by period, update, delete", async () => {
    const created = await c().call("POST", path(), { token: admin, json: order() });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ plantUid: g.plantUid, limitValue: 50, limitUnit: "pct", limitKw: 50, source: "kpx" });
    expect(created.body.from).toBe(from + HOUR);
    const id = created.body.id;
    const listed = await c().call("GET", `${path()}?${new URLSearchParams({ start: fmt(from), end: fmt(to) })}`, {
      token: viewer,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.orders.map((o: { id: number }) => o.id)).toEqual([id]);
    const before = await c().call("GET", `${path()}?${new URLSearchParams({ start: fmt(from - 5 * HOUR), end: fmt(from) })}`, {
      token: admin,
    });
    expect(before.body.orders).toEqual([]);
    const changed = await c().call("PUT", `${path()}/${id}`, {
      token: admin,
      json: order({ limitValue: 40, limitUnit: "kw", source: "owner" }),
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id, limitKw: 40, source: "owner" });
    const gone = await c().call("DELETE", `${path()}/${id}`, { token: admin });
    expect(gone.status, gone.text).toBe(204);
    expect((await c().call("GET", path(), { token: admin })).body.orders).toEqual([]);
    expect((await c().call("DELETE", `${path()}/${id}`, { token: admin })).status).toBe(404);
  });

  it("scope: a member who cannot see the plant gets 404; one below the plant level may read, not write (403)", async () => {
    expect((await c().call("GET", path(), { token: foreign })).status).toBe(404);
    expect((await c().call("POST", path(), { token: foreign, json: order() })).status).toBe(404);
    const w = await c().call("POST", path(), { token: viewer, json: order() });
    expect(w.status).toBe(403);
    expect(w.body.message).toBe("admin_level_insufficient");
    expect((await c().call("GET", "/curtailment/NO_SUCH_PLANT", { token: admin })).status).toBe(404);
  });

  it("bad input: 400 with the field and its problem", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ end: fmt(from) }, "end", "end_before_start"],
      [{ limitValue: 0 }, "limitValue", "too_small"],
      [{ limitValue: -5 }, "limitValue", "too_small"],
      [{ limitValue: 101 }, "limitValue", "above_100_pct"],
      [{ limitValue: 150, limitUnit: "kw" }, "limitValue", "above_capacity"],
      [{ source: "moon" }, "source", "bad_source"],
      [{ start: "2026-02-30 10:00" }, "start", "bad_date"],
    ];
    for (const [over, field, problem] of cases) {
      const res = await c().call("POST", path(), { token: admin, json: order(over) });
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.fields?.[field], JSON.stringify(res.body)).toBe(problem);
    }
    expect((await c().call("GET", path(), { token: admin })).body.orders).toEqual([]);
  });

  it("CSV import: all rows or none; a bad row names its line and field", async () => {
    const day = formatSeoul(from - 3 * 86_400_000, "YYYY-MM-DD");
    const bad = [
      "start,end,limit,unit,source,note",
      `${day} 10:00,${day} 12:00,60,kw,kpx,첫째`,
      `${day} 13:00,${day} 12:00,60,kw,grid_operator,끝이 앞`,
      `${day} 14:00,${day} 15:00,120,pct,owner,`,
    ].join("\n");
    const refused = await c().call("POST", `${path()}/import`, { token: admin, json: { csv: bad } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.message).toBe("invalid_rows");
    expect(refused.body.fields).toEqual({ "line3.end": "end_before_start", "line4.limitValue": "above_100_pct" });
    expect((await c().call("GET", path(), { token: admin })).body.orders).toEqual([]);
    const good = bad.replace(`${day} 13:00,${day} 12:00`, `${day} 11:00,${day} 12:30`).replace(",120,pct", ",80,pct");
    const done = await c().call("POST", `${path()}/import`, { token: admin, json: { csv: good } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ imported: 3 });
    const all = (await c().call("GET", path(), { token: admin })).body.orders;
    expect(all.map((o: { source: string; limitKw: number }) => [o.source, o.limitKw])).toEqual([
      ["kpx", 60],
      ["grid_operator", 60],
      ["owner", 80],
    ]);
    const noHeader = await c().call("POST", `${path()}/import`, { token: admin, json: { csv: "a,b\n1,2" } });
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.fields.csv).toMatch(/^missing_columns:/);
    for (const o of all) await c().call("DELETE", `${path()}/${o.id}`, { token: admin });
  });

  it("in the diagnosis: the order's hour is left out of PR and availability, its lost energy reported", async () => {
    const created = await c().call("POST", path(), { token: admin, json: order() });
    expect(created.status, created.text).toBe(200);
    try {
      for (const unit of [10, 60]) {
        const res = await c().call("POST", "/diagnose/generate", {
          token: admin,
          json: { deviceUids: g.inverters, unit, start: fmt(from), end: fmt(to), periodType: "custom" },
        });
        expect(res.status, res.text).toBe(200);
        // Outside the order: 70 kW from 100 kW at 800 W/m² → PR 70 / 80 = 0.875 (the order's 50 kW hour left out).
        expect(res.body.figures.performanceRatio).toBeCloseTo(0.875, 6);
        const cu = res.body.curtailment;
        expect(cu.orders).toBe(1);
        expect(cu.hours).toBeCloseTo(1, 9);
        // Expected 100 kW × 0.8 × 0.87 = 69.6 kWh in the hour, 50 kWh delivered: 19.6 kWh lost.
        expect(cu.lostKwh).toBeCloseTo(19.6, 6);
        expect(cu.list[0].id).toBe(created.body.id);
        expect(res.body.availability.exclusions.curtailment.hours).toBeCloseTo(1, 9);
      }
      const daily = await c().call("POST", "/diagnose/generate", {
        token: admin,
        json: { deviceUids: g.inverters, unit: 1440, start: fmt(from), end: fmt(to), periodType: "custom" },
      });
      expect(daily.status, daily.text).toBe(200);
      expect(daily.body.figures.performanceRatio).toBeCloseTo(0.875, 6);
      expect(daily.body.curtailment.lostKwh).toBeCloseTo(19.6, 6);
    } finally {
      await c().call("DELETE", `${path()}/${created.body.id}`, { token: admin });
    }
  });
});
