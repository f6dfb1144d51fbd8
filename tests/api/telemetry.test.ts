/**
 * The data plane against a real server on both stores: HTTP ingest (batch, duplicate batch,
 * mixed good and bad readings, late data fixing rollups), each alarm raised and released,
 * commands and telemetry over MQTT (the Mosquitto broker on this machine).
 */
import { alarmMessageFields } from "../../api/store/alarms";
import { faultNamer } from "../../api/store/fault-codes";
import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sunPosition } from "../../api/sim/solar";
import { seoulDayStart } from "../../domain/seoul-time";
import { openTestStore, type Store } from "../helpers/fixtures";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { STORES, apiClient } from "../helpers/http";
import { createGatewayFixture, gatewayAuth, inverterValues, postReadings, slot } from "../helpers/telemetry";
import { alarmsJudged, waitFor } from "../helpers/wait";

const MQTT_URL = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";

/** A longitude where the sun is high now (local solar noon ≈ now), and one where it is night. */
function longitudeAt(hourOffset: number): number {
  const d = new Date();
  const utcHours = d.getUTCHours() + d.getUTCMinutes() / 60;
  let lng = (12 + hourOffset - utcHours) * 15;
  while (lng > 180) lng -= 360;
  while (lng < -180) lng += 360;
  return lng;
}

const openAlarms = (store: Store, plantUid: string, code: number) =>
  store.db
    .selectFrom("alarm")
    .selectAll()
    .where("plant_uid", "=", plantUid)
    .where("code", "=", code)
    .where("released_at", "is", null)
    .execute();

