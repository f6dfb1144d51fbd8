/**
 * Diagrams, custom pages and help against a real server on both stores: GET /diagram, /node/diagrams,
 * PUT/DELETE /diagram/{plantUid}/svg (hostile drawings sanitised), POST /custom, GET /node/customs,
 * GET/DELETE /custom/{unique}, GET /help/file and /help/file/{id}. Readings go through the real ingest
 * and the inverter fault alarm comes from the real alarm engine. Everything is member-scoped: a foreign
 * plant answers 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiagramElement, DiagramResponse } from "../../domain/contract/diagram";
import { openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { freePort, startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";
import { createDiagramFleet, type DiagramFleet } from "./diagram-fixture";

const find = (e: DiagramElement, id: string): DiagramElement | undefined =>
  e.id === id ? e : e.children.map((c) => find(c, id)).find(Boolean);

describe.each(STORES)("diagrams, custom pages and help on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let f: DiagramFleet;
  const tok: Record<string, string> = {};
  const c = () => apiClient(server.baseUrl);
  const call = <T = any>(method: string, path: string, who: string, json?: unknown) =>
    c().call<T>(method, path, { token: tok[who], json });

  beforeAll(async () => {
    server = await startServer({
      store: storeKind,
      port: await freePort(3400, 3499),
      env: { ALARM_INTERVAL_MS: "300" },
      timeoutMs: 180_000,
    });
    store = await openTestStore(server.databaseUrl);
    f = await createDiagramFleet(store, server.baseUrl);
    for (const who of ["admin", "viewer", "guest", "other", "noFlags"] as const) {
      tok[who] = (await c().session(f[who].id, f[who].password)).accessToken;
    }
    await waitFor(
      async () => {
        const d = await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "viewer");
        return d.status === 200 && find(d.body.root, `dev:${f.dev("AI2")}`)?.alarm?.code === 1000006;
      },
      { ms: 20_000, every: 250, failure: () => `the inverter fault alarm did not come\n${server.output().slice(-1500)}` },
    );
  }, 300_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  describe("GET /diagram", () => {
    it("draws grid → VCB → transformer → ACB → inverters → board → strings with live values and states", async () => {
      const res = await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "viewer");
      expect(res.status).toBe(200);
      const d = res.body;
      expect(d.kind).toBe("auto");
      expect(d.plant).toMatchObject({ plant_uid: f.pa.uid, name: "단선 가" });
      expect(d.root).toMatchObject({ type: "grid", condition: "none" });
      const vcb = d.root.children[0]!;
      expect(vcb).toMatchObject({
        type: "vcb",
        device_uid: f.dev("AV"),
        condition: "ok",
        values: { breaker: "closed", w: 20_000, gf_ma: 2.5 },
      });
      const tr = vcb.children[0]!;
      expect(tr.type).toBe("transformer");
      const acb = tr.children[0]!;
      expect(acb).toMatchObject({ type: "acb", condition: "open", values: { breaker: "open", gf_ma: 0.4 } });
      expect(acb.children.map((x) => x.device_uid)).toEqual([f.dev("AI1"), f.dev("AI2")]);
      const [i1, i2] = acb.children;
      expect(i1).toMatchObject({ condition: "ok", values: { w: 20_000, today_wh: 50_000 } });
      expect(i2).toMatchObject({ condition: "alarm", alarm: { code: 1000006, level: 4 }, values: { fault_code: 512 } });
      const board = i1!.children[0]!;
      expect(board).toMatchObject({ type: "board", device_uid: f.dev("AB1"), values: { v: 700, a: 25 } });
      expect(board.children.map((s) => [s.name, s.values.a, s.condition])).toEqual([
        ["S1", 8, "ok"],
        ["S2", 8, "ok"],
        ["S3", 1, "low"],
        ["S4", 8, "ok"],
      ]);
      expect(d.sensors).toEqual([expect.objectContaining({ device_uid: f.dev("AE"), sts: 12, ats: 8, condition: "ok" })]);
      expect(d.devices.map((x) => x.device_uid).sort()).toEqual(
        [f.dev("AB1"), f.dev("AC"), f.dev("AI1"), f.dev("AI2"), f.dev("AV")].sort(),
      );
      expect(d.editable).toBe(false);
      expect((await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "admin")).body.editable).toBe(true);
      expect((await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "guest")).body.editable).toBe(false);
    });

    it("answers 404 for a foreign or unknown plant, 400 without a plant, 403 without the diagram service", async () => {
      expect((await call("GET", `/diagram?plantName=${f.pa.uid}`, "other")).status).toBe(404);
      expect((await call("GET", `/diagram?plantName=${f.pb.uid}`, "viewer")).body).toEqual({ message: "plant_not_found" });
      expect((await call("GET", `/diagram?plantName=NOPE${f.tag}`, "viewer")).status).toBe(404);
      const bad = await call("GET", "/diagram", "viewer");
      expect(bad.status).toBe(400);
      expect(bad.body.fields.plantName).toBe("required");
      expect((await call("GET", `/diagram?plantName=${"x".repeat(65)}`, "viewer")).status).toBe(400);
      expect((await call("GET", `/diagram?plantName=${f.pa.uid}`, "noFlags")).status).toBe(403);
    });

    it("lists the member's own plants only (GET /node/diagrams)", async () => {
      const mine = await call("GET", "/node/diagrams", "viewer");
      expect(mine.status).toBe(200);
      const uids = mine.body.diagramList.map((x: any) => x.plant_uid);
      expect(uids).toContain(f.pa.uid);
      expect(uids).not.toContain(f.pb.uid);
      expect((await call("GET", `/node/diagrams?uid=${f.pa.uid}`, "viewer")).body.diagramList).toEqual([
        { plant_uid: f.pa.uid, name: "단선 가", locality: "전라남도 해남군", kind: "auto" },
      ]);
      expect((await call("GET", `/node/diagrams?uid=${f.pb.uid}`, "viewer")).status).toBe(404);
      expect((await call("GET", `/node/diagrams?nodeUserId=${f.viewer.id}`, "viewer")).status).toBe(200);
      expect((await call("GET", `/node/diagrams?nodeUserId=${f.other.id}`, "viewer")).status).toBe(403);
    });
  });

  describe("uploaded drawings", () => {
    const hostile =
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" onload="alert(1)"><script>alert(document.cookie)</script>` +
      `<g id="inv1" onclick="steal()"><rect width="40" height="20" fill="url(http://evil.example/x)"/><text x="4" y="14">INV1</text></g>` +
      `<rect id="acb" x="60" width="40" height="20"/><foreignObject><iframe src="https://evil.example"/></foreignObject>` +
      `<image href="https://evil.example/p.png"/><use href="https://evil.example/s.svg#a"/><a href="javascript:alert(1)"><text>x</text></a></svg>`;

    it("stores a hostile drawing sanitised, binds its elements to devices and says what was removed", async () => {
      const put = await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", {
        svg: hostile,
        bindings: [
          { element: "inv1", device_uid: f.dev("AI2") },
          { element: "acb", device_uid: f.dev("AC") },
        ],
      });
      expect(put.status).toBe(200);
      expect(put.body.elements).toEqual(["inv1", "acb"]);
      expect(put.body.removed).toEqual(
        expect.arrayContaining(["<script>", "<foreignObject>", "<image>", "<a>", "onload", "onclick", "fill", "href"]),
      );
      const d = (await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "viewer")).body;
      expect(d.kind).toBe("svg");
      expect(d.uploaded_by).toBe(f.admin.id);
      expect(d.svg).toContain('<g id="inv1">');
      for (const bad of [/script/i, /onload|onclick/i, /evil\.example/, /foreignObject/, /<image/, /javascript:/])
        expect(d.svg).not.toMatch(bad);
      expect(d.bindings).toEqual([
        { element: "inv1", device_uid: f.dev("AI2") },
        { element: "acb", device_uid: f.dev("AC") },
      ]);
      expect((await call("GET", `/node/diagrams?uid=${f.pa.uid}`, "viewer")).body.diagramList[0].kind).toBe("svg");
    });

    it("refuses bad drawings and bindings with 400 and a field, and keeps the stored one", async () => {
      const before = (await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "viewer")).body.svg;
      const notSvg = await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", { svg: "<html><body>hi</body></html>" });
      expect(notSvg.status).toBe(400);
      expect(notSvg.body.fields).toEqual({ svg: "not_svg" });
      const missing = await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", {
        svg: hostile,
        bindings: [{ element: "nope", device_uid: f.dev("AI1") }],
      });
      expect(missing.body.fields).toEqual({ "bindings.0.element": "no_such_element" });
      const foreign = await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", {
        svg: hostile,
        bindings: [{ element: "inv1", device_uid: f.dev("BI1") }],
      });
      expect(foreign.body.fields).toEqual({ "bindings.0.device_uid": "no_such_device" });
      const twice = await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", {
        svg: hostile,
        bindings: [
          { element: "inv1", device_uid: f.dev("AI1") },
          { element: "inv1", device_uid: f.dev("AI2") },
        ],
      });
      expect(twice.body.fields).toEqual({ "bindings.1.element": "duplicate" });
      const badId = await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", {
        svg: hostile,
        bindings: [{ element: 'a b"', device_uid: f.dev("AI1") }],
      });
      expect(badId.body.fields["bindings.0.element"]).toBe("invalid_element_id");
      const big = await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", { svg: `<svg>${"<rect/>".repeat(90_000)}</svg>` });
      expect(big.status).toBe(400);
      expect(big.body.fields).toEqual({ svg: "too_large" });
      expect((await call("PUT", `/diagram/${f.pa.uid}/svg`, "admin", {})).body.fields).toEqual({ svg: "required" });
      expect((await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "viewer")).body.svg).toBe(before);
    });

    it("lets only plant administrators of that plant upload or remove (guest 403, viewer 403, foreign 404)", async () => {
      const body = { svg: "<svg><rect/></svg>" };
      expect((await call("PUT", `/diagram/${f.pa.uid}/svg`, "viewer", body)).body.message).toBe("admin_level_insufficient");
      expect((await call("PUT", `/diagram/${f.pa.uid}/svg`, "guest", body)).status).toBe(403);
      expect((await call("PUT", `/diagram/${f.pa.uid}/svg`, "other", body)).status).toBe(404);
      expect((await call("DELETE", `/diagram/${f.pa.uid}/svg`, "other")).status).toBe(404);
      expect((await call("DELETE", `/diagram/${f.pa.uid}/svg`, "admin")).status).toBe(204);
      expect((await call<DiagramResponse>("GET", `/diagram?plantName=${f.pa.uid}`, "viewer")).body).toMatchObject({
        kind: "auto",
        svg: null,
        bindings: [],
      });
    });
  });

  describe("custom pages", () => {
    const page = () => ({
      unique: "main-board",
      title: "내 현황판",
      widgets: [
        { kind: "status", plantName: f.pa.uid },
        { kind: "inverter", plantName: f.pa.uid, invStr: f.dev("AI2") },
        { kind: "environment", plantName: f.pa.uid },
        { kind: "chart", plantName: f.pa.uid },
      ],
    });

    it("creates, replaces, reads with live widget data, lists and deletes a member's page", async () => {
      const created = await call("POST", "/custom", "viewer", page());
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ unique: "main-board", created: true });
      const again = await call("POST", "/custom", "viewer", { ...page(), title: "현황판" });
      expect(again.status).toBe(200);
      expect(again.body.created).toBe(false);
      const res = await call("GET", "/custom/main-board", "viewer");
      expect(res.status).toBe(200);
      expect(res.body.page).toMatchObject({ unique: "main-board", title: "현황판" });
      const [status, inverter, env, chart] = res.body.widgets;
      expect(status).toMatchObject({
        kind: "status",
        index: 0,
        plant: { plant_uid: f.pa.uid, name: "단선 가" },
        card: { plant_uid: f.pa.uid, statusData: { status: 6 } },
      });
      expect(inverter.inverters.map((x: any) => [x.device_uid, x.condition])).toEqual([[f.dev("AI2"), "alarm"]]);
      expect(env.sensors).toEqual([expect.objectContaining({ device_uid: f.dev("AE"), sts: 12 })]);
      expect(chart.card.genData.labels.length).toBeGreaterThan(0);
      const list = await call("GET", `/node/customs?plant=${f.pa.uid}`, "viewer");
      expect(list.body.customList).toEqual([expect.objectContaining({ unique: "main-board", title: "현황판", widgetCount: 4 })]);
      expect(list.body.plantList.map((p: any) => p.plant_uid)).toEqual([f.pa.uid]);
      expect(list.body.deviceList.map((d: any) => [d.device_uid, d.kind])).toEqual([
        [f.dev("AI1"), 1],
        [f.dev("AI2"), 1],
        [f.dev("AE"), 4],
      ]);
      // Another member has no such page, and cannot delete it.
      expect((await call("GET", "/custom/main-board", "admin")).status).toBe(404);
      expect((await call("DELETE", "/custom/main-board", "admin")).status).toBe(404);
      expect((await call("DELETE", "/custom/main-board", "viewer")).status).toBe(204);
      expect((await call("GET", "/custom/main-board", "viewer")).status).toBe(404);
    });

    it("answers 404 for a widget of a foreign plant and 400 for bad input, writing nothing", async () => {
      const foreign = await call("POST", "/custom", "viewer", {
        unique: "x1",
        title: "x",
        widgets: [{ kind: "status", plantName: f.pb.uid }],
      });
      expect(foreign.status).toBe(404);
      expect((await call("GET", "/custom/x1", "viewer")).status).toBe(404);
      const wrongDevice = await call("POST", "/custom", "viewer", {
        unique: "x1",
        title: "x",
        widgets: [{ kind: "inverter", plantName: f.pa.uid, invStr: `${f.dev("AI1")},${f.dev("AE")}` }],
      });
      expect(wrongDevice.status).toBe(400);
      expect(wrongDevice.body.fields).toEqual({ "widgets.0.invStr": "no_such_device" });
      const bad = await call("POST", "/custom", "viewer", {
        unique: "Bad Name!",
        title: "",
        widgets: [{ kind: "clock", plantName: f.pa.uid }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toMatchObject({ unique: "invalid_unique", title: "required", "widgets.0.kind": "invalid_kind" });
      const many = await call("POST", "/custom", "viewer", {
        unique: "x1",
        title: "x",
        widgets: Array.from({ length: 25 }, () => ({ kind: "status", plantName: f.pa.uid })),
      });
      expect(many.body.fields).toEqual({ widgets: "too_many" });
      expect((await call("GET", "/custom/Not%20ok", "viewer")).status).toBe(400);
      expect((await call("GET", "/node/customs", "viewer")).body.customList).toEqual([]);
      expect((await call("GET", `/node/customs?plant=${f.pb.uid}`, "viewer")).status).toBe(404);
    });

    it("keeps a page whose plant went out of reach, with that widget empty", async () => {
      expect(
        (
          await call("POST", "/custom", "admin", {
            unique: "moved",
            title: "m",
            widgets: [{ kind: "status", plantName: f.pa.uid }],
          })
        ).status,
      ).toBe(201);
      const nodeB = (await store.db.selectFrom("plant").select("node_seq").where("uid", "=", f.pb.uid).executeTakeFirstOrThrow())
        .node_seq;
      const nodeA = (await store.db.selectFrom("plant").select("node_seq").where("uid", "=", f.pa.uid).executeTakeFirstOrThrow())
        .node_seq;
      await store.db.updateTable("member").set({ node_seq: nodeB }).where("id", "=", f.admin.id).execute();
      try {
        const res = await call("GET", "/custom/moved", "admin");
        expect(res.status).toBe(200);
        expect(res.body.widgets[0]).toMatchObject({ plant: null });
        expect(res.body.widgets[0].card).toBeUndefined();
      } finally {
        await store.db.updateTable("member").set({ node_seq: nodeA }).where("id", "=", f.admin.id).execute();
      }
    });

    it("is read-only for the guest and closed without the page service", async () => {
      expect((await call("POST", "/custom", "guest", { unique: "g", title: "g" })).body.message).toBe("read_only_member");
      expect((await call("GET", "/node/customs", "guest")).status).toBe(200);
      expect((await call("GET", "/node/customs", "noFlags")).body.message).toBe("page_not_enabled");
      expect((await call("POST", "/custom", "noFlags", { unique: "g", title: "g" })).status).toBe(403);
    });
  });

  describe("help", () => {
    it("lists, searches and serves the articles in both languages", async () => {
      const ko = await call("GET", "/help/file", "viewer");
      expect(ko.status).toBe(200);
      expect(ko.body.helpList.map((a: any) => a.id)).toContain("alarm-codes");
      expect(ko.body.helpList.find((a: any) => a.id === "performance").title).toMatch(/PR/);
      const hit = await call("GET", `/help/file?q=${encodeURIComponent("1000003 RTU")}`, "viewer");
      expect(hit.body.helpList[0].id).toBe("alarm-codes");
      expect(hit.body.helpList[0].excerpt).toContain("1000003");
      const en = await call("GET", "/help/file/performance?lang=en", "viewer");
      expect(en.status).toBe(200);
      expect(en.body).toMatchObject({ id: "performance", lang: "en" });
      expect(en.body.markdown).toContain("EPI");
      expect((await call("GET", `/help/file?q=${encodeURIComponent("없는말없는말")}`, "viewer")).body.helpList).toEqual([]);
    });

    it("answers 404 for an unknown article and 400 for a bad id, language or query; 403 without the help service", async () => {
      expect((await call("GET", "/help/file/nothing-here", "viewer")).status).toBe(404);
      expect((await call("GET", "/help/file/..%2F..%2Fpackage", "viewer")).status).toBe(400);
      expect((await call("GET", "/help/file/start?lang=fr", "viewer")).body.fields).toEqual({ lang: "invalid_lang" });
      expect((await call("GET", `/help/file?q=${"a".repeat(101)}`, "viewer")).status).toBe(400);
      expect((await call("GET", "/help/file/start", "noFlags")).body.message).toBe("help_not_enabled");
    });
  });
});
