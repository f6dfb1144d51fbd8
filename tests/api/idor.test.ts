/**
 * No foreign data through any plant-, RTU- or device-scoped call (issue 12): a level-10 member of another
 * node asks for a plant, an RTU and a device filed under a sibling node, on both stores. A single thing
 * answers 404 (as if it did not exist) or 403, a write changes nothing, and a list or overview never names
 * the foreign things. One row per call: a new scoped call is covered by adding its row to CALLS.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";

/** The foreign things, and a plant and RTU of the intruder's own (for calls that need one of each). */
interface Foreign {
  plant: string;
  rtu: string;
  device: string;
  ownPlant: string;
  ownRtu: string;
  me: string;
  /** The node the foreign plant is filed under, and a scheduled report of another member. */
  group: string;
  subscription: string;
}

interface Call {
  /** "METHOD /path" with {plant}, {rtu}, {device}, {ownPlant}, {ownRtu}, {me}, {group}, {subscription} filled in. */
  call: string;
  body?: (f: Foreign) => Record<string, unknown>;
  /** Accepted statuses: a single foreign thing 403/404; a list 200/204; a form refusal 400 naming the field. */
  expect?: number[];
  /** For a 400: the field the refusal must name. */
  field?: string;
}

const SINGLE = [403, 404];
/** One day of a report (the statistics calls). */
const DAY = "start=2026-01-05&end=2026-01-05&unit=60";
const LIST = [200, 204];

