/**
 * The main dashboard, monitoring, watch and detail-window calls against a real server on both stores:
 * GET /alarm/recent, /alarm/count, /monitor/{kind}, /node/ancestor/list, /node/ancestor/list/watch,
 * /pvstatus/group/detail, POST /member/detail, the plant/member token handover, GET /member/detail/view,
 * and the detail scope enforced by the API guard. Readings go through the real POST /api/ingest and the
 * alarms come from the real alarm engine.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashGatewaySecret, newGatewaySecret } from "../../api/auth/gateway-credential";
import { decodeTokenPayload, type AccessClaims } from "../../domain/contract/auth";
import type { GroupDetailResponse, WatchTreeResponse } from "../../domain/watch";
import { createMember, openTestStore, type MemberFixture, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";
import { postReadings, slotAt, type FixturePlant } from "./pvstatus-fixture";

/** A longitude where it is midnight now: no sunlight, so no low-generation judgement muddles the counts. */
function midnightLongitude(): number {
  const d = new Date();
  let lng = (24 - (d.getUTCHours() + d.getUTCMinutes() / 60)) * 15;
  while (lng > 180) lng -= 360;
  while (lng < -180) lng += 360;
  return lng;
}

interface Fleet {
  nodeA: number;
  nodeA1: number;
  nodeB: number;
  pa: FixturePlant;
  pa1: FixturePlant;
  pa2: FixturePlant;
  pb: FixturePlant;
  mA: MemberFixture;
  mB: MemberFixture;
  mNone: MemberFixture;
}