describe.each(STORES)("data plane on %s", (kind) => {
  let server: TestServer;
  let store: Store;
  const prefix = `test/${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    server = await startServer({
      store: kind,
      env: {
        ALARM_INTERVAL_MS: "300",
        MQTT_URL,
        MQTT_TOPIC_PREFIX: prefix,
        MQTT_CLIENT_ID: `portal-test-${randomBytes(4).toString("hex")}`,
      },
    });
    store = await openTestStore(server.databaseUrl);
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  const inverter = inverterValues;

  it("refuses a gateway without a valid credential and a malformed batch", async () => {
    const g = await createGatewayFixture(store);
    const none = await fetch(`${server.baseUrl}/api/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(none.status).toBe(401);
    const wrong = await postReadings(server.baseUrl, { ...g, secret: "not-the-secret" }, [
      { device: g.env, ts: slot(1), values: { his: 1 } },
    ]);
    expect(wrong.status).toBe(401);
    const empty = await postReadings(server.baseUrl, g, []);
    expect(empty.status).toBe(400);
    expect(empty.body.fields.readings).toBe("empty_batch");
    const broken = await fetch(`${server.baseUrl}/api/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: gatewayAuth(g) },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
  });

  it("stores a batch once, answers after commit, and ignores the same batch sent again", async () => {
    const g = await createGatewayFixture(store);
    const readings = [3, 2, 1].flatMap((s) => [
      { device: g.inverters[0], ts: slot(s), values: inverter(20_000) },
      { device: g.env, ts: new Date(slot(s)).toISOString(), values: { his: 500, iis: 600, sts: 30, ats: 12 } },
    ]);
    const first = await postReadings(server.baseUrl, g, readings, "b-1");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ batchId: "b-1", accepted: 6, duplicates: 0, rejected: [] });
    const again = await postReadings(server.baseUrl, g, readings, "b-1");
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 6, rejected: [] });
    const rows = await store.db.selectFrom("m_inverter").select("ts").where("device_uid", "=", g.inverters[0]!).execute();
    expect(rows).toHaveLength(3);
    const latest = await store.db
      .selectFrom("device_latest")
      .selectAll()
      .where("device_uid", "=", g.env)
      .executeTakeFirstOrThrow();
    expect(latest.ts).toBe(slot(1));
    expect(latest.iis).toBe(600);
    const rtu = await store.db.selectFrom("rtu").select("last_seen_at").where("uid", "=", g.rtuUid).executeTakeFirstOrThrow();
    expect(rtu.last_seen_at).toBeGreaterThan(Date.now() - 60_000);
  });

  it("keeps the good readings of a batch and names the reason for each bad one", async () => {
    const g = await createGatewayFixture(store);
    const other = await createGatewayFixture(store);
    const res = await postReadings(server.baseUrl, g, [
      { device: g.env, ts: slot(1), values: { his: 100, iis: 120 } },
      { device: "NO-SUCH-DEVICE", ts: slot(1), values: { his: 1 } },
      { device: other.env, ts: slot(1), values: { his: 1 } },
      { device: g.inverters[0], ts: slot(1), values: inverter(100, { iw: "lots" }) },
      { device: g.inverters[1], ts: Date.now() + 3_600_000, values: inverter(100) },
      { device: g.board, ts: slot(1), values: { v: 600, volume: 3 } },
      { device: g.inverters[1], ts: slot(1), values: { dc_v: 600 } },
      { device: g.vcb, ts: "yesterday", values: { v: 22_900 } },
      { device: g.acb, ts: slot(1), values: { v: 380, a: 10, w: 6_000, state: 1 } },
      { device: g.acb, ts: slot(1), values: { v: 380, a: 10, w: 6_000, state: 1 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(2);
    const reasons = Object.fromEntries(res.body.rejected.map((r: any) => [r.index, r.reason]));
    expect(reasons).toEqual({
      1: "unknown_device",
      2: "device_of_another_rtu",
      3: "not_a_number",
      4: "timestamp_in_future",
      5: "unknown_field",
      6: "missing_field",
      7: "bad_timestamp",
      9: "duplicate_in_batch",
    });
    expect(res.body.rejected.find((r: any) => r.index === 3).field).toBe("iw");
    const stored = await store.db
      .selectFrom("m_env")
      .select("device_uid")
      .where("device_uid", "in", [g.env, other.env])
      .execute();
    expect(stored.map((r) => r.device_uid)).toEqual([g.env]);
  });

  it("accepts late readings and corrects the hourly and daily rollups", async () => {
    const g = await createGatewayFixture(store);
    const day = seoulDayStart(Date.now()) - 2 * 86_400_000;
    const at = (h: number, m = 0) => day + h * 3_600_000 + m * 60_000;
    await postReadings(server.baseUrl, g, [
      { device: g.inverters[0], ts: at(12), values: inverter(30_000, { today_wh: 50_000 }) },
      { device: g.inverters[0], ts: at(12, 20), values: inverter(30_000, { today_wh: 60_000 }) },
    ]);
    const daily = () =>
      store.db
        .selectFrom("rollup_daily")
        .selectAll()
        .where("device_uid", "=", g.inverters[0]!)
        .where("day_ts", "=", day)
        .executeTakeFirstOrThrow();
    const hourly = () =>
      store.db
        .selectFrom("rollup_hourly")
        .selectAll()
        .where("device_uid", "=", g.inverters[0]!)
        .where("hour_ts", "=", at(12))
        .executeTakeFirstOrThrow();
    expect((await daily()).energy_wh).toBe(60_000);
    expect((await hourly()).energy_wh).toBeCloseTo(10_000, 6);
    // The 12:10 reading arrives two days late, and a later one of that afternoon too.
    const late = await postReadings(server.baseUrl, g, [
      { device: g.inverters[0], ts: at(12, 10), values: inverter(30_000, { today_wh: 55_000 }) },
      { device: g.inverters[0], ts: at(15), values: inverter(12_000, { today_wh: 110_000 }) },
    ]);
    expect(late.body.accepted).toBe(2);
    expect((await hourly()).energy_wh).toBeCloseTo(15_000, 6);
    expect((await hourly()).samples).toBe(3);
    const d = await daily();
    expect(d.energy_wh).toBe(110_000);
    expect(d.samples).toBe(4);
    expect(d.max_w).toBe(30_000);
    // The latest value keeps the newest reading, not the late one.
    const latest = await store.db
      .selectFrom("device_latest")
      .select("ts")
      .where("device_uid", "=", g.inverters[0]!)
      .executeTakeFirstOrThrow();
    expect(latest.ts).toBe(at(15));
  });

  it("raises 1000003 when an RTU stops reporting and releases it when it is back", async () => {
    const g = await createGatewayFixture(store);
    await postReadings(server.baseUrl, g, [{ device: g.env, ts: slot(0), values: { his: 10, iis: 10 } }]);
    await store.db
      .updateTable("rtu")
      .set({ last_seen_at: Date.now() - 45 * 60_000 })
      .where("uid", "=", g.rtuUid)
      .execute();
    const [alarm] = await waitFor(async () => {
      const a = await openAlarms(store, g.plantUid, 1000003);
      return a.length ? a : null;
    });
    expect(alarm).toMatchObject({ rtu_uid: g.rtuUid, level: 4 });
    await postReadings(server.baseUrl, g, [
      { device: g.env, ts: slot(0), values: { his: 10, iis: 10 } },
      { device: g.env, ts: slot(1), values: { his: 10 } },
    ]);
    await waitFor(async () => (await openAlarms(store, g.plantUid, 1000003)).length === 0);
    const row = await store.db.selectFrom("alarm").select("released_at").where("seq", "=", alarm!.seq).executeTakeFirstOrThrow();
    expect(row.released_at).not.toBeNull();
  });

  it("raises 1000001 for a device that stops answering while its RTU reports, and releases it", async () => {
    const g = await createGatewayFixture(store, { lat: 0, lng: longitudeAt(0) });
    await postReadings(server.baseUrl, g, [
      { device: g.inverters[1], ts: slot(5), values: inverter(30_000) },
      { device: g.inverters[0], ts: slot(0), values: inverter(30_000) },
      { device: g.env, ts: slot(0), values: { his: 700, iis: 800, sts: 40, ats: 25 } },
      { device: g.board, ts: slot(0), values: { v: 600, total_a: 50, channels: [6, 6, 6, 6, 6, 6, 7, 7] } },
      { device: g.vcb, ts: slot(0), values: { v: 22_900, a: 1, w: 30_000, state: 1, gf_ma: 2 } },
      { device: g.acb, ts: slot(0), values: { v: 380, a: 45, w: 30_000, state: 1, gf_ma: 1 } },
    ]);
    const alarms = await waitFor(async () => {
      const a = await openAlarms(store, g.plantUid, 1000001);
      return a.length ? a : null;
    });
    expect(alarms.map((a) => a.device_uid)).toEqual([g.inverters[1]]);
    await postReadings(server.baseUrl, g, [{ device: g.inverters[1], ts: slot(0), values: inverter(30_000) }]);
    await waitFor(async () => (await openAlarms(store, g.plantUid, 1000001)).length === 0);
  });

  it("raises 1000006 with the fault name from the fault-code table, and releases it when cleared", async () => {
    const g = await createGatewayFixture(store, { lat: 0, lng: longitudeAt(0) });
    await postReadings(server.baseUrl, g, [
      { device: g.env, ts: slot(1), values: { his: 700, iis: 800, sts: 40 } },
      { device: g.inverters[0], ts: slot(1), values: inverter(0, { fault_code: 8, fault_hex: "0x0008" }) },
      { device: g.inverters[1], ts: slot(1), values: inverter(30_000) },
    ]);
    const [alarm] = await waitFor(async () => {
      const a = await openAlarms(store, g.plantUid, 1000006);
      return a.length ? a : null;
    });
    const name = await store.db.selectFrom("fault_code").select("name_ko").where("code", "=", 8).executeTakeFirstOrThrow();
    // Stored as a code with parameters (migration 0015); read, it names the fault from the fault-code table.
    expect(alarm).toMatchObject({ device_uid: g.inverters[0], fault_code: 8, message_code: "inverter_fault" });
    expect(alarmMessageFields(alarm!, (await faultNamer(store.db)).ko).message).toBe(`${name.name_ko} (고장 코드 0x8)`);
    // A faulted inverter is not also judged as low generation.
    expect(await openAlarms(store, g.plantUid, 1000004)).toHaveLength(0);
    await postReadings(server.baseUrl, g, [
      { device: g.env, ts: slot(0), values: { his: 700, iis: 800, sts: 40 } },
      { device: g.inverters[0], ts: slot(0), values: inverter(30_000) },
      { device: g.inverters[1], ts: slot(0), values: inverter(30_000) },
    ]);
    await waitFor(async () => (await openAlarms(store, g.plantUid, 1000006)).length === 0);
  });

  it("raises 1000004 for generation far below the temperature-corrected reference in sunlight, with hysteresis", async () => {
    // 100 kW over two inverters; at 800 W/m² and 25 °C the reference is 50 × 0.8 × 0.87 = 34.8 kW each.
    const g = await createGatewayFixture(store, { lat: 0, lng: longitudeAt(0) });
    const step = (s: number, second: number) => [
      { device: g.env, ts: slot(s), values: { his: 700, iis: 800, sts: 25 } },
      { device: g.inverters[0], ts: slot(s), values: inverter(33_000) },
      { device: g.inverters[1], ts: slot(s), values: inverter(second) },
    ];
    await postReadings(server.baseUrl, g, step(2, 6_000));
    const [alarm] = await waitFor(async () => {
      const a = await openAlarms(store, g.plantUid, 1000004);
      return a.length ? a : null;
    });
    expect(alarm).toMatchObject({ device_uid: g.inverters[1], level: 2 });
    // 60 % is above the raise threshold (50 %) but below the release threshold (70 %): it stays.
    await postReadings(server.baseUrl, g, step(1, 21_000));
    await alarmsJudged(server.baseUrl);
    expect(await openAlarms(store, g.plantUid, 1000004)).toHaveLength(1);
    await postReadings(server.baseUrl, g, step(0, 33_000));
    await waitFor(async () => (await openAlarms(store, g.plantUid, 1000004)).length === 0);
  });

  it("raises nothing at night for a plant that is simply dark", async () => {
    const g = await createGatewayFixture(store, { lat: 0, lng: longitudeAt(12) });
    expect(sunPosition(Date.now(), 0, longitudeAt(12)).elevationDeg).toBeLessThan(-20);
    // Inverters reported in the evening and sleep now; the sensor and breakers keep reporting.
    await postReadings(server.baseUrl, g, [
      ...g.inverters.map((d) => ({ device: d, ts: slot(6), values: inverter(0) })),
      { device: g.board, ts: slot(6), values: { v: 0, total_a: 0 } },
      ...[2, 1, 0].flatMap((s) => [
        { device: g.env, ts: slot(s), values: { his: 0, iis: 0, sts: 8, ats: 9 } },
        { device: g.vcb, ts: slot(s), values: { v: 22_900, a: 0, w: 0, state: 1, gf_ma: 1 } },
        { device: g.acb, ts: slot(s), values: { v: 380, a: 0, w: 0, state: 1, gf_ma: 1 } },
      ]),
    ]);
    await alarmsJudged(server.baseUrl);
    const any = await store.db.selectFrom("alarm").select("code").where("plant_uid", "=", g.plantUid).execute();
    expect(any).toEqual([]);
  });

  describe("over MQTT", () => {
    let gateway: mqtt.MqttClient;
    beforeAll(async () => {
      gateway = await mqtt.connectAsync(MQTT_URL, { clientId: `gw-${randomBytes(4).toString("hex")}` });
    });
    afterAll(async () => {
      await gateway?.endAsync();
    });

    it("ingests a QoS 1 telemetry batch and acknowledges it after commit", async () => {
      const g = await createGatewayFixture(store);
      await gateway.subscribeAsync(`${prefix}/${g.rtuUid}/ack`, { qos: 1 });
      const ack = new Promise<any>((resolve) =>
        gateway.on("message", (topic, payload) => topic.endsWith(`${g.rtuUid}/ack`) && resolve(JSON.parse(payload.toString()))),
      );
      const readings = [2, 1, 0].map((s) => ({ device: g.env, ts: slot(s), values: { his: 300, iis: 350, sts: 20, ats: 10 } }));
      await gateway.publishAsync(
        `${prefix}/${g.rtuUid}/telemetry`,
        JSON.stringify({ secret: g.secret, batchId: "m-1", readings }),
        { qos: 1 },
      );
      expect(await ack).toMatchObject({ batchId: "m-1", accepted: 3, duplicates: 0, rejected: [] });
      const rows = await store.db.selectFrom("m_env").select("ts").where("device_uid", "=", g.env).execute();
      expect(rows).toHaveLength(3);
    });

    it("answers an unauthenticated gateway without storing anything", async () => {
      const g = await createGatewayFixture(store);
      await gateway.subscribeAsync(`${prefix}/${g.rtuUid}/ack`, { qos: 1 });
      const ack = new Promise<any>((resolve) =>
        gateway.on("message", (topic, payload) => topic.endsWith(`${g.rtuUid}/ack`) && resolve(JSON.parse(payload.toString()))),
      );
      await gateway.publishAsync(
        `${prefix}/${g.rtuUid}/telemetry`,
        JSON.stringify({ secret: "wrong", readings: [{ device: g.env, ts: slot(0), values: { his: 1 } }] }),
        { qos: 1 },
      );
      expect(await ack).toMatchObject({ error: "gateway_unauthorized" });
      expect(await store.db.selectFrom("m_env").select("ts").where("device_uid", "=", g.env).execute()).toHaveLength(0);
    });

    it("delivers a command to the gateway and records its outcome", async () => {
      const g = await createGatewayFixture(store);
      await gateway.subscribeAsync(`${prefix}/${g.rtuUid}/command`, { qos: 1 });
      gateway.on("message", (topic, payload) => {
        if (!topic.endsWith(`${g.rtuUid}/command`)) return;
        const cmd = JSON.parse(payload.toString());
        void gateway.publishAsync(
          `${prefix}/${g.rtuUid}/command/result`,
          JSON.stringify({ seq: cmd.seq, ok: true, state: cmd.action === "on" ? 1 : 0, message: `did ${cmd.hex}` }),
          { qos: 1 },
        );
      });
      const client = apiClient(server.baseUrl);
      const { accessToken } = await client.session("admin", ADMIN_PASSWORD);
      const res = await client.call("POST", "/command/hex", {
        token: accessToken,
        json: { deviceType: 8, rtuUid: g.rtuUid, deviceUid: g.acb, ch: 1, hexOff: "0x0001" },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "done", ok: true, state: 0, message: "did 0x0001" });
      const row = await store.db.selectFrom("command").selectAll().where("seq", "=", res.body.seq).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: "done", device_uid: g.acb, hex_off: "0x0001", requested_by: "admin" });
      const bad = await client.call("POST", "/command/hex", {
        token: accessToken,
        json: { deviceType: 8, rtuUid: g.rtuUid, deviceUid: g.acb, ch: 1, hexOn: "0x1", hexOff: "0x2" },
      });
      expect(bad.status).toBe(400);
      const guest = await client.session("guest", "guest-demo-2026");
      const refused = await client.call("POST", "/command/hex", {
        token: guest.accessToken,
        json: { deviceType: 8, rtuUid: g.rtuUid, deviceUid: g.acb, ch: 1, hexOn: "0x1" },
      });
      expect(refused.status).toBe(403);
    });
  });
});