export const CALLS: Call[] = [
  // Plants
  { call: "GET /plant/{plant}" },
  { call: "PUT /plant/{plant}", body: () => ({ name: "탈취", capa: 100, locality: "전남" }) },
  { call: "DELETE /plant/{plant}", body: (f) => ({ confirm: f.plant }) },
  { call: "GET /management/plant/setting?plantUid={plant}" },
  { call: "GET /plant/{plant}/history?from=0&to=3600000" },
  { call: "GET /pvstatus/new?plantUid={plant}" },
  { call: "POST /por", body: (f) => ({ plantUid: f.plant, rtus: [f.ownRtu] }) },
  { call: "POST /member/detail", body: (f) => ({ plant: f.plant }), expect: [204, 403, 404] },
  { call: "POST /member/link/{me}/{plant}" },
  {
    call: "POST /total/loadData",
    body: (f) => ({ url: "http://127.0.0.1:9/", uid: f.plant, id: "x", password: "y" }),
    expect: [400, 403, 404],
    field: "uid",
  },
  {
    call: "POST /device",
    body: (f) => ({ uid: `DX${randomBytes(3).toString("hex")}`, name: "x", kind: 1, plantUid: f.plant }),
    expect: [400],
    field: "plantUid",
  },
  // RTUs
  { call: "GET /rtu/{rtu}" },
  { call: "PUT /rtu/{rtu}", body: () => ({ name: "탈취", kind: 1 }) },
  { call: "POST /rtu/{rtu}/credential" },
  { call: "DELETE /rtu/{rtu}", body: (f) => ({ confirm: f.rtu }) },
  { call: "DELETE /por", body: (f) => ({ exclude: [f.rtu] }) },
  { call: "POST /por", body: (f) => ({ plantUid: f.ownPlant, rtus: [f.rtu] }) },
  {
    call: "POST /device",
    body: (f) => ({ uid: `DX${randomBytes(3).toString("hex")}`, name: "x", kind: 1, rtuUid: f.rtu }),
    expect: [400],
    field: "rtuUid",
  },
  // Devices
  { call: "GET /device/{device}" },
  { call: "PUT /device/{device}", body: (f) => ({ name: "탈취", kind: 1, rtuUid: f.rtu }) },
  { call: "DELETE /device/{device}", body: (f) => ({ confirm: f.device }) },
  // Statistics reports, exports and scheduled reports (issue 16)
  { call: `GET /rpi?deviceUid={device}&${DAY}` },
  { call: `GET /rpi?rtuUid={rtu}&${DAY}` },
  { call: `GET /rpi?plant={plant}&${DAY}` },
  { call: `GET /rpe?deviceUid={device}&${DAY}` },
  { call: `GET /rpv?plant={plant}&${DAY}` },
  { call: `GET /rpa?rtuUid={rtu}&${DAY}` },
  { call: `GET /rpi/statistics/group/plant?plant={plant}&${DAY}` },
  { call: `GET /rpi/statistics/group/plant?isGroup=1&group={group}&${DAY}` },
  { call: `GET /rpi/statistics/group/group?plant={plant}&${DAY}` },
  { call: `GET /rpe/statistics/group?isGroup=1&group={group}&${DAY}` },
  { call: "GET /rpi/statistics/scope?plant={plant}" },
  { call: `GET /statistics/export?report=integrated&format=csv&plant={plant}&${DAY}` },
  { call: `GET /statistics/export?report=inverter&format=xlsx&deviceUid={device}&${DAY}` },
  {
    call: "POST /statistics/subscriptions",
    body: (f) => ({ report: "integrated", frequency: "daily", plant: f.plant, email: "x@intruder.test" }),
  },
  {
    call: "POST /statistics/subscriptions",
    body: (f) => ({ report: "env", frequency: "monthly", isGroup: true, group: Number(f.group), email: "x@intruder.test" }),
  },
  { call: "DELETE /statistics/subscriptions/{subscription}" },
  {
    call: "POST /command/hex",
    body: (f) => ({ deviceUid: f.device, rtuUid: f.rtu, deviceType: 1, hexOn: "0x01" }),
    expect: [400, 403, 404],
  },
  // Lists and overviews: the foreign things are simply not there.
  { call: "GET /plant", expect: LIST },
  { call: "GET /management/plant", expect: LIST },
  { call: "GET /management/plant/rtu", expect: LIST },
  { call: "GET /rtu/user", expect: LIST },
  { call: "GET /device/list_user", expect: LIST },
  { call: "GET /device/list_user/admin", expect: LIST },
  { call: "GET /total", expect: LIST },
  { call: "GET /alarm/recent", expect: LIST },
  { call: "GET /monitor/gen", expect: LIST },
  { call: "GET /monitor/grid", expect: LIST },
  { call: "GET /node/ancestor/list/watch?type=group", expect: LIST },
  { call: "GET /node/ancestor/list/watch?type=locality", expect: LIST },
  { call: "GET /pvstatus", expect: LIST },
  { call: "POST /pvstatus/group", body: () => ({}), expect: LIST },
  { call: "POST /pvstatus/group", body: (f) => ({ type: "plant", uid: f.plant }), expect: LIST },
  { call: "GET /plant/pvstatus", expect: LIST },
  { call: `GET /rpi/statistics/group/plant?${DAY}`, expect: LIST },
  { call: `GET /rpv?${DAY}`, expect: LIST },
  { call: "GET /rpi/statistics/scope", expect: LIST },
  { call: `GET /statistics/export?report=inverter&format=csv&${DAY}`, expect: LIST },
  { call: "GET /statistics/subscriptions", expect: LIST },
];

function fill(template: string, f: Foreign): string {
  return template.replace(/\{(\w+)\}/g, (_, k: keyof Foreign) => encodeURIComponent(f[k]));
}

