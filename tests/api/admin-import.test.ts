/**
 * Import between two running instances of the portal (issue 5: "at least one real source works end to
 * end"): instance A registers instance B as a `portal` source with an ordinary account there, lists
 * what B offers, imports a plant (with its RTUs and devices), a loose RTU and a device into a node,
 * copies a plant by URL (POST /plant/copyplant) and loads a plant's history (POST /total/loadData).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, openTestStore, type MemberFixture, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";

const DAY = 86_400_000;

describe.each(STORES)("import between two instances on %s", (storeKind) => {
  let a: TestServer;
  let b: TestServer;
  let storeA: Store;
  let storeB: Store;
  let adminA: string;
  let adminB: string;
  let reader: MemberFixture;
  let nodeA: number;
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const plant = `PB${tag}`;
  const copyTarget = `PC${tag}`;
  const rtu1 = `RB1${tag}`;
  const rtu2 = `RB2${tag}`;
  const loose = `RL${tag}`;
  const inv = `DI${tag}`;
  const env = `DE${tag}`;
  const later = `DL${tag}`;
  const apiA = () => apiClient(a.baseUrl);
  const apiB = () => apiClient(b.baseUrl);

  beforeAll(async () => {
    // Ports from the suite's range (TEST_PORT_RANGE); startServer takes another when two pick the same one.
    [a, b] = await Promise.all([startServer({ store: storeKind }), startServer({ store: storeKind })]);
    storeA = await openTestStore(a.databaseUrl);
    storeB = await openTestStore(b.databaseUrl);
    adminA = (await apiA().session("admin", ADMIN_PASSWORD)).accessToken;
    adminB = (await apiB().session("admin", ADMIN_PASSWORD)).accessToken;
    const rootA = Number(
      (await storeA.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow()).seq,
    );
    nodeA = Number(
      (
        await storeA.db
          .insertInto("node")
          .values({ name: "가져온 발전소", parent_seq: rootA, sort_order: 0, created_at: Date.now() })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );

    // Source data on B, made through B's own API.
    const call = async (method: string, path: string, json: unknown) => {
      const res = await apiB().call(method, path, { token: adminB, json });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      return res.body;
    };
    await call("POST", "/plant", {
      uid: plant,
      name: "원천 발전소",
      capa: 99850,
      locality: "전남",
      lat: 34.8,
      lng: 126.4,
      address: "전남 영암군",
    });
    await call("POST", "/plant", { uid: copyTarget, name: "복사할 발전소", capa: 50000 });
    await call("POST", "/rtu", { uid: rtu1, name: "RTU 1", mac: `02:AA:00:00:${tag.slice(0, 2)}:01`, invDetail: true });
    await call("POST", "/rtu", { uid: rtu2, name: "RTU 2" });
    await call("POST", "/rtu", { uid: loose, name: "미배정 RTU" });
    await call("POST", "/por", { plantUid: plant, rtus: [rtu1] });
    await call("POST", "/por", { plantUid: copyTarget, rtus: [rtu2] });
    await call("POST", "/device", { uid: inv, name: "인버터 1", kind: 1, rtuUid: rtu1, address: 1, capaKw: 100 });
    await call("POST", "/device", { uid: env, name: "일사량계", kind: 4, rtuUid: rtu1, address: 2 });
    await call("POST", "/device", { uid: `DC${tag}`, name: "복사 인버터", kind: 1, rtuUid: rtu2, address: 1 });
    // Two days of history on B: 10-minute rows and rollups.
    const now = Date.now();
    const rows = [];
    for (let ts = now - 2 * DAY; ts < now; ts += 600_000)
      rows.push({ device_uid: inv, ts, iw: 5000, today_wh: 100, received_at: ts });
    for (let i = 0; i < rows.length; i += 100)
      await storeB.db
        .insertInto("m_inverter")
        .values(rows.slice(i, i + 100) as any)
        .execute();
    await storeB.db
      .insertInto("m_env")
      .values({ device_uid: env, ts: now - 3_600_000, his: 700, iis: 800, sts: 40, ats: 20, received_at: now } as any)
      .execute();
    await storeB.db
      .insertInto("rollup_hourly")
      .values({ device_uid: inv, hour_ts: now - 7_200_000, kind: 1, samples: 6, energy_wh: 5000 } as any)
      .execute();
    await storeB.db
      .insertInto("rollup_daily")
      .values({ device_uid: inv, day_ts: now - DAY, kind: 1, samples: 144, energy_wh: 40000 } as any)
      .execute();
    // An ordinary (level 1) account on B is enough to read it.
    reader = await createMember(storeB, { auth: 1 });
  });

  afterAll(async () => {
    await storeA?.close();
    await storeB?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  let sourceId: number;

  it("registers the other instance as a source and never returns its password", async () => {
    const res = await apiA().call("POST", "/crawling/source", {
      token: adminA,
      json: { site: "portal", name: "B 포털", url: `${b.baseUrl}/some/page`, id: reader.id, pw: reader.password },
    });
    expect(res.status, res.text).toBe(201);
    sourceId = res.body.crawler.crawlerId;
    expect(res.body.crawler.url).toBe(b.baseUrl);
    const list = await apiA().call("GET", "/crawling/list", { token: adminA });
    expect(list.text).not.toContain(reader.password);
    const stored = await storeA.db.selectFrom("crawl_source").selectAll().where("seq", "=", sourceId).executeTakeFirstOrThrow();
    expect(stored.password_enc).not.toContain(reader.password);
    const bad = await apiA().call("POST", "/crawling/source", {
      token: adminA,
      json: { site: "ftp", name: "", url: "ftp://x", id: "" },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(["id", "name", "site", "url"]);
  });

  it("lists what the source offers in the SPEC field names", async () => {
    const res = await apiA().call("GET", `/crawling/list/${sourceId}`, { token: adminA });
    expect(res.status, res.text).toBe(200);
    expect(res.body.plantList.map((p: { uid: string }) => p.uid)).toEqual(expect.arrayContaining([plant, copyTarget]));
    expect(res.body.rtuList.map((r: { uid: string }) => r.uid)).toEqual(expect.arrayContaining([rtu1, rtu2, loose]));
    const device = res.body.deviceList.find((d: { id: string }) => d.id === inv);
    expect(device).toMatchObject({
      site: "portal",
      crawlerId: sourceId,
      stationId: plant,
      deviceId: inv,
      model: "inverter",
      name: "인버터 1",
    });
    const src = await storeA.db
      .selectFrom("crawl_source")
      .select(["last_polled_at", "last_error"])
      .where("seq", "=", sourceId)
      .executeTakeFirstOrThrow();
    expect(src.last_polled_at).toBeTruthy();
    expect(src.last_error).toBeNull();
  });

  it("imports a plant with its RTUs and devices into the chosen node, once", async () => {
    const res = await apiA().call("PUT", "/crawling/plant", {
      token: adminA,
      json: { crawlerId: sourceId, node: nodeA, plants: [plant] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.plants.imported).toEqual([plant]);
    expect(res.body.rtus.imported).toEqual([rtu1]);
    expect(res.body.devices.imported.sort()).toEqual([env, inv].sort());
    const p = await storeA.db.selectFrom("plant").selectAll().where("uid", "=", plant).executeTakeFirstOrThrow();
    expect(p).toMatchObject({ name: "원천 발전소", capa: 99850, node_seq: nodeA, locality: "전남" });
    const r = await storeA.db.selectFrom("rtu").selectAll().where("uid", "=", rtu1).executeTakeFirstOrThrow();
    expect(r).toMatchObject({ plant_uid: plant, node_seq: nodeA, config: 4, credential_hash: null });
    const d = await storeA.db.selectFrom("device").selectAll().where("uid", "=", inv).executeTakeFirstOrThrow();
    expect(d).toMatchObject({ plant_uid: plant, rtu_uid: rtu1, kind: 1, capa: 10000, address: 1 });
    const again = await apiA().call("PUT", "/crawling/plant", {
      token: adminA,
      json: { crawlerId: sourceId, node: nodeA, plants: [plant] },
    });
    expect(again.body.plants.imported).toEqual([]);
    expect(again.body.plants.skipped).toEqual([{ uid: plant, reason: "exists" }]);
  });

  it("imports a loose RTU, then a device added to it later", async () => {
    const res = await apiA().call("PUT", "/crawling/rtu", {
      token: adminA,
      json: { crawlerId: sourceId, node: nodeA, rtus: [loose] },
    });
    expect(res.body.rtus.imported).toEqual([loose]);
    expect(await storeA.db.selectFrom("rtu").selectAll().where("uid", "=", loose).executeTakeFirstOrThrow()).toMatchObject({
      plant_uid: null,
      node_seq: nodeA,
    });
    const add = await apiB().call("POST", "/device", {
      token: adminB,
      json: { uid: later, name: "나중 장비", kind: 2, rtuUid: loose },
    });
    expect(add.status).toBe(201);
    const dev = await apiA().call("PUT", "/crawling/device", {
      token: adminA,
      json: { crawlerId: sourceId, node: nodeA, devices: [later, "NOT-OFFERED"] },
    });
    expect(dev.body.devices.imported).toEqual([later]);
    expect(dev.body.devices.skipped).toEqual([{ uid: "NOT-OFFERED", reason: "not_offered" }]);
  });

  it("loads a plant's history day by day, and a second load adds nothing", async () => {
    const body = { url: b.baseUrl, uid: plant, id: reader.id, password: reader.password, days: 3 };
    const res = await apiA().call("POST", "/total/loadData", { token: adminA, json: body });
    expect(res.status, res.text).toBe(200);
    expect(res.body.days).toBe(3);
    const onB = Number(
      (
        await storeB.db
          .selectFrom("m_inverter")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("device_uid", "=", inv)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const onA = Number(
      (
        await storeA.db
          .selectFrom("m_inverter")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("device_uid", "=", inv)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(onA).toBe(onB);
    expect(res.body.inserted).toMatchObject({ m_inverter: onB, m_env: 1, rollup_hourly: 1, rollup_daily: 1 });
    const again = await apiA().call("POST", "/total/loadData", { token: adminA, json: body });
    expect(Object.values(again.body.inserted as Record<string, number>).reduce((s, n) => s + n, 0)).toBe(0);
    const tooLong = await apiA().call("POST", "/total/loadData", { token: adminA, json: { ...body, days: 400 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fields.days).toBe("too_large");
  });

  it("copies a plant by URL with an account of the other instance", async () => {
    const wrong = await apiA().call("POST", "/plant/copyplant", {
      token: adminA,
      json: { url: `${b.baseUrl}/setting/plant/${copyTarget}`, id: reader.id, password: "wrong-password-1" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.id).toBe("source_login_failed");
    const res = await apiA().call("POST", "/plant/copyplant", {
      token: adminA,
      json: { url: `${b.baseUrl}/setting/plant/${copyTarget}`, id: reader.id, password: reader.password, nodeSeq: nodeA },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.report.rtus.imported).toEqual([rtu2]);
    expect(res.body.report.devices.imported).toEqual([`DC${tag}`]);
    const again = await apiA().call("POST", "/plant/copyplant", {
      token: adminA,
      json: { url: `${b.baseUrl}/api/plant/${copyTarget}`, id: reader.id, password: reader.password },
    });
    expect(again.status).toBe(409);
    const missing = await apiA().call("POST", "/plant/copyplant", {
      token: adminA,
      json: { url: `${b.baseUrl}/setting/plant/NO-SUCH`, id: reader.id, password: reader.password },
    });
    expect(missing.status).toBe(404);
  });

  it("reports an unreachable source as a 502 and remembers the error", async () => {
    const dead = await freePort();
    const reg = await apiA().call("POST", "/crawling/source", {
      token: adminA,
      json: { site: "portal", name: "없음", url: `http://127.0.0.1:${dead}`, id: "x", pw: "y" },
    });
    const res = await apiA().call("GET", `/crawling/list/${reg.body.crawler.crawlerId}`, { token: adminA });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe("source_unreachable");
    const src = await storeA.db
      .selectFrom("crawl_source")
      .select("last_error")
      .where("seq", "=", reg.body.crawler.crawlerId)
      .executeTakeFirstOrThrow();
    expect(src.last_error).toBe("unreachable");
  });
});
