/**
 * Fleet administration API against a real server, on both stores: plants, devices, RTUs and their
 * assignment, total, settings and fault codes. The SPEC §6 permission matrix (every endpoint × auth
 * levels 0–10 and the read-only guest: plant and device at ≥ 2, rtu at 6 and 10, setting at ≥ 10),
 * node scoping (another node's plant is out of reach), validation (400 with fields, nothing written),
 * typed delete confirmation and consistent removal of everything that depends on a plant, RTU or device.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyGatewaySecret } from "../../api/auth/gateway-credential";
import { getSettings } from "../../api/store/settings";
import { canAdminister, type AdminArea } from "../../domain/admin-levels";
import { GUEST_ID, GUEST_PASSWORD } from "../../domain/guest";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";

const LEVELS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
type Actor = { label: string; level: number | "guest"; token: string };

describe.each(STORES)("fleet administration API on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let rootSeq: number;
  let admin: string;
  const api = () => apiClient(server.baseUrl);
  const suffix = () => randomBytes(3).toString("hex").toUpperCase();

  async function node(name: string, parent: number): Promise<number> {
    const row = await store.db
      .insertInto("node")
      .values({ name, parent_seq: parent, sort_order: 0, created_at: Date.now() })
      .returning("seq")
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  beforeAll(async () => {
    server = await startServer({ store: storeKind });
    store = await openTestStore(server.databaseUrl);
    rootSeq = Number(
      (await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow()).seq,
    );
    admin = (await api().session("admin", ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  async function makePlant(token = admin, extra: Record<string, unknown> = {}) {
    const uid = `P${suffix()}`;
    const res = await api().call("POST", "/plant", {
      token,
      json: { uid, name: `발전소 ${uid}`, capa: 12345, locality: "전남", ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return uid;
  }
  async function makeRtu(token = admin, extra: Record<string, unknown> = {}) {
    const uid = `R${suffix()}`;
    const res = await api().call("POST", "/rtu", { token, json: { uid, name: `RTU ${uid}`, ...extra } });
    expect(res.status, res.text).toBe(201);
    return { uid, secret: res.body.secret as string };
  }
  async function makeDevice(rtuUid: string, kind = 1, extra: Record<string, unknown> = {}) {
    const uid = `D${suffix()}`;
    const res = await api().call("POST", "/device", { token: admin, json: { uid, name: `장비 ${uid}`, kind, rtuUid, ...extra } });
    expect(res.status, res.text).toBe(201);
    return uid;
  }

  describe("permission matrix (SPEC §6)", () => {
    const actors: Actor[] = [];
    let plantUid: string;
    let rtuUid: string;
    let deviceUid: string;

    beforeAll(async () => {
      plantUid = await makePlant();
      rtuUid = (await makeRtu()).uid;
      deviceUid = await makeDevice(rtuUid);
      await store.db
        .insertInto("fault_code")
        .values({ code: 900001, hex: "0xDBBA1", name_ko: "시험", name_en: "test", level: 2 })
        .onConflict((oc) => oc.column("code").doNothing())
        .execute();
      for (const level of LEVELS) {
        const m = await createMember(store, { auth: level, node_seq: rootSeq });
        actors.push({ label: `level ${level}`, level, token: (await api().session(m.id, m.password)).accessToken });
      }
      actors.push({ label: "guest", level: "guest", token: (await api().session(GUEST_ID, GUEST_PASSWORD)).accessToken });
    });

    // Every admin call, made so that an allowed caller gets a harmless 200/400/404 (nothing is written).
    const calls: Array<{ area: AdminArea; method: string; path: () => string; json?: unknown }> = [
      { area: "plant", method: "GET", path: () => "/management/plant" },
      { area: "plant", method: "GET", path: () => `/management/plant/setting?plantUid=${plantUid}` },
      { area: "plant", method: "GET", path: () => `/management/plant/rtu?exclude=${plantUid}` },
      { area: "plant", method: "POST", path: () => "/plant", json: { name: "" } },
      { area: "plant", method: "PUT", path: () => `/plant/${plantUid}`, json: { name: "" } },
      { area: "plant", method: "DELETE", path: () => `/plant/${plantUid}` },
      { area: "plant", method: "POST", path: () => "/plant/copyplant", json: { url: "nope" } },
      { area: "device", method: "GET", path: () => "/device/list_user/admin?kind=1" },
      { area: "device", method: "POST", path: () => "/device", json: { name: "" } },
      { area: "device", method: "PUT", path: () => `/device/${deviceUid}`, json: { name: "" } },
      { area: "device", method: "DELETE", path: () => `/device/${deviceUid}` },
      { area: "rtu", method: "POST", path: () => "/rtu", json: { name: "" } },
      { area: "rtu", method: "PUT", path: () => `/rtu/${rtuUid}`, json: { name: "" } },
      { area: "rtu", method: "POST", path: () => "/rtu/NO-SUCH-RTU/credential" },
      { area: "rtu", method: "DELETE", path: () => `/rtu/${rtuUid}` },
      { area: "rtu", method: "POST", path: () => "/por", json: { plantUid: "P-NONE", rtus: [] } },
      { area: "rtu", method: "DELETE", path: () => "/por", json: { exclude: [] } },
      { area: "setting", method: "GET", path: () => "/total" },
      { area: "setting", method: "POST", path: () => "/total/loadData", json: {} },
      { area: "setting", method: "PUT", path: () => "/settings/alarm", json: { rtuSilentIntervals: 0 } },
      { area: "setting", method: "POST", path: () => "/code", json: { code: "x" } },
      { area: "setting", method: "PUT", path: () => "/code/900001", json: { level: 9 } },
      { area: "setting", method: "DELETE", path: () => "/code/900001" },
      { area: "setting", method: "GET", path: () => "/crawling/list" },
      { area: "setting", method: "POST", path: () => "/crawling/source", json: {} },
      { area: "setting", method: "GET", path: () => "/crawling/list/999999" },
      { area: "setting", method: "PUT", path: () => "/crawling/plant", json: {} },
      { area: "setting", method: "PUT", path: () => "/crawling/rtu", json: {} },
      { area: "setting", method: "PUT", path: () => "/crawling/device", json: {} },
    ];

    it("allows exactly the levels of the admin level table, and refuses the guest everything", async () => {
      const mismatches: string[] = [];
      for (const call of calls) {
        for (const actor of actors) {
          const res = await api().call(call.method, call.path(), { token: actor.token, json: call.json });
          const allowed = actor.level !== "guest" && canAdminister(call.area, actor.level);
          const ok = allowed ? res.status !== 403 && res.status < 500 && res.status !== 401 : res.status === 403;
          if (!ok) mismatches.push(`${call.method} ${call.path()} as ${actor.label}: ${res.status} ${res.text.slice(0, 80)}`);
        }
      }
      expect(mismatches).toEqual([]);
      // Nothing the allowed callers sent was written.
      expect(await store.db.selectFrom("plant").select("uid").where("uid", "=", plantUid).executeTakeFirst()).toBeTruthy();
      expect(await store.db.selectFrom("device").select("uid").where("uid", "=", deviceUid).executeTakeFirst()).toBeTruthy();
      expect(await store.db.selectFrom("rtu").select("uid").where("uid", "=", rtuUid).executeTakeFirst()).toBeTruthy();
      expect(
        (await store.db.selectFrom("fault_code").selectAll().where("code", "=", 900001).executeTakeFirstOrThrow()).level,
      ).toBe(2);
    });

    it("lets every signed-in member read plants, devices, RTUs, settings and fault codes", async () => {
      for (const actor of actors) {
        for (const path of ["/plant", "/device/list_user", "/rtu/user", "/settings", "/code"]) {
          const res = await api().call("GET", path, { token: actor.token });
          expect(res.status, `${path} as ${actor.label}`).toBe(200);
        }
      }
    });
  });

  describe("node scoping", () => {
    let nodeA: number;
    let nodeB: number;
    let adminA: string;
    let plantB: string;
    let rtuB: string;
    let linked: string;

    beforeAll(async () => {
      nodeA = await node(`A-${suffix()}`, rootSeq);
      nodeB = await node(`B-${suffix()}`, rootSeq);
      const m = await createMember(store, { auth: 10, node_seq: nodeA });
      adminA = (await api().session(m.id, m.password)).accessToken;
      plantB = await makePlant(admin, { nodeSeq: nodeB });
      rtuB = (await makeRtu(admin, { nodeSeq: nodeB })).uid;
      linked = await makePlant(admin, { nodeSeq: nodeB });
      await store.db.insertInto("member_plant").values({ member_id: m.id, plant_uid: linked, created_at: Date.now() }).execute();
    });

    it("hides another node's plant (404) and refuses to file things there (400 nodeSeq)", async () => {
      for (const [method, path] of [
        ["GET", `/plant/${plantB}`],
        ["PUT", `/plant/${plantB}`],
        ["DELETE", `/plant/${plantB}?confirm=delete`],
        ["GET", `/management/plant/setting?plantUid=${plantB}`],
        ["GET", `/rtu/${rtuB}`],
        ["DELETE", `/rtu/${rtuB}?confirm=delete`],
      ] as const) {
        const res = await api().call(method, path, {
          token: adminA,
          json: method === "PUT" ? { name: "x", capa: 100 } : undefined,
        });
        expect([403, 404], `${method} ${path}: ${res.status}`).toContain(res.status);
      }
      const list = await api().call("GET", "/plant", { token: adminA });
      expect(list.body.plantList.map((p: { uid: string }) => p.uid)).not.toContain(plantB);
      const create = await api().call("POST", "/plant", { token: adminA, json: { name: "x", capa: 100, nodeSeq: nodeB } });
      expect(create.status).toBe(400);
      expect(create.body.fields.nodeSeq).toBe("not_in_your_group");
      const por = await api().call("POST", "/por", { token: adminA, json: { plantUid: plantB, rtus: [rtuB] } });
      expect(por.status).toBe(404);
      expect(await store.db.selectFrom("plant").select("uid").where("uid", "=", plantB).executeTakeFirst()).toBeTruthy();
    });

    it("shows a plant linked to the member but does not let them edit it", async () => {
      const read = await api().call("GET", `/plant/${linked}`, { token: adminA });
      expect(read.status).toBe(200);
      expect(read.body.plant.editable).toBe(false);
      const put = await api().call("PUT", `/plant/${linked}`, { token: adminA, json: { name: "x", capa: 100 } });
      expect(put.status).toBe(403);
    });

    it("files a new plant under the member's own node by default", async () => {
      const res = await api().call("POST", "/plant", { token: adminA, json: { name: "A 발전소", capa: 500 } });
      expect(res.status).toBe(201);
      expect(res.body.plant.node_seq).toBe(nodeA);
    });
  });

  describe("plants", () => {
    it("validates every field and writes nothing on a bad input", async () => {
      const before = (await store.db.selectFrom("plant").select("uid").execute()).length;
      const res = await api().call("POST", "/plant", {
        token: admin,
        json: { uid: "bad uid!", name: "", capa: "abc", lat: 50, lng: 127, packageSeq: 99999 },
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toMatchObject({ uid: "bad_uid", name: "required", capa: "not_a_number", lat: "out_of_korea" });
      const half = await api().call("POST", "/plant", { token: admin, json: { name: "x", capa: 100, lat: 35 } });
      expect(half.body.fields).toEqual({ lng: "pair_required" });
      const pkg = await api().call("POST", "/plant", { token: admin, json: { name: "x", capa: 100, packageSeq: 99999 } });
      expect(pkg.body.fields).toEqual({ packageSeq: "no_such_package" });
      expect((await store.db.selectFrom("plant").select("uid").execute()).length).toBe(before);
    });

    it("filters the management list by search type and text", async () => {
      const uid = await makePlant(admin, { name: "검색용 고유이름", address: "경북 구미시" });
      const byName = await api().call("GET", `/management/plant?searchType=name&searchText=${encodeURIComponent("고유이름")}`, {
        token: admin,
      });
      expect(byName.body.plantList.map((p: { uid: string }) => p.uid)).toEqual([uid]);
      const byAddress = await api().call("GET", `/management/plant?searchType=address&searchText=${encodeURIComponent("구미")}`, {
        token: admin,
      });
      expect(byAddress.body.plantList.map((p: { uid: string }) => p.uid)).toContain(uid);
      const bad = await api().call("GET", "/management/plant?plantStatus=bogus", { token: admin });
      expect(bad.status).toBe(400);
    });

    it("needs the typed confirmation and removes every dependant in one go", async () => {
      const plantUid = await makePlant();
      const rtu = (await makeRtu()).uid;
      expect((await api().call("POST", "/por", { token: admin, json: { plantUid, rtus: [rtu] } })).status).toBe(200);
      const inv = await makeDevice(rtu, 1, { address: 1 });
      const env = await makeDevice(rtu, 4, { address: 2 });
      const member = await createMember(store, { auth: 1 });
      const now = Date.now();
      await store.db.insertInto("member_plant").values({ member_id: member.id, plant_uid: plantUid, created_at: now }).execute();
      await store.db
        .insertInto("m_inverter")
        .values({ device_uid: inv, ts: now - 600_000, iw: 1000, received_at: now } as any)
        .execute();
      await store.db
        .insertInto("m_env")
        .values({ device_uid: env, ts: now - 600_000, his: 500, received_at: now } as any)
        .execute();
      await store.db
        .insertInto("device_latest")
        .values({ device_uid: inv, kind: 1, ts: now, received_at: now, values_json: "{}" } as any)
        .execute();
      await store.db
        .insertInto("rollup_hourly")
        .values({ device_uid: inv, hour_ts: now - 3_600_000, kind: 1, samples: 6 } as any)
        .execute();
      await store.db
        .insertInto("rollup_daily")
        .values({ device_uid: inv, day_ts: now - 86_400_000, kind: 1, samples: 144 } as any)
        .execute();
      await store.db
        .insertInto("alarm")
        .values({
          plant_uid: plantUid,
          rtu_uid: rtu,
          device_uid: inv,
          code: 1000006,
          level: 3,
          fault_code: null,
          message: "x",
          raised_at: now,
          released_at: null,
        })
        .execute();

      const refused = await api().call("DELETE", `/plant/${plantUid}`, { token: admin, json: { confirm: "nope" } });
      expect(refused.status).toBe(400);
      expect(refused.body.fields.confirm).toBe("confirmation_required");
      expect(await store.db.selectFrom("device").select("uid").where("uid", "=", inv).executeTakeFirst()).toBeTruthy();

      const res = await api().call("DELETE", `/plant/${plantUid}`, { token: admin, json: { confirm: "delete" } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ devices: 2, rtusUnassigned: 1, memberLinks: 1 });
      const count = async (table: string, col: string, values: string[]) =>
        Number(
          (
            (await store.db
              .selectFrom(table as any)
              .select((eb: any) => eb.fn.countAll().as("n"))
              .where(col as any, "in", values)
              .executeTakeFirstOrThrow()) as any
          ).n,
        );
      expect(await count("plant", "uid", [plantUid])).toBe(0);
      expect(await count("device", "uid", [inv, env])).toBe(0);
      for (const t of ["m_inverter", "m_env", "device_latest", "rollup_hourly", "rollup_daily"])
        expect(await count(t, "device_uid", [inv, env]), t).toBe(0);
      expect(await count("alarm", "plant_uid", [plantUid])).toBe(0);
      expect(await count("member_plant", "plant_uid", [plantUid])).toBe(0);
      const left = await store.db.selectFrom("rtu").selectAll().where("uid", "=", rtu).executeTakeFirstOrThrow();
      expect(left.plant_uid).toBeNull();
    });

    it("keeps the capacity raw (×0.01 = kW) and moves RTUs with the plant's node", async () => {
      const sub = await node(`S-${suffix()}`, rootSeq);
      const plantUid = await makePlant(admin, { capa: 99850 });
      const rtu = (await makeRtu()).uid;
      await api().call("POST", "/por", { token: admin, json: { plantUid, rtus: [rtu] } });
      const put = await api().call("PUT", `/plant/${plantUid}`, {
        token: admin,
        json: { name: "이름 변경", capa: 100000, nodeSeq: sub },
      });
      expect(put.status, put.text).toBe(200);
      expect(put.body.plant).toMatchObject({ name: "이름 변경", capa: 100000, node_seq: sub, rtu_count: 1 });
      expect(
        (await store.db.selectFrom("rtu").select("node_seq").where("uid", "=", rtu).executeTakeFirstOrThrow()).node_seq,
      ).toBe(sub);
    });
  });

  describe("RTUs and devices", () => {
    it("creates an RTU with a one-time secret whose sha256 alone is stored, and rotates it", async () => {
      const { uid, secret } = await makeRtu(admin, {
        mac: "aa-bb-cc-dd-ee-" + suffix().slice(0, 2),
        lteRouter: true,
        lora: true,
      });
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const row = await store.db.selectFrom("rtu").selectAll().where("uid", "=", uid).executeTakeFirstOrThrow();
      expect(row.credential_hash).toBe(createHash("sha256").update(secret).digest("hex"));
      expect(row.config).toBe(0b1001);
      expect(row.mac).toMatch(/^AA:BB:CC:DD:EE:[0-9A-F]{2}$/);
      const detail = await api().call("GET", `/rtu/${uid}`, { token: admin });
      expect(detail.text).not.toContain(secret);
      expect(detail.text).not.toContain(row.credential_hash!);
      const rotated = await api().call("POST", `/rtu/${uid}/credential`, { token: admin });
      expect(rotated.status).toBe(200);
      const after = await store.db.selectFrom("rtu").select("credential_hash").where("uid", "=", uid).executeTakeFirstOrThrow();
      expect(verifyGatewaySecret(rotated.body.secret, after.credential_hash)).toBe(true);
      expect(verifyGatewaySecret(secret, after.credential_hash)).toBe(false);
    });

    it("refuses a duplicate MAC and reports communication state from last_seen_at", async () => {
      const mac = `02:00:00:00:${suffix().slice(0, 2)}:01`;
      await makeRtu(admin, { mac });
      const dup = await api().call("POST", "/rtu", { token: admin, json: { name: "dup", mac } });
      expect(dup.status).toBe(400);
      expect(dup.body.fields.mac).toBe("taken");
      const online = (await makeRtu()).uid;
      const offline = (await makeRtu()).uid;
      await store.db
        .updateTable("rtu")
        .set({ last_seen_at: Date.now() - 5 * 60_000 })
        .where("uid", "=", online)
        .execute();
      await store.db
        .updateTable("rtu")
        .set({ last_seen_at: Date.now() - 31 * 60_000 })
        .where("uid", "=", offline)
        .execute();
      const on = await api().call("GET", "/rtu/user?comm=online", { token: admin });
      const off = await api().call("GET", "/rtu/user?comm=offline", { token: admin });
      const never = await api().call("GET", "/rtu/user?comm=never", { token: admin });
      expect(on.body.rtuList.map((r: { uid: string }) => r.uid)).toContain(online);
      expect(off.body.rtuList.map((r: { uid: string }) => r.uid)).toContain(offline);
      expect(never.body.rtuList.map((r: { uid: string }) => r.uid)).not.toContain(online);
      const kw = await api().call("GET", `/rtu/user?keyword=${online.toLowerCase()}`, { token: admin });
      expect(kw.body.rtuList.map((r: { uid: string }) => r.uid)).toEqual([online]);
    });

    it("keeps a device's plant equal to its RTU's plant; assigning an RTU moves its devices", async () => {
      const p1 = await makePlant();
      const p2 = await makePlant();
      const rtu = (await makeRtu()).uid;
      const dev = await makeDevice(rtu, 1, { address: 3, capaKw: 55.5 });
      expect((await store.db.selectFrom("device").selectAll().where("uid", "=", dev).executeTakeFirstOrThrow()).capa).toBe(5550);
      await api().call("POST", "/por", { token: admin, json: { plantUid: p1, rtus: [rtu] } });
      expect(
        (await store.db.selectFrom("device").select("plant_uid").where("uid", "=", dev).executeTakeFirstOrThrow()).plant_uid,
      ).toBe(p1);
      const wrong = await api().call("POST", "/device", {
        token: admin,
        json: { name: "x", kind: 1, rtuUid: rtu, plantUid: p2, address: 3 },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.fields).toEqual({ plantUid: "must_match_rtu", address: "taken" });
      const noCapa = await api().call("POST", "/device", { token: admin, json: { name: "x", kind: 4, rtuUid: rtu, capaKw: 10 } });
      expect(noCapa.body.fields).toEqual({ capaKw: "inverters_only" });
      const orphan = await api().call("POST", "/device", { token: admin, json: { name: "x", kind: 2 } });
      expect(orphan.body.fields).toEqual({ rtuUid: "rtu_or_plant_required" });
      await api().call("POST", "/por", { token: admin, json: { plantUid: p2, rtus: [rtu] } });
      expect(
        (await store.db.selectFrom("device").select("plant_uid").where("uid", "=", dev).executeTakeFirstOrThrow()).plant_uid,
      ).toBe(p2);
      const un = await api().call("DELETE", "/por", { token: admin, json: { exclude: [rtu] } });
      expect(un.status).toBe(200);
      expect(
        (await store.db.selectFrom("device").select("plant_uid").where("uid", "=", dev).executeTakeFirstOrThrow()).plant_uid,
      ).toBeNull();
      const byKind = await api().call("GET", "/device/list_user/admin?kind=1&status=never", { token: admin });
      expect(byKind.body.deviceList.map((d: { uid: string }) => d.uid)).toContain(dev);
    });

    it("deletes a device with its measurements and rollups, and an RTU with its devices", async () => {
      const rtu = (await makeRtu()).uid;
      const dev = await makeDevice(rtu, 7);
      const now = Date.now();
      await store.db
        .insertInto("m_breaker")
        .values({ device_uid: dev, ts: now, v: 22900, received_at: now } as any)
        .execute();
      await store.db
        .insertInto("rollup_daily")
        .values({ device_uid: dev, day_ts: now, kind: 7, samples: 1 } as any)
        .execute();
      expect((await api().call("DELETE", `/device/${dev}`, { token: admin })).status).toBe(400);
      expect((await api().call("DELETE", `/device/${dev}`, { token: admin, json: { confirm: "delete" } })).status).toBe(200);
      expect(
        await store.db.selectFrom("m_breaker").select("device_uid").where("device_uid", "=", dev).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await store.db.selectFrom("rollup_daily").select("device_uid").where("device_uid", "=", dev).executeTakeFirst(),
      ).toBeUndefined();
      const dev2 = await makeDevice(rtu, 8);
      const del = await api().call("DELETE", `/rtu/${rtu}?confirm=delete`, { token: admin });
      expect(del.status).toBe(200);
      expect(del.body.devices).toBe(1);
      expect(await store.db.selectFrom("device").select("uid").where("uid", "=", dev2).executeTakeFirst()).toBeUndefined();
    });
  });

  describe("total, settings and fault codes", () => {
    it("lists RTU aliases and MACs joined with ^", async () => {
      const plantUid = await makePlant();
      const a = (await makeRtu(admin, { alias: "가", mac: `02:11:22:33:${suffix().slice(0, 2)}:01` })).uid;
      const b = (await makeRtu(admin, { alias: "나" })).uid;
      await api().call("POST", "/por", { token: admin, json: { plantUid, rtus: [a, b] } });
      const res = await api().call("GET", "/total", { token: admin });
      const row = res.body.totalList.find((r: { plant_uid: string }) => r.plant_uid === plantUid);
      expect(row.rtu_count).toBe(2);
      expect(row.rtu_alias_list.split("^").sort()).toEqual(["가", "나"]);
      expect(row.rtu_mac_list.split("^")).toHaveLength(2);
      expect(res.body.total.plantCount).toBeGreaterThan(0);
      expect(res.body.totalOfPlantList.find((r: { plant_uid: string }) => r.plant_uid === plantUid)).toBeTruthy();
    });

    it("stores typed settings with bounds; the alarm engine reads them through getSettings", async () => {
      const bad = await api().call("PUT", "/settings/polling", { token: admin, json: { groupStatusIntervalMs: 1000 } });
      expect(bad.status).toBe(400);
      expect(bad.body.fields.groupStatusIntervalMs).toBe("too_small");
      const ok = await api().call("PUT", "/settings/alarm", {
        token: admin,
        json: {
          rtuSilentIntervals: 4,
          deviceSilentIntervals: 5,
          lowGenerationRatio: 0.4,
          lowGenerationReleaseRatio: 0.8,
          minIrradiance: 200,
          raiseDelayMinutes: 0,
        },
      });
      expect(ok.status, ok.text).toBe(200);
      const read = await api().call("GET", "/settings", { token: admin });
      expect(read.body.alarm).toEqual({
        rtuSilentIntervals: 4,
        deviceSilentIntervals: 5,
        lowGenerationRatio: 0.4,
        lowGenerationReleaseRatio: 0.8,
        minIrradiance: 200,
        raiseDelayMinutes: 0,
        autoCloseMinutes: 0,
        flapMaxPerHour: 3,
      });
      expect(read.body.polling.groupStatusIntervalMs).toBe(660000);
      expect((await getSettings(store.db)).alarm.minIrradiance).toBe(200);
      expect((await api().call("PUT", "/settings/nope", { token: admin, json: {} })).status).toBe(404);
    });

    it("adds, edits and deletes fault codes", async () => {
      const code = 800000 + Math.floor(Math.random() * 99999);
      const add = await api().call("POST", "/code", {
        token: admin,
        json: { code, hex: "0x00FF", name_ko: "시험 고장", name_en: "Test fault", level: 3 },
      });
      expect(add.status, add.text).toBe(201);
      const dup = await api().call("POST", `/code/${code}`, {
        token: admin,
        json: { hex: "0x1", name_ko: "a", name_en: "a", level: 1 },
      });
      expect(dup.body.fields.code).toBe("taken");
      const bad = await api().call("PUT", `/code/${code}`, {
        token: admin,
        json: { hex: "zz", name_ko: "", name_en: "x", level: 5 },
      });
      expect(bad.body.fields).toMatchObject({ hex: "not_hex", name_ko: "required", level: "too_large" });
      expect(
        (
          await api().call("PUT", `/code/${code}`, {
            token: admin,
            json: { hex: "0x0100", name_ko: "바뀜", name_en: "Changed", level: 4 },
          })
        ).status,
      ).toBe(200);
      expect((await api().call("DELETE", `/code/${code}`, { token: admin })).status).toBe(400);
      expect((await api().call("DELETE", `/code/${code}`, { token: admin, json: { confirm: "delete" } })).status).toBe(200);
      expect(await store.db.selectFrom("fault_code").select("code").where("code", "=", code).executeTakeFirst()).toBeUndefined();
    });
  });
});