describe.each(STORES)("no foreign data through scoped calls on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let intruder: string;
  const f = {} as Foreign;
  const names: string[] = [];
  const api = () => apiClient(server.baseUrl);
  const tag = () => randomBytes(3).toString("hex").toUpperCase();

  beforeAll(async () => {
    server = await startServer({ store: storeKind, port: await freePort(3440, 3499) });
    store = await openTestStore(server.databaseUrl);
    const admin = (await api().session("admin", ADMIN_PASSWORD)).accessToken;
    const root = Number(
      (await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).orderBy("seq").executeTakeFirstOrThrow())
        .seq,
    );
    const node = async (name: string) =>
      Number(
        (
          await store.db
            .insertInto("node")
            .values({ name, parent_seq: root, sort_order: 0, created_at: Date.now() })
            .returning("seq")
            .executeTakeFirstOrThrow()
        ).seq,
      );
    const owner = await node(`소유 ${tag()}`);
    const other = await node(`타인 ${tag()}`);
    const make = async (path: string, json: Record<string, unknown>) => {
      const res = await api().call("POST", path, { token: admin, json });
      expect(res.status, res.text).toBe(201);
    };
    const t = tag();
    f.plant = `PF${t}`;
    f.rtu = `RF${t}`;
    f.device = `DF${t}`;
    f.ownPlant = `PO${t}`;
    f.ownRtu = `RO${t}`;
    names.push(`외부발전소${t}`, `외부RTU${t}`, `외부장비${t}`);
    await make("/plant", { uid: f.plant, name: names[0], capa: 12345, locality: "전남", nodeSeq: owner });
    await make("/rtu", { uid: f.rtu, name: names[1], nodeSeq: owner });
    await make("/device", { uid: f.device, name: names[2], kind: 1, rtuUid: f.rtu });
    const por = await api().call("POST", "/por", { token: admin, json: { plantUid: f.plant, rtus: [f.rtu] } });
    expect(por.status, por.text).toBe(200);
    await make("/plant", { uid: f.ownPlant, name: `내발전소${t}`, capa: 100, locality: "전남", nodeSeq: other });
    await make("/rtu", { uid: f.ownRtu, name: `내RTU${t}`, nodeSeq: other });
    // An open alarm on the foreign plant, so the alarm and status lists have something to leak.
    await store.db
      .insertInto("alarm")
      .values({
        plant_uid: f.plant,
        rtu_uid: f.rtu,
        device_uid: f.device,
        code: 1000001,
        level: 2,
        fault_code: null,
        message: names[0],
        raised_at: Date.now(),
        released_at: null,
      })
      .execute();
    f.group = String(owner);
    const sub = await api().call("POST", "/statistics/subscriptions", {
      token: admin,
      json: { report: "integrated", frequency: "weekly", plant: f.plant, email: "owner@plant.test" },
    });
    expect(sub.status, sub.text).toBe(201);
    f.subscription = String(sub.body.subscription.seq);
    const m = await createMember(store, { auth: 10, node_seq: other });
    f.me = m.id;
    intruder = (await api().session(m.id, m.password)).accessToken;
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it.each(CALLS.map((c) => [c.call, c] as const))("%s", async (_, c) => {
    const [method, template] = c.call.split(" ") as [string, string];
    const res = await api().call(method, fill(template, f), { token: intruder, ...(c.body ? { json: c.body(f) } : {}) });
    expect(c.expect ?? SINGLE, `${res.status} ${res.text}`).toContain(res.status);
    if (res.status === 400 && c.field) expect(Object.keys(res.body?.fields ?? {}), res.text).toContain(c.field);
    for (const secret of [f.plant, f.rtu, f.device, ...names])
      expect(res.text, `${c.call} leaked ${secret}`).not.toContain(secret);
  });

  it("left the foreign plant, RTU and device as they were", async () => {
    const plant = await store.db.selectFrom("plant").select(["name"]).where("uid", "=", f.plant).executeTakeFirst();
    const rtu = await store.db
      .selectFrom("rtu")
      .select(["name", "plant_uid", "credential_hash"])
      .where("uid", "=", f.rtu)
      .executeTakeFirst();
    const device = await store.db.selectFrom("device").select(["name"]).where("uid", "=", f.device).executeTakeFirst();
    expect(plant?.name).toBe(names[0]);
    expect(rtu?.name).toBe(names[1]);
    expect(rtu?.plant_uid).toBe(f.plant);
    expect(device?.name).toBe(names[2]);
    const links = await store.db.selectFrom("member_plant").select("plant_uid").where("member_id", "=", f.me).execute();
    expect(links).toEqual([]);
    const subs = await store.db.selectFrom("report_subscription").select(["member_id", "plant_uid"]).execute();
    expect(subs).toEqual([{ member_id: "admin", plant_uid: f.plant }]);
  });
});