async function createFleet(store: Store, baseUrl: string): Promise<Fleet> {
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const now = Date.now();
  const root = await store.db
    .selectFrom("node")
    .select("seq")
    .where("parent_seq", "is", null)
    .orderBy("seq")
    .executeTakeFirstOrThrow();
  const node = async (name: string, parent: number) =>
    Number(
      (
        await store.db
          .insertInto("node")
          .values({ parent_seq: parent, name, sort_order: 0, created_at: now })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );
  const nodeA = await node(`관제A ${tag}`, root.seq);
  const nodeA1 = await node(`관제A1 ${tag}`, nodeA);
  const nodeB = await node(`관제B ${tag}`, root.seq);
  const lng = midnightLongitude();
  const plant = async (
    key: string,
    name: string,
    nodeSeq: number,
    locality: string | null,
    devices: Array<{ kind: number; n: string }>,
  ): Promise<FixturePlant> => {
    const uid = `PS${tag}${key}`;
    const rtu = `RS${tag}${key}`;
    const secret = newGatewaySecret();
    await store.db
      .insertInto("plant")
      .values({
        uid,
        name,
        alias: null,
        capa: 10_000,
        locality,
        address: `${name} 주소`,
        lat: 36,
        lng,
        node_seq: nodeSeq,
        package_seq: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await store.db
      .insertInto("rtu")
      .values({
        uid: rtu,
        alias: null,
        name: `RTU ${name}`,
        mac: null,
        kind: 1,
        plant_uid: uid,
        node_seq: nodeSeq,
        package_seq: null,
        config: 0,
        credential_hash: hashGatewaySecret(secret),
        use_yn: 1,
        created_at: now,
        updated_at: now,
        last_seen_at: null,
      })
      .execute();
    await store.db
      .insertInto("device")
      .values(
        devices.map((d, i) => ({
          uid: `DS${tag}${key}${d.n}`,
          rtu_uid: rtu,
          plant_uid: uid,
          kind: d.kind,
          name: `${d.n}`,
          address: i + 1,
          capa: d.kind === 1 ? 5_000 : null,
          use_yn: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    return {
      key,
      uid,
      name,
      rtu,
      secret,
      capaKw: 100,
      inverters: devices.filter((d) => d.kind === 1).map((d) => `DS${tag}${key}${d.n}`),
      sensor: devices.some((d) => d.kind === 4) ? `DS${tag}${key}E` : null,
    };
  };
  const pa = await plant("A", "가 정상", nodeA, "전라남도 해남군", [
    { kind: 1, n: "I1" },
    { kind: 1, n: "I2" },
    { kind: 4, n: "E" },
    { kind: 7, n: "V" },
    { kind: 2, n: "B" },
  ]);
  const pa1 = await plant("A1", "나 고장", nodeA1, null, [{ kind: 1, n: "I1" }]);
  const pa2 = await plant("A2", "다 끊김", nodeA1, "경기도 화성시", [{ kind: 1, n: "I1" }]);
  const pb = await plant("B", "라 남의", nodeB, "제주특별자치도 서귀포시", [{ kind: 1, n: "I1" }]);
  const rtuAlone = `RS${tag}X`;
  await store.db
    .insertInto("rtu")
    .values({
      uid: rtuAlone,
      alias: "남는 RTU",
      name: `RTU ${rtuAlone}`,
      mac: "00:11",
      kind: 1,
      plant_uid: null,
      node_seq: nodeA1,
      package_seq: null,
      config: 0,
      credential_hash: null,
      use_yn: 1,
      created_at: now,
      updated_at: now,
      last_seen_at: null,
    })
    .execute();

  const t0 = slotAt(0);
  const inv = (device: string, iw: number, extra: Record<string, number> = {}) => ({
    device,
    ts: t0,
    values: { iw, today_wh: 10_000, total_wh: 100_000, ...extra },
  });
  // First the plant whose gateway then goes quiet, so the engine's passes after the later batches see the silence.
  await postReadings(baseUrl, pa2, [inv(pa2.inverters[0]!, 5_000)]);
  await store.db
    .updateTable("rtu")
    .set({ last_seen_at: Date.now() - 2 * 3_600_000 })
    .where("uid", "=", pa2.rtu)
    .execute();
  await postReadings(baseUrl, pa1, [inv(pa1.inverters[0]!, 0, { fault_code: 1 })]);
  await postReadings(baseUrl, pb, [inv(pb.inverters[0]!, 7_000)]);
  await postReadings(baseUrl, pa, [
    inv(pa.inverters[0]!, 20_000),
    inv(pa.inverters[1]!, 10_000),
    { device: `DS${tag}AE`, ts: t0, values: { his: 400, iis: 500, sts: 20, ats: 10 } },
    { device: `DS${tag}AV`, ts: t0, values: { v: 22_900, a: 1, w: 30_000, pf: 0.99, state: 1 } },
    { device: `DS${tag}AB`, ts: t0, values: { v: 700, total_a: 40, channels: [10, 10, 10, 10] } },
  ]);

  const mA = await createMember(store, { node_seq: nodeA, auth: 1 });
  const mB = await createMember(store, { node_seq: nodeB, auth: 1 });
  const mNone = await createMember(store, { node_seq: null, auth: 1 });
  return { nodeA, nodeA1, nodeB, pa, pa1, pa2, pb, mA, mB, mNone };
}

describe.each(STORES)("status screens API on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let f: Fleet;
  let tA: string;
  let tB: string;
  let tNone: string;
  let tAdmin: string;
  const c = () => apiClient(server.baseUrl);
  const get = <T = any>(path: string, token: string) => c().call<T>("GET", path, { token });

  beforeAll(async () => {
    server = await startServer({ store: storeKind, port: await freePort(3800, 3899), env: { ALARM_INTERVAL_MS: "500" } });
    store = await openTestStore(server.databaseUrl);
    f = await createFleet(store, server.baseUrl);
    tA = (await c().session(f.mA.id, f.mA.password)).accessToken;
    tB = (await c().session(f.mB.id, f.mB.password)).accessToken;
    tNone = (await c().session(f.mNone.id, f.mNone.password)).accessToken;
    tAdmin = (await c().session("admin", ADMIN_PASSWORD)).accessToken;
    // The alarm engine settles: PA1's inverter fault (1000006) and PA2's silent gateway (1000003).
    let text = "";
    await waitFor(
      async () => {
        const res = await get("/alarm/count", tA);
        text = res.text;
        return res.body.alarm_1000006_count === 1 && res.body.alarm_1000003_count === 1 && res.body.alarm_count === 2;
      },
      { ms: 20_000, every: 250, failure: () => `alarms did not settle: ${text}\n${server.output().slice(-2000)}` },
    );
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  describe("alarms of the dashboard", () => {
    it("counts only the member's own plants' open alarms, by code and level", async () => {
      const a = await get("/alarm/count", tA);
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({
        alarm_count: 2,
        alarm_1000001_count: 0,
        alarm_1000003_count: 1,
        alarm_1000004_count: 0,
        alarm_1000006_count: 1,
      });
      expect(a.body.levels["4"]).toBe(1);
      expect(Object.values(a.body.levels as Record<string, number>).reduce((x, y) => x + y, 0)).toBe(2);
      const b = await get("/alarm/count", tB);
      expect(b.body.alarm_count).toBe(0);
    });

    it("counts unacknowledged and open alarms as the alarm screen does: an acknowledgement counts (issue 26)", async () => {
      const before = await get("/alarm/count", tA);
      expect(before.body).toMatchObject({ alarm_count: 2, active: 2, acknowledged: 0 });
      const fault = ((await get("/alarm/recent?limit=5", tA)).body.alarmList as Array<{ seq: number; code: number }>).find(
        (x) => x.code === 1000006,
      )!;
      const ack = await c().call("POST", `/alarm/${fault.seq}/ack`, { token: tAdmin, json: {} });
      expect(ack.status, ack.text).toBe(200);
      const after = await get("/alarm/count", tA);
      // Still open (not cleared), no longer unacknowledged: the badge reads "미확인 알람 1건 · 미해제 2건".
      expect(after.body).toMatchObject({ alarm_count: 2, active: 1, acknowledged: 1 });
    });

    it("lists recent alarms newest first with plant and device names, never another node's", async () => {
      const a = await get("/alarm/recent?limit=5", tA);
      expect(a.status).toBe(200);
      const list = a.body.alarmList as Array<Record<string, unknown>>;
      expect(list.map((x) => x.plant_uid).sort()).toEqual([f.pa1.uid, f.pa2.uid].sort());
      const fault = list.find((x) => x.code === 1000006)!;
      expect(fault).toMatchObject({
        plantName: "나 고장",
        device_uid: f.pa1.inverters[0],
        deviceName: "I1",
        deviceKind: 1,
        released_at: null,
      });
      const raised = list.map((x) => x.raised_at as number);
      expect([...raised].sort((x, y) => y - x)).toEqual(raised);
      expect((await get("/alarm/recent", tB)).body.alarmList).toEqual([]);
      expect((await get("/alarm/recent?limit=0", tA)).status).toBe(400);
      expect((await get("/alarm/recent?limit=abc", tA)).status).toBe(400);
    });
  });

  describe("GET /monitor/{kind}", () => {
    it("answers generation rows of visible plants, sorted by name ascending by default", async () => {
      const res = await get("/monitor/gen", tA);
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe("gen");
      expect(res.body.monitorList.map((r: any) => r.plant_name)).toEqual(["가 정상", "나 고장", "다 끊김"]);
      const pa = res.body.monitorList[0];
      expect(pa).toMatchObject({ plant_uid: f.pa.uid, iw: 30_000, dailys: 20_000, capa: 10_000, status: 2, time: slotAt(0) });
      expect(pa.genTime).toBeCloseTo(20_000 / (10 * 10_000));
      // The default kind is gen.
      expect((await get("/monitor", tA)).body.monitorList).toHaveLength(3);
    });

    it("sorts by name or time in either order and searches by keyword; 204 when nothing is left", async () => {
      const desc = await get("/monitor/gen?sortType=name&order=desc", tA);
      expect(desc.body.monitorList.map((r: any) => r.plant_name)).toEqual(["다 끊김", "나 고장", "가 정상"]);
      const time = await get("/monitor/gen?sortType=time&order=desc", tA);
      expect(time.status).toBe(200);
      const kw = await get(`/monitor/gen?keyword=${encodeURIComponent("고장")}`, tA);
      expect(kw.body.monitorList.map((r: any) => r.plant_uid)).toEqual([f.pa1.uid]);
      const none = await get(`/monitor/gen?keyword=${encodeURIComponent("없는 이름")}`, tA);
      expect(none.status).toBe(204);
      expect(none.text).toBe("");
    });

    it("answers the grid side only for plants with boards or breakers", async () => {
      const res = await get("/monitor/grid", tA);
      expect(res.status).toBe(200);
      expect(res.body.monitorList).toHaveLength(1);
      expect(res.body.monitorList[0]).toMatchObject({
        // The VCB's 22.9 kV, never a mean with the board's 700 V (issue 13.11).
        plant_uid: f.pa.uid,
        devices: 2,
        reporting: 2,
        w: 30_000,
        a: 40,
        v: 22_900,
        closed: 1,
        open: 0,
        time: slotAt(0),
      });
      expect((await get("/monitor/grid", tB)).status).toBe(204);
    });

    it("shows a plant in alarm with no output the same zeroed, marked today's generation on every screen (SPEC §5, issue 13.10)", async () => {
      // PA1: inverter fault (open alarm), output 0, its meter says 10 kWh today → 0 everywhere, marked.
      const gen = (await get("/monitor/gen", tA)).body.monitorList.find((r: any) => r.plant_uid === f.pa1.uid);
      expect(gen).toMatchObject({ dailys: 0, dailysZeroed: true, genTime: 0 });
      const group = (viewMode: string) =>
        c().call<any>("POST", "/pvstatus/group", { token: tA, json: { viewMode, searchText: "나 고장" } });
      for (const view of ["gd", "gh"]) {
        const card = (await group(view)).body.list.find((x: any) => x.plant_uid === f.pa1.uid);
        expect(card, view).toMatchObject({
          dailys: 0,
          dailysZeroed: true,
          genData: { day_accrue: { value: "0.00", unit: "kWh" } },
        });
      }
      const watch = (await get(`/pvstatus/group/detail?type=node&uid=${f.nodeA1}`, tA)).body.plantList.find(
        (p: any) => p.plant_uid === f.pa1.uid,
      );
      expect(watch).toMatchObject({ dailys: 0, dailysZeroed: true });
      // A plant without alarm keeps its meter's value, unmarked, on the same screens.
      const pa = (await get("/monitor/gen", tA)).body.monitorList.find((r: any) => r.plant_uid === f.pa.uid);
      expect(pa).toMatchObject({ dailys: 20_000, dailysZeroed: false });
    });

    it("refuses a bad kind, sort or order with 400", async () => {
      expect((await get("/monitor/power", tA)).status).toBe(400);
      expect((await get("/monitor/gen?sortType=capa", tA)).status).toBe(400);
      expect((await get("/monitor/gen?order=up", tA)).status).toBe(400);
      expect((await get("/monitor/gen", "")).status).toBe(401);
    });
  });

  describe("watch tree", () => {
    it("shows the member's node and its descendants with plant items and counts", async () => {
      const res = await get<WatchTreeResponse>("/node/ancestor/list/watch", tA);
      expect(res.status).toBe(200);
      expect(res.body.rootSeq).toBe(f.nodeA);
      expect(res.body.nodeList).toHaveLength(1);
      const a = res.body.nodeList[0]!;
      expect(a).toMatchObject({ seq: f.nodeA, plantCount: 3, warningCount: 2 });
      expect(a.plants.map((p) => p.plant_uid)).toEqual([f.pa.uid]);
      expect(a.children.map((n) => n.seq)).toEqual([f.nodeA1]);
      expect(a.children[0]!.plants.map((p) => p.name)).toEqual(["나 고장", "다 끊김"]);
      expect(res.text).not.toContain(f.pb.uid);
    });

    it("cuts the tree to the search and opens the path to matches", async () => {
      const res = await get<WatchTreeResponse>(`/node/ancestor/list/watch?keyword=${encodeURIComponent("끊김")}`, tA);
      expect(res.body.expandeds.sort()).toEqual([f.nodeA, f.nodeA1].sort());
      expect(res.body.nodeList[0]!.plants).toEqual([]);
      expect(res.body.nodeList[0]!.children[0]!.plants.map((p) => p.plant_uid)).toEqual([f.pa2.uid]);
      const none = await get<WatchTreeResponse>(`/node/ancestor/list/watch?keyword=zzz`, tA);
      expect(none.status).toBe(200);
      expect(none.body.nodeList).toEqual([]);
    });

    it("lists localities alphabetically with 'site unspecified' last", async () => {
      const res = await get<WatchTreeResponse>("/node/ancestor/list/watch?type=locality", tA);
      expect(res.status).toBe(200);
      expect(res.body.localityList.map((l) => l.locality)).toEqual(["경기도 화성시", "전라남도 해남군", null]);
      expect(res.body.localityList.at(-1)).toMatchObject({ uid: "-", plantCount: 1 });
    });

    it("answers 204 to a member who sees nothing, 400 to a bad type", async () => {
      expect((await get("/node/ancestor/list/watch", tNone)).status).toBe(204);
      expect((await get("/node/ancestor/list/watch?type=map", tA)).status).toBe(400);
    });

    it("answers the tree below an ancestor, groups only or with plant items, and hides other nodes", async () => {
      const groups = await get(`/node/ancestor/list?ancestorID=${f.nodeA1}`, tA);
      expect(groups.status).toBe(200);
      expect(groups.body.nodeList[0]).toMatchObject({ seq: f.nodeA1, plants: [], plantCount: 2 });
      const withPlants = await get(`/node/ancestor/list?ancestorID=${f.nodeA1}&isGroup=false`, tA);
      expect(withPlants.body.nodeList[0].plants).toHaveLength(2);
      expect((await get(`/node/ancestor/list?ancestorID=${f.nodeB}`, tA)).status).toBe(404);
      expect((await get(`/node/ancestor/list?ancestorID=x`, tA)).status).toBe(400);
      expect((await get(`/node/ancestor/list`, tA)).body.ancestorID).toBe(f.nodeA);
    });
  });

  describe("GET /pvstatus/group/detail", () => {
    it("totals a node over itself and all its descendants (SPEC §4 selecting a tree node)", async () => {
      const res = await get<GroupDetailResponse>(`/pvstatus/group/detail?type=node&uid=${f.nodeA}`, tA);
      expect(res.status).toBe(200);
      const d = res.body;
      expect(d.name).toContain("관제A");
      expect(d.nodeList.map((n) => [n.seq, n.depth])).toEqual([
        [f.nodeA, 0],
        [f.nodeA1, 1],
      ]);
      expect(d.plantList.map((p) => p.name)).toEqual(["가 정상", "나 고장", "다 끊김"]);
      expect(d.counts.op).toEqual({
        inv: { total: 4, breaking: 2, normal: 2, generating: 3, stopped: 1 },
        env: { total: 1, breaking: 0, normal: 1, generating: 1, stopped: 0 },
        grid: { total: 2, breaking: 0, normal: 2, generating: 2, stopped: 0 },
      });
      expect(d.counts.warn.inv.reduce((a, b) => a + b, 0)).toBe(2);
      expect(d.counts.warn.inv[3]).toBe(1);
      expect(d.counts.status).toMatchObject({
        normalCount: 1,
        warningCount: 2,
        warning_1000003_Count: 1,
        warning_1000006_Count: 1,
      });
      expect(d.counts).toMatchObject({ plants: 3, total_capa: 300, total_iw: 35_000 });
      // The child's totals cover only its own subtree.
      expect(d.nopDataObj[String(f.nodeA)]).toEqual(d.counts.op);
      expect(d.nopDataObj[String(f.nodeA1)]!.inv).toEqual({ total: 2, breaking: 2, normal: 0, generating: 1, stopped: 1 });
      expect(d.norDataObj[String(f.nodeA1)]!.inv.reduce((a, b) => a + b, 0)).toBe(2);
      expect(d.expandeds).toEqual([f.nodeA]);
      expect(d.rtusNotInPlant.map((r) => r.alias)).toEqual(["남는 RTU"]);
    });

    it("carries the SPEC §3 'Plant in status data' counters per plant", async () => {
      const res = await get<GroupDetailResponse>(`/pvstatus/group/detail?type=node&uid=${f.nodeA1}`, tA);
      const p = res.body.plantList.find((x) => x.plant_uid === f.pa2.uid)!;
      expect(p).toMatchObject({
        hex_plant_uid: Buffer.from(f.pa2.uid).toString("hex"),
        node: f.nodeA1,
        total_inv: 1,
        b_inv: 1,
        nb_inv: 0,
        g_inv: 1,
        ng_inv: 0,
        inv_warn_4: 1,
        total_grid: 0,
        total_env: 0,
        status: 3,
      });
      expect(res.body.expandeds).toEqual([f.nodeA, f.nodeA1]);
    });

    it("selects a locality, the unspecified bucket included", async () => {
      const un = await get<GroupDetailResponse>("/pvstatus/group/detail?type=locality&uid=-", tA);
      expect(un.status).toBe(200);
      expect(un.body.plantList.map((p) => p.plant_uid)).toEqual([f.pa1.uid]);
      expect(un.body.nodeList.map((n) => n.seq)).toEqual([f.nodeA, f.nodeA1]);
      const named = await get<GroupDetailResponse>(
        `/pvstatus/group/detail?type=locality&uid=${encodeURIComponent("전라남도 해남군")}`,
        tA,
      );
      expect(named.body.counts.op.grid.total).toBe(2);
      expect(
        (await get(`/pvstatus/group/detail?type=locality&uid=${encodeURIComponent("제주특별자치도 서귀포시")}`, tA)).status,
      ).toBe(404);
    });

    it("hides nodes outside the member's reach and refuses bad input", async () => {
      expect((await get(`/pvstatus/group/detail?type=node&uid=${f.nodeB}`, tA)).status).toBe(404);
      expect((await get(`/pvstatus/group/detail?type=node&uid=${f.nodeA}`, tB)).status).toBe(404);
      expect((await get(`/pvstatus/group/detail?type=galaxy&uid=1`, tA)).status).toBe(400);
      expect((await get(`/pvstatus/group/detail?type=locality`, tA)).status).toBe(400);
      expect((await get(`/pvstatus/group/detail?type=node&uid=abc`, tA)).status).toBe(400);
      // Default: the member's own node.
      expect((await get<GroupDetailResponse>("/pvstatus/group/detail", tB)).body.plantList.map((p) => p.plant_uid)).toEqual([
        f.pb.uid,
      ]);
    });
  });

  describe("detail-window handover", () => {
    const handover = (token: string, body: unknown) => c().call("POST", "/member/detail", { token, json: body });
    const exchange = (kind: "plant" | "member", uid: string, code: string) =>
      c().call("POST", `/member/detail/token/${kind}`, { json: { uid, code } });

    it("gives a one-time code only for a plant the member may see (204 otherwise)", async () => {
      const ok = await handover(tA, { plant: f.pa.uid });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ kind: "plant", uid: f.pa.uid, expiresIn: 60 });
      expect(ok.body.code).toMatch(/^[\w-]{30,}$/);
      expect((await handover(tA, { plant: f.pb.uid })).status).toBe(204);
      expect((await handover(tA, { plant: "NO-SUCH" })).status).toBe(204);
      expect((await handover(tA, {})).status).toBe(400);
      expect((await handover(tA, { plant: f.pa.uid, member: f.mA.id })).status).toBe(400);
      expect((await handover("", { plant: f.pa.uid })).status).toBe(401);
    });

    it("trades the code once for a session scoped to that plant, which the API holds to it", async () => {
      const { code } = (await handover(tA, { plant: f.pa.uid })).body;
      expect((await exchange("member", f.pa.uid, code)).status).toBe(204);
      expect((await exchange("plant", f.pb.uid, code)).status).toBe(204);
      const res = await exchange("plant", f.pa.uid, code);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        scope: { kind: "plant", uid: f.pa.uid },
        sessionId: expect.any(String),
        refreshToken: expect.any(String),
      });
      const claims = decodeTokenPayload<AccessClaims>(res.body.accessToken)!;
      expect(claims.scope).toEqual({ kind: "plant", uid: f.pa.uid });
      expect(claims.id).toBe(f.mA.id);
      // Used once: a replay gets nothing.
      expect((await exchange("plant", f.pa.uid, code)).status).toBe(204);

      const scoped = res.body.accessToken as string;
      const view = await get("/member/detail/view", scoped);
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({
        kind: "plant",
        plant: { plant_uid: f.pa.uid, name: "가 정상", iw: 30_000, address: "가 정상 주소" },
      });
      expect(view.body.devices).toHaveLength(5);
      expect(view.body.operation.op.grid.total).toBe(2);
      expect((await get("/member/isAuth", scoped)).status).toBe(200);
      for (const path of [
        "/monitor/gen",
        "/alarm/recent",
        "/alarm/count",
        "/node/ancestor/list/watch",
        "/pvstatus/group/detail",
        "/member",
        "/pvstatus",
      ]) {
        const r = await get(path, scoped);
        expect(r.status, path).toBe(403);
        expect(r.body.message, path).toBe("outside_detail_scope");
      }
      expect((await get(`/pvstatus/new?plantUid=${f.pb.uid}`, scoped)).status).toBe(403);
      expect((await get(`/pvstatus/new?plantUid=${f.pa.uid}`, scoped)).body?.message).not.toBe("outside_detail_scope");
      expect((await handover(scoped, { plant: f.pa.uid })).status).toBe(403);

      // Renewal answers 200 and the session keeps its scope.
      const renewed = await c().refreshAccess(res.body.refreshToken);
      expect(renewed.status).toBe(200);
      expect(decodeTokenPayload<AccessClaims>(renewed.body.accessToken)!.scope).toEqual({ kind: "plant", uid: f.pa.uid });
      expect((await get("/monitor/gen", renewed.body.accessToken)).status).toBe(403);
      expect((await get("/member/detail/view", renewed.body.accessToken)).status).toBe(200);

      // An ordinary session has no detail view.
      expect((await get("/member/detail/view", tA)).status).toBe(403);
    });

    it("refuses an expired code with 204", async () => {
      const { code } = (await handover(tA, { plant: f.pa.uid })).body;
      await store.db
        .updateTable("detail_handover")
        .set({ expires_at: Date.now() - 1 })
        .where("target", "=", f.pa.uid)
        .where("used_at", "is", null)
        .execute();
      expect((await exchange("plant", f.pa.uid, code)).status).toBe(204);
      expect((await exchange("plant", f.pa.uid, "x".repeat(40))).status).toBe(204);
      expect((await exchange("plant", f.pa.uid, "short")).status).toBe(400);
    });

    it("opens a member's detail for the member themself or an administrator above them", async () => {
      const own = await handover(tA, { member: f.mA.id });
      expect(own.status).toBe(200);
      const tokens = await exchange("member", f.mA.id, own.body.code);
      expect(tokens.status).toBe(200);
      const view = await get("/member/detail/view", tokens.body.accessToken);
      expect(view.body).toMatchObject({ kind: "member", member: { id: f.mA.id, nodeName: expect.stringContaining("관제A") } });
      expect(view.text).not.toMatch(/password_hash|argon2/);
      expect((await get(`/pvstatus/new?plantUid=${f.pa.uid}`, tokens.body.accessToken)).status).toBe(403);
      // A level-1 member of another node is out of reach; the administrator at the root reaches everyone.
      expect((await handover(tA, { member: f.mB.id })).status).toBe(204);
      const admin = await handover(tAdmin, { member: f.mB.id });
      expect(admin.status).toBe(200);
      expect((await exchange("member", f.mB.id, admin.body.code)).status).toBe(200);
    });

    it("stops answering a scoped session once the member no longer sees its plant", async () => {
      const { code } = (await handover(tB, { plant: f.pb.uid })).body;
      const tokens = await exchange("plant", f.pb.uid, code);
      expect(tokens.status).toBe(200);
      expect((await get("/member/detail/view", tokens.body.accessToken)).status).toBe(200);
      await store.db.updateTable("plant").set({ node_seq: f.nodeA }).where("uid", "=", f.pb.uid).execute();
      try {
        expect((await get("/member/detail/view", tokens.body.accessToken)).status).toBe(404);
      } finally {
        await store.db.updateTable("plant").set({ node_seq: f.nodeB }).where("uid", "=", f.pb.uid).execute();
      }
    });
  });
});
