/**
 * Plant status calls against a real server on both stores (SPEC §7 Plant status, §3 payloads, §4 status and
 * ordering, §5 sanitising): POST /pvstatus/group, GET /pvstatus/new, GET /pvstatus, GET /plant/pvstatus.
 * The fleet (pvstatus-fixture.ts) is fed through the real ingest, and its alarms come from the real engine.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceGenerationKw } from "../../domain/reference-generation";
import { parseLabels, parseSeries } from "../../domain/series";
import { formatSeoul } from "../../domain/seoul-time";
import type {
  PlantCardData,
  PvstatusGroupResponse,
  PvstatusOverviewResponse,
  PvstatusSummaryResponse,
} from "../../domain/contract/pvstatus";
import { openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, REPO_ROOT, startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";
import { createPvFleet, needsOneSeoulDay, postReadings, SETTLED_COUNTS, slotAt, type PvFleet } from "./pvstatus-fixture";

describe.each(STORES)("plant status API on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let fleet: PvFleet;
  let token: string;
  let adminToken: string;
  const c = () => apiClient(server.baseUrl);
  const group = (body: Record<string, unknown> = {}, tk = token) =>
    c().call<PvstatusGroupResponse>("POST", "/pvstatus/group", { token: tk, json: body });
  const uid = (key: string) => fleet.plants[key]!.uid;
  const names = (res: { body: PvstatusGroupResponse }) => res.body.list.map((p) => p.name);

  beforeAll(async () => {
    server = await startServer({ store: storeKind, env: { ALARM_INTERVAL_MS: "500" } });
    store = await openTestStore(server.databaseUrl);
    fleet = await createPvFleet(store, server.baseUrl);
    token = (await c().session(fleet.member.id, fleet.member.password)).accessToken;
    adminToken = (await c().session("admin", ADMIN_PASSWORD)).accessToken;
    // The alarm engine settles the fleet within a few evaluations.
    let counts: unknown;
    await waitFor(
      async () => {
        counts = (await group()).body.counts;
        return JSON.stringify(counts) === JSON.stringify(SETTLED_COUNTS);
      },
      {
        ms: 20_000,
        every: 250,
        failure: () => `fleet did not settle: ${JSON.stringify(counts)}\n${server.output().slice(-2000)}`,
      },
    );
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  describe("POST /pvstatus/group", () => {
    it("counts every status of the member's plants exactly (SPEC §3 Status counts)", async () => {
      const res = await group();
      expect(res.status).toBe(200);
      expect(res.body.counts).toEqual(SETTLED_COUNTS);
      expect(res.body.total).toBe(9);
      expect(res.body.hasMore).toBe(false);
    });

    it("orders by status group (grid: 1000001 before 1000003; graph: the reverse), then name", async () => {
      const grid = await group({ viewMode: "gd" });
      expect(names(grid)).toEqual([
        "바다 통신장애",
        "사랑 끊김",
        "마루 인버터고장",
        "아라 저발전",
        "다온 무발전",
        "라온 무자료",
        "차차 연결",
        "가람 정상 1",
        "나래 정상 2",
      ]);
      const graph = await group({ viewMode: "gh", series: false });
      expect(names(graph).slice(0, 4)).toEqual(["사랑 끊김", "바다 통신장애", "마루 인버터고장", "아라 저발전"]);
      expect(graph.body.list.map((p) => p.statusData.status)).toEqual([3, 4, 6, 5, 1, 0, 0, 2, 2]);
    });

    it("sorts inside each group by the chosen key and order", async () => {
      const res = await group({ sortType: "capa", order: "desc" });
      expect(names(res).slice(-2)).toEqual(["나래 정상 2", "가람 정상 1"]);
      expect(names(res).slice(4, 7)).toEqual(["다온 무발전", "차차 연결", "라온 무자료"]);
      const byName = await group({ order: "desc" });
      expect(names(byName).slice(-2)).toEqual(["나래 정상 2", "가람 정상 1"]);
    });

    it("filters by status: a kind alone, the warning umbrella, and everything but normal", async () => {
      const noNormal = await group({
        st: ["warning", "warning_1000001", "warning_1000003", "warning_1000004", "warning_1000006", "notWork"],
      });
      expect(noNormal.body.total).toBe(7);
      expect(noNormal.body.list.every((p) => p.statusData.status !== 2)).toBe(true);
      // Counts stay those of the whole selection, so the switched-off filters still show theirs.
      expect(noNormal.body.counts.normalCount).toBe(2);
      const noWarnings = await group({ st: "normal,notWork,warning_1000001,warning_1000003,warning_1000004,warning_1000006" });
      expect(noWarnings.body.total).toBe(5);
      const no6 = await group({ st: ["normal", "notWork", "warning", "warning_1000001", "warning_1000003", "warning_1000004"] });
      expect(names(no6)).not.toContain("마루 인버터고장");
      expect(no6.body.total).toBe(8);
      expect((await group({ st: [] })).body.total).toBe(0);
    });

    it("searches by name (default), locality and uid; countType 'search' counts the matches", async () => {
      expect(names(await group({ searchText: "통신" }))).toEqual(["바다 통신장애"]);
      const byLocality = await group({ searchType: "locality", searchText: "경상", countType: "search" });
      expect(names(byLocality)).toEqual(["사랑 끊김", "나래 정상 2"]);
      expect(byLocality.body.counts).toMatchObject({
        normalCount: 1,
        warningCount: 1,
        warning_1000003_Count: 1,
        notWorkCount: 0,
      });
      expect(names(await group({ searchType: "uid", searchText: uid("x0").toLowerCase() }))).toEqual(["라온 무자료"]);
    });

    it("limits the list and says whether more remain", async () => {
      const res = await group({ limit: 3 });
      expect(res.body.list).toHaveLength(3);
      expect(res.body).toMatchObject({ total: 9, limit: 3, hasMore: true });
    });

    it("answers a card with SPEC §3 fields, units and scaling", async (ctx) => {
      needsOneSeoulDay(fleet, (note) => ctx.skip(note));
      const res = await group({ searchText: "가람" });
      const card = res.body.list[0]!;
      expect(card).toMatchObject({
        name: "가람 정상 1",
        plant_uid: uid("n1"),
        statusData: { status: 2, statusName: "normal" },
        dailys: 70_000,
        totalGenTime: 0.7,
        capa: 10_000,
        faults: [],
      });
      expect(card.genData).toMatchObject({
        total_capa: 100,
        capaUnit: "kW",
        iw: { value: "54.00", unit: "kW" },
        day_accrue: { value: "70.00", unit: "kWh" },
        month_accrue: { value: "70.00", unit: "kWh" },
        year_accrue: { value: "70.00", unit: "kWh" },
        // The grid view asks for no series.
        labels: "",
        invDatas: "",
      });
    });

    it("gives the graph view today's series: summed inverters, irradiance mode, reference generation", async (ctx) => {
      needsOneSeoulDay(fleet, (note) => ctx.skip(note));
      const res = await group({ searchText: "가람", viewMode: "gh" });
      const g = res.body.list[0]!.genData;
      const labels = parseLabels(g.labels);
      const at = (ms: number) => labels.indexOf(formatSeoul(ms, "HH:mm"));
      const [t0, t1, t2] = fleet.slots;
      const now0 = at(t0);
      expect(labels[0]).toBe("00:00");
      expect(now0).toBe(labels.length - 1);
      const gen = parseSeries(g.invDatas, labels.length);
      const irr = parseSeries(g.envDatas, labels.length);
      const ref = parseSeries(g.stsDatas, labels.length);
      expect(gen[now0]).toBe(54);
      expect(gen[at(t2)]).toBe(19);
      expect(g.envInfo).toEqual({ mode: 3, source: "iis", unit: "W/m²" });
      expect(irr[now0]).toBe(600);
      expect(ref[now0]).toBeCloseTo(referenceGenerationKw(100, 600, 30), 3);
      // Missing steps are zeros, one value per label (SPEC §5).
      expect(gen).toHaveLength(labels.length);
      expect(gen[at(t1)]).toBe(0);
    });

    it("sanitises the series: generation above capacity is capped (SPEC §5)", async (ctx) => {
      needsOneSeoulDay(fleet, (note) => ctx.skip(note));
      const res = await group({ searchText: "나래", viewMode: "gh" });
      const g = res.body.list[0]!.genData;
      const labels = parseLabels(g.labels);
      const gen = parseSeries(g.invDatas, labels.length);
      expect(gen[labels.indexOf(formatSeoul(fleet.slots[1], "HH:mm"))]).toBe(200);
      expect(gen[labels.length - 1]).toBe(150);
      expect(g.envInfo.mode).toBe(0);
    });

    it("hourly series are shifted one hour with the first bucket skipped (SPEC §4)", async () => {
      const res = await group({ searchText: "가람", viewMode: "gh", resolution: "hourly" });
      const labels = parseLabels(res.body.list[0]!.genData.labels);
      expect(labels[0]).toBe("01:00");
      const now = slotAt(0);
      expect(labels.at(-1)).toBe(formatSeoul(now - (now % 3_600_000) + 3_600_000, "HH:mm"));
    });

    it("names the fault of abnormal plants", async () => {
      const res = await group({ searchText: "인버터고장" });
      // The fault reads as its bit's name from the fault-code table (1: DC 과전압), as on the alarm screen.
      expect(res.body.list[0]!.faults).toEqual([
        expect.objectContaining({ code: 1000006, message: "DC 과전압 (고장 코드 0x1)" }),
      ]);
      const comm = await group({ searchText: "통신장애" });
      expect(comm.body.list[0]!.faults.map((f) => f.code)).toEqual([1000001]);
    });

    it("shows only plants the member may see; the admin sees the other group's plant too", async () => {
      const mine = await group({ limit: 100 });
      expect(mine.body.list.map((p) => p.plant_uid).sort()).toEqual([...fleet.visible].sort());
      expect(names(mine)).not.toContain("자바 남의것");
      const admin = await group({ searchText: "자바 남의것" }, adminToken);
      expect(names(admin)).toEqual(["자바 남의것"]);
      // A plant filter cannot reach outside either.
      const other = await group({ type: "plant", uid: uid("out") });
      expect(other.body.total).toBe(0);
      const own = await group({ type: "plant", uid: uid("n2") });
      expect(names(own)).toEqual(["나래 정상 2"]);
      const node = await group({ type: "node", selnode: fleet.nodeSeq, limit: 100 });
      expect(node.body.total).toBe(8);
    });

    it("refuses bad input with 400 and field messages", async () => {
      for (const body of [
        { limit: 0 },
        { limit: 10_001 },
        { viewMode: "list" },
        { st: ["bogus"] },
        { sortType: "price" },
        { order: "up" },
        { searchType: "address" },
        { type: "plant" },
        { selnode: -1 },
        { uid: "../x" },
        { unknown: 1 },
        { searchText: "x".repeat(101) },
      ]) {
        const res = await group(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const err = res.body as unknown as { message: string; fields?: Record<string, string> };
        expect(err.message).toBe("invalid_input");
        expect(Object.keys(err.fields ?? {}).length, JSON.stringify(body)).toBeGreaterThan(0);
      }
      const malformed = await c().call("POST", "/pvstatus/group", { token, raw: "{not json" });
      expect(malformed.status).toBe(400);
    });

    it("needs a signed-in member", async () => {
      const res = await c().call("POST", "/pvstatus/group", { json: {} });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ isLogin: false });
    });

    it("shows a new reading on the very next call, under a new ETag", async () => {
      const before = await group({ searchText: "라온" });
      expect(before.body.list[0]!.statusData.status).toBe(0);
      // The tag names the answer: the same text has the same tag (the portal then skips the body), another text
      // another tag. (A small selection is computed afresh each time, with a new "now", not read from the kept rows.)
      const again = await group({ searchText: "라온" });
      expect(before.headers.get("etag")).toMatch(/^"[\w-]+"$/);
      expect(again.headers.get("etag") === before.headers.get("etag")).toBe(again.text === before.text);
      await postReadings(server.baseUrl, fleet.plants.x0!, [
        { device: fleet.plants.x0!.inverters[0], ts: slotAt(0), values: { iw: 12_000, today_wh: 6_000, total_wh: 6_000 } },
      ]);
      const after = await group({ searchText: "라온" });
      expect(after.body.list[0]!.statusData).toEqual({ status: 2, statusName: "normal" });
      expect(after.body.list[0]!.genData.iw).toEqual({ value: "12.00", unit: "kW" });
      expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
      // Put it back as it was for the other tests (no data again is not possible: stop counting it as normal).
      await store.db.deleteFrom("device_latest").where("device_uid", "=", fleet.plants.x0!.inverters[0]!).execute();
    });
  });

  describe("the portal's poll of /pvstatus (a Remix data request, as the page makes every 6 s)", () => {
    it("answers the whole list inline, gzipped when asked; an unchanged list is a 304 to its ETag, a new reading a 200", async () => {
      const t = await c().session(fleet.member.id, fleet.member.password);
      const cookie = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1; pvjs=1`;
      const url = `${server.baseUrl}/pvstatus?q=${encodeURIComponent("라온")}&_data=${encodeURIComponent("routes/_app.pvstatus")}`;
      type Poll = { view: { q: string }; list: { ok: boolean; kind: string; now: number | null; list: PlantCardData[] } };
      const poll = async (encoding: "gzip" | "identity", etag?: string) => {
        // Node's fetch inflates a gzipped body by itself; the header tells how it was sent.
        const res = await fetch(url, {
          headers: { cookie, "accept-encoding": encoding, ...(etag ? { "if-none-match": etag } : {}) },
        });
        return {
          status: res.status,
          etag: res.headers.get("etag"),
          cacheControl: res.headers.get("cache-control"),
          type: res.headers.get("content-type"),
          encoding: res.headers.get("content-encoding"),
          text: await res.text(),
        };
      };
      const plain = await poll("identity");
      const zipped = await poll("gzip");
      expect([plain.status, zipped.status]).toEqual([200, 200]);
      expect(plain.type).toMatch(/^application\/json/);
      expect(plain.encoding).toBeNull();
      expect(zipped.encoding).toBe("gzip");
      // A strong tag of the loader's JSON, the same for the same list; the browser keeps the answer and asks with it.
      expect(plain.etag).toMatch(/^"[\w-]{43}"$/);
      expect(zipped.etag).toBe(plain.etag);
      expect(plain.cacheControl).toBe("private, no-cache");
      const before = JSON.parse(plain.text) as Poll;
      expect(zipped.text).toBe(plain.text);
      expect(before.view.q).toBe("라온");
      // Not a deferred stream: the list itself, ready for the page, without the time the API made it.
      expect(before.list).toMatchObject({ ok: true, kind: "cards", now: null });
      expect(before.list.list.map((p) => p.name)).toEqual(["라온 무자료"]);
      expect(before.list.list[0]!.statusData.status).toBe(0);
      // Nothing changed: 304 without a body, whatever the encoding asked for.
      const unchanged = await poll("gzip", plain.etag!);
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe("");
      expect(unchanged.etag).toBe(plain.etag);
      expect((await poll("identity", `W/${plain.etag}, "other"`)).status).toBe(304);
      expect((await poll("identity", '"other"')).status).toBe(200);
      await postReadings(server.baseUrl, fleet.plants.x0!, [
        { device: fleet.plants.x0!.inverters[0], ts: slotAt(0), values: { iw: 9_000, today_wh: 4_000, total_wh: 4_000 } },
      ]);
      // The new reading drops its plant's status row: the next poll is answered afresh, and the same tag is a 200 then.
      const changed = await waitFor(
        async () => {
          const answer = await poll("gzip", plain.etag!);
          return answer.status === 304 ? null : answer;
        },
        { ms: 15_000, every: 250 },
      );
      expect(changed.status).toBe(200);
      expect(changed.etag).not.toBe(plain.etag);
      const after = JSON.parse(changed.text) as Poll;
      expect(after.list.list[0]!.statusData.status).toBe(2);
      expect(after.list.list[0]!.genData.iw).toEqual({ value: "9.00", unit: "kW" });
      await store.db.deleteFrom("device_latest").where("device_uid", "=", fleet.plants.x0!.inverters[0]!).execute();
    });
  });

  describe("the portal's /pvstatus document", () => {
    it("is the whole page in brotli, gzip or plain, as the client asks; the favicon is still served", async () => {
      const t = await c().session(fleet.member.id, fleet.member.password);
      const cookie = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1`;
      const page = async (encoding: string) => {
        // Node's fetch decodes br and gzip by itself; the header tells how the page was sent.
        const res = await fetch(`${server.baseUrl}/pvstatus?q=${encodeURIComponent("라온")}`, {
          headers: { cookie, "accept-encoding": encoding },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get("vary")).toMatch(/Accept-Encoding/i);
        return { encoding: res.headers.get("content-encoding"), html: await res.text() };
      };
      const pages = [await page("gzip, deflate, br, zstd"), await page("gzip"), await page("identity")];
      expect(pages.map((p) => p.encoding)).toEqual(["br", "gzip", null]);
      for (const { html } of pages) {
        // Each decodes to the whole page (a page carries its own time and CSRF token, so they differ there).
        expect(html.startsWith('<!DOCTYPE html><html lang="ko"')).toBe(true);
        expect(html).toContain("라온 무자료");
        expect(html.trimEnd().endsWith("</html>")).toBe(true);
      }
      const icon = await fetch(`${server.baseUrl}/favicon.svg`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    });
  });

  describe("the portal's other wallboard polls and its browser build", () => {
    it("answers a poll of the dashboard (/) and of /watch 304 to its ETag while nothing it shows has changed", async () => {
      const t = await c().session(fleet.member.id, fleet.member.password);
      const cookie = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1`;
      for (const [path, route] of [
        ["/", "routes/_app._index"],
        ["/watch", "routes/_app.watch"],
      ] as const) {
        const url = `${server.baseUrl}${path}?_data=${encodeURIComponent(route)}`;
        const first = await fetch(url, { headers: { cookie } });
        expect(first.status).toBe(200);
        await first.text();
        let etag = first.headers.get("etag")!;
        expect(etag).toMatch(/^"[\w-]{43}"$/);
        // Its "as of" time is to the minute it shows: asked again across a minute's turn, the tag may move once.
        // (A deadline for a hang, not a speed: at load 20 one poll of / took seconds and the default 8 s ran out.)
        let last = 0;
        const again = await waitFor(
          async () => {
            const res = await fetch(url, { headers: { cookie, "if-none-match": etag } });
            await res.text();
            last = res.status;
            if (res.status === 304) return res;
            // The minute turned: the next poll asks with the tag of what it was given now.
            etag = res.headers.get("etag") ?? etag;
            return null;
          },
          { ms: 60_000, every: 250, failure: () => `${path}: no 304 in 60 s (last answer ${last})` },
        );
        expect(again.headers.get("etag")).toBe(etag);
      }
    });

    it("serves the page's scripts as the .br or .gz made at build, kept for a year", async () => {
      const t = await c().session(fleet.member.id, fleet.member.password);
      const cookie = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1`;
      const html = await (await fetch(`${server.baseUrl}/pvstatus`, { headers: { cookie } })).text();
      const script = /<link rel="modulepreload" href="(\/build\/_shared\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const file = path.join(REPO_ROOT, "public", script!);
      for (const [accept, encoding, onDisk] of [
        ["gzip, deflate, br, zstd", "br", `${file}.br`],
        ["gzip", "gzip", `${file}.gz`],
        ["identity", null, file],
      ] as const) {
        // Raw bytes as sent (node:http does not decode): the file made at build, not compressed per request.
        const res = await new Promise<http.IncomingMessage & { body: Buffer }>((resolve, reject) =>
          http
            .get(`${server.baseUrl}${script}`, { headers: { "accept-encoding": accept } }, (r) => {
              const chunks: Buffer[] = [];
              r.on("data", (b: Buffer) => chunks.push(b));
              r.on("end", () => resolve(Object.assign(r, { body: Buffer.concat(chunks) })));
            })
            .on("error", reject),
        );
        expect(res.statusCode).toBe(200);
        expect(res.headers["content-encoding"]).toBe(encoding ?? undefined);
        expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(res.headers["content-type"]).toMatch(/javascript/);
        expect(res.headers.vary).toMatch(/Accept-Encoding/i);
        expect(res.body.equals(readFileSync(onDisk))).toBe(true);
      }
    });
  });

  describe("GET /pvstatus/new", () => {
    it("answers one plant's fresh card, never cached", async () => {
      const res = await c().call<PlantCardData>("GET", `/pvstatus/new?plantUid=${uid("n1")}`, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toMatch(/no-cache/);
      expect(res.body).toMatchObject({ plant_uid: uid("n1"), dailys: 70_000, statusData: { status: 2 } });
      expect(parseSeries(res.body.genData.invDatas).at(-1)).toBe(54);
    });

    it("answers 404 for a plant the member may not see, and 400 without a valid uid", async () => {
      expect((await c().call("GET", `/pvstatus/new?plantUid=${uid("out")}`, { token })).status).toBe(404);
      expect((await c().call("GET", `/pvstatus/new?plantUid=${uid("out")}`, { token: adminToken })).status).toBe(200);
      expect((await c().call("GET", "/pvstatus/new", { token })).status).toBe(400);
      expect((await c().call("GET", "/pvstatus/new?plantUid=a%20b", { token })).status).toBe(400);
    });
  });

  describe("GET /pvstatus (overview)", () => {
    it("answers devices, calcValues, counts and derived totals of the member's plants", async (ctx) => {
      needsOneSeoulDay(fleet, (note) => ctx.skip(note));
      const res = await c().call<PvstatusOverviewResponse>("GET", "/pvstatus", { token });
      expect(res.status).toBe(200);
      const o = res.body;
      expect(o.counts).toEqual(SETTLED_COUNTS);
      expect(o.plants.map((p) => p.plant_uid).sort()).toEqual([...fleet.visible].sort());
      // 100+200+50+30+100+100+100+100+40 kW
      expect(o.total_capa).toBe(820);
      // 28+26 + 150 + 0 + 0 (fault) + 26 + 40 (stale? no: fresh) + 2 kW
      expect(o.total_iw).toBe(272_000);
      // The faulted plant (open alarm, no output) counts 0, as its card, the main table and watch show it
      // (SPEC §5 alarm rule decided once, issue 13.10); its meter's 5 kWh stayed in the total before.
      expect(o.today_gen).toBe(70_000 + 125_000 + 0 + 0 + 20_000 + 60_000 + 3_000);
      expect(o.month_gen).toBe(o.today_gen);
      const inverterCount = 2 + 1 + 1 + 1 + 1 + 2 + 1 + 1 + 1;
      expect(o.pvstatus.devices).toHaveLength(inverterCount);
      expect(o.pvstatus.install).toEqual({ plants: 9, inverters: inverterCount, total_capa: 820 });
      const d = o.pvstatus.devices.find((x) => x.uid === fleet.plants.n1!.inverters[0])!;
      expect(d).toMatchObject({ iw: 28_000, accrue: 1_020_000, daily: 40_000, offset_day: 980_000, offset_month: 980, fault: 0 });
      const today = o.calcValues.today.find((x) => x.device === d.uid)!;
      expect(today.accrue - today.offset).toBe(40_000);
      expect(o.pvstatus.devices.find((x) => x.uid === fleet.plants.f6!.inverters[0])!.fault).toBe(1);
      expect(o.pvstatus.reports).toHaveLength(7);
      expect(o.pvstatus.reports.at(-1)!.gen).toBe(o.today_gen);
      expect(o.pvstatus.devices.some((x) => x.plant_uid === uid("out"))).toBe(false);
    });

    it("part=summary answers the same figures without the lists; an unknown part is refused", async () => {
      const full = (await c().call<PvstatusOverviewResponse>("GET", "/pvstatus", { token })).body;
      const res = await c().call<PvstatusSummaryResponse>("GET", "/pvstatus?part=summary", { token });
      expect(res.status).toBe(200);
      const { pvstatus, calcValues, plants, now: _fullNow, ...figures } = full;
      const { install, now: _now, ...summary } = res.body;
      expect(summary).toEqual(figures);
      expect(install).toEqual(pvstatus.install);
      expect(Object.keys(res.body).sort()).toEqual(
        [
          "accrue_gen",
          "counts",
          "install",
          "month_gen",
          "now",
          "today_gen",
          "total_capa",
          "total_iw",
          "total_pw",
          "year_gen",
          "yesterday_gen",
        ].sort(),
      );
      expect(calcValues.today.length + plants.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.body).length).toBeLessThan(JSON.stringify(full).length / 5);
      expect((await c().call("GET", "/pvstatus?part=all", { token })).status).toBe(400);
    });
  });

  describe("GET /plant/pvstatus", () => {
    it("answers plant-status records with today's hourly series", async () => {
      const res = await c().call("GET", "/plant/pvstatus", { token });
      expect(res.status).toBe(200);
      const rec = res.body.plants.find((p: { plant_uid: string }) => p.plant_uid === uid("n2"));
      expect(rec).toMatchObject({
        name: "나래 정상 2",
        capa: 20_000,
        dailys: 125_000,
        statusData: { status: 2, statusName: "normal" },
      });
      const times = parseLabels(rec.times);
      expect(parseSeries(rec.days)).toHaveLength(times.length);
      expect(res.body.plants).toHaveLength(9);
      const slim = await c().call("GET", "/plant/pvstatus?series=0", { token });
      expect(slim.body.plants[0].days).toBe("");
    });
  });

  describe("the set of visible plants", () => {
    it("shows a plant created through the API on the very next call, and forgets it as soon as it is deleted", async () => {
      // The admin's visible plants are kept now (a kept answer, api/cache/table-answers.ts).
      const before = await c().call<PvstatusOverviewResponse>("GET", "/pvstatus", { token: adminToken });
      expect(before.status).toBe(200);
      const created = await c().call<{ plant: { uid: string } }>("POST", "/plant", {
        token: adminToken,
        json: { name: "방금 만든 발전소", capa: 10, locality: "경북" },
      });
      expect(created.status, created.text).toBe(201);
      const uid = created.body.plant.uid;
      expect(before.body.plants.map((p) => p.plant_uid)).not.toContain(uid);
      const after = await c().call<PvstatusOverviewResponse>("GET", "/pvstatus", { token: adminToken });
      expect(after.body.plants.map((p) => p.plant_uid)).toContain(uid);
      const deleted = await c().call("DELETE", `/plant/${uid}?confirm=delete`, { token: adminToken });
      expect(deleted.status, deleted.text).toBeLessThan(300);
      const gone = await c().call<PvstatusOverviewResponse>("GET", "/pvstatus", { token: adminToken });
      expect(gone.body.plants.map((p) => p.plant_uid)).not.toContain(uid);
    });
  });
});
