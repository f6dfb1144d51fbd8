/**
 * Alarms, alerts and control against a real server on both stores:
 * - every filter of GET /api/alarm, bad input, and what a member of another node may see;
 * - the lifecycle through the real alarm engine: acknowledge with a note → cleared → raised again → active;
 *   the raise delay; production alarms only in daylight; one plant alarm for a plant-wide outage;
 * - alerts to a REAL SMTP server (smtp-server) and a real HTTP webhook receiver started here; SMTP down →
 *   retried, delivered after it is back, nothing duplicated and nothing lost across a server restart;
 * - commands over MQTT (the Mosquitto broker on this machine): acknowledged, failed, timed out; the
 *   control service bit; foreign devices.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import mqtt from "mqtt";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_BITS } from "../../domain/service-bits";
import { formatSeoul } from "../../domain/seoul-time";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { STORES, apiClient } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";
import {
  createGatewayFixture,
  groundFaultReadings,
  inverterValues,
  postReadings,
  slot,
  type GatewayFixture,
} from "../helpers/telemetry";
import { alarmPasses, pollUntil, waitFor } from "../helpers/wait";
import { Mailbox, mailText } from "../helpers/mailbox";
import { convertLegacyAlarmMessages } from "../../api/store/migrations/0015_alarm_message_code";

const MQTT_URL = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";
const DAY = 86_400_000;

/** A longitude where local solar time is now + hourOffset (so the sun is up or down at will). */
function longitudeAt(hourOffset: number): number {
  const d = new Date();
  let lng = (12 + hourOffset - (d.getUTCHours() + d.getUTCMinutes() / 60)) * 15;
  while (lng > 180) lng -= 360;
  while (lng < -180) lng += 360;
  return lng;
}

const inverter = inverterValues;

/** A real webhook receiver (Slack/Teams-style incoming webhook). */
async function webhookReceiver() {
  const received: Array<{ seq: string | undefined; body: { text: string; subject: string } }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ seq: req.headers["x-outbox-seq"] as string | undefined, body: JSON.parse(body) });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe.each(STORES)("alarms, alerts and control on %s", (kind) => {
  let server: TestServer;
  let store: Store;
  let mailbox: Mailbox;
  let hook: Awaited<ReturnType<typeof webhookReceiver>>;
  let admin: string;
  const prefix = `test/${randomBytes(4).toString("hex")}`;
  const env = () => ({
    ALARM_INTERVAL_MS: "300",
    SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
    MAIL_FROM: "Portal <alerts@portal.test>",
    OUTBOX_RETRY_MS: "300",
    COMMAND_TIMEOUT_MS: "1500",
    MQTT_URL,
    MQTT_TOPIC_PREFIX: prefix,
    MQTT_CLIENT_ID: `portal-test-${randomBytes(4).toString("hex")}`,
    PORTAL_WORKERS: "0",
    // The webhook receiver listens on loopback, which the outbound-address rule refuses unless listed.
    CCTV_ALLOWED_NETS: "127.0.0.0/8",
  });

  beforeAll(async () => {
    mailbox = new Mailbox(await freePort(3500, 3599));
    await mailbox.up();
    hook = await webhookReceiver();
    server = await startServer({ store: kind, env: env(), timeoutMs: 110_000 });
    store = await openTestStore(server.databaseUrl);
    admin = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
    await mailbox?.down();
    await hook?.close();
  });

  const get = (path: string, token = admin) => apiClient(server.baseUrl).call("GET", path, { token });
  const post = (path: string, json: unknown, token = admin) => apiClient(server.baseUrl).call("POST", path, { token, json });
  const put = (path: string, json: unknown, token = admin) => apiClient(server.baseUrl).call("PUT", path, { token, json });

  async function insertAlarm(plant: string, over: Record<string, unknown>) {
    const row = await store.db
      .insertInto("alarm")
      .values({
        plant_uid: plant,
        rtu_uid: null,
        device_uid: null,
        code: 1000001,
        level: 3,
        fault_code: null,
        message: "fixture",
        raised_at: Date.now(),
        released_at: null,
        ...over,
      } as never)
      .returning("seq")
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  async function otherNodeMember(service = 0xffff) {
    const root = await store.db
      .selectFrom("node")
      .select("seq")
      .where("parent_seq", "is", null)
      .orderBy("seq")
      .executeTakeFirstOrThrow();
    const node = await store.db
      .insertInto("node")
      .values({ parent_seq: root.seq, name: `n-${randomBytes(3).toString("hex")}`, sort_order: 0, created_at: Date.now() })
      .returning("seq")
      .executeTakeFirstOrThrow();
    const m = await createMember(store, { node_seq: Number(node.seq), service });
    const token = (await apiClient(server.baseUrl).session(m.id, m.password)).accessToken;
    return { ...m, node: Number(node.seq), token };
  }

  it("filters the alarm list by period, level, device, code, state, plant and group, and pages it", async () => {
    const g = await createGatewayFixture(store);
    const other = await createGatewayFixture(store);
    const today = Date.now();
    const s = {
      // Alarms the engine leaves alone: its devices never reported, so nothing about them can be judged now.
      a: await insertAlarm(g.plantUid, { level: 4, device_uid: g.board }),
      b: await insertAlarm(g.plantUid, {
        level: 2,
        code: 1000004,
        device_uid: g.inverters[0],
        ack_by: "admin",
        ack_at: today,
        ack_note: "보는 중",
      }),
      c: await insertAlarm(g.plantUid, {
        level: 3,
        device_uid: g.inverters[1],
        raised_at: today - 3 * DAY,
        released_at: today - 3 * DAY + 60_000,
      }),
      d: await insertAlarm(g.plantUid, { level: 1, device_uid: g.env, raised_at: today - 2 * DAY }),
      e: await insertAlarm(other.plantUid, { level: 4 }),
    };
    const seqs = (res: { body: { alarmList: Array<{ seq: number }> } }) =>
      res.body.alarmList.map((a) => a.seq).sort((x, y) => x - y);
    const q = (extra: string) => get(`/alarm?plant=${g.plantUid}${extra}`);
    // Default period: today; the open alarm raised two days ago is still alive today.
    expect(seqs(await q(""))).toEqual([s.a, s.b, s.d]);
    const day = (ms: number) => formatSeoul(ms, "YYYY-MM-DD");
    const week = await q(`&start=${day(today - 6 * DAY)}&end=${day(today)}`);
    expect(seqs(week)).toEqual([s.a, s.b, s.c, s.d]);
    expect(week.body.counts).toEqual({ "-1": 4, 1: 1, 2: 1, 3: 1, 4: 1 });
    expect(seqs(await q(`&start=${day(today - 3 * DAY)}&end=${day(today - 3 * DAY)}`))).toEqual([s.c]);
    expect(seqs(await q(`&start=${day(today - 6 * DAY)}&level=4`))).toEqual([s.a]);
    const lvl2 = await q(`&start=${day(today - 6 * DAY)}&level=2`);
    expect(seqs(lvl2)).toEqual([s.b]);
    expect(lvl2.body.total).toBe(1);
    expect(lvl2.body.counts["-1"]).toBe(4);
    expect(seqs(await q(`&start=${day(today - 6 * DAY)}&device=${g.inverters[1]}`))).toEqual([s.c]);
    expect(seqs(await q(`&start=${day(today - 6 * DAY)}&code=1000004`))).toEqual([s.b]);
    expect(seqs(await q(`&start=${day(today - 6 * DAY)}&status=active`))).toEqual([s.a, s.d]);
    expect(seqs(await q(`&start=${day(today - 6 * DAY)}&status=acknowledged`))).toEqual([s.b]);
    expect(seqs(await q(`&start=${day(today - 6 * DAY)}&status=cleared`))).toEqual([s.c]);
    const row = (await q(`&status=acknowledged`)).body.alarmList[0];
    expect(row).toMatchObject({
      plantName: expect.stringContaining("테스트 발전소"),
      deviceName: "인버터 1",
      status: "acknowledged",
      ack_by: "admin",
      ack_note: "보는 중",
    });
    // Paging: newest first, 20 a page.
    // (cleared ones: the store keeps one open alarm per condition)
    for (let i = 0; i < 21; i++)
      await insertAlarm(other.plantUid, { level: 2, raised_at: today - i * 1000, released_at: today - i * 1000 + 500 });
    const p1 = await get(`/alarm?plant=${other.plantUid}&size=20`);
    const p2 = await get(`/alarm?plant=${other.plantUid}&size=20&page=2`);
    expect(p1.body.total).toBe(22);
    expect(p1.body.alarmList).toHaveLength(20);
    expect(p2.body.alarmList).toHaveLength(2);
    expect(p1.body.alarmList[0].raised_at).toBeGreaterThanOrEqual(p1.body.alarmList[19].raised_at);
    // Group scope: a node with one plant.
    const m = await otherNodeMember();
    await store.db.updateTable("plant").set({ node_seq: m.node }).where("uid", "=", other.plantUid).execute();
    const grouped = await get(`/alarm?isGroup=1&group=${m.node}&size=100`);
    expect(new Set(grouped.body.alarmList.map((a: { plant_uid: string }) => a.plant_uid))).toEqual(new Set([other.plantUid]));
    // The member of that node sees that plant and nothing of g's.
    const mine = await get(`/alarm?size=100`, m.token);
    expect(new Set(mine.body.alarmList.map((a: { plant_uid: string }) => a.plant_uid))).toEqual(new Set([other.plantUid]));
    expect((await get(`/alarm?plant=${g.plantUid}`, m.token)).status).toBe(404);
    // A group of the member's own without plants is an empty list, and so is a plant of theirs outside the group
    // asked for (both answered 404 before); a group outside their reach stays 404.
    const empty = Number(
      (
        await store.db
          .insertInto("node")
          .values({
            parent_seq: m.node,
            name: `빈 그룹 ${randomBytes(2).toString("hex")}`,
            sort_order: 0,
            created_at: Date.now(),
          })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );
    const inEmpty = await get(`/alarm?isGroup=1&group=${empty}`, m.token);
    expect(inEmpty.status).toBe(200);
    expect(inEmpty.body.alarmList).toEqual([]);
    const outside = await get(`/alarm?isGroup=1&group=${empty}&plant=${other.plantUid}`, m.token);
    expect(outside.status).toBe(200);
    expect(outside.body.total).toBe(0);
    expect((await get(`/alarm?isGroup=1&group=${m.node}&plant=${other.plantUid}&size=100`, m.token)).body.total).toBeGreaterThan(
      0,
    );
    const foreignGroup = await otherNodeMember();
    expect((await get(`/alarm?isGroup=1&group=${foreignGroup.node}`, m.token)).status).toBe(404);
    expect((await get(`/alarm?device=${g.inverters[0]}`, m.token)).status).toBe(404);
    expect((await get(`/alarm/${s.a}`, m.token)).status).toBe(404);
    expect((await post(`/alarm/${s.a}/ack`, { note: "x" }, m.token)).status).toBe(404);
    expect(
      (await get(`/alarm/unrelease`, m.token)).body.alarmList.every((a: { plant_uid: string }) => a.plant_uid === other.plantUid),
    ).toBe(true);
    const v2 = await get(`/alarm/v2/unrelease?plant=${g.plantUid}`);
    expect(v2.body.alarmList[0]).toMatchObject({
      plant_uid: g.plantUid,
      alarm_count: 3,
      alarm_1000003_count: 0,
      alarm_1000004_count: 1,
      alarm_1000001_count: 2,
    });
    // Bad input: a clear 400 each.
    const bad = async (query: string, field: string, message: string) => {
      const res = await get(`/alarm?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.fields[field], query).toBe(message);
    };
    await bad("start=2026-05-02&end=2026-05-01", "end", "end_before_start");
    await bad("level=7", "level", "unknown_level");
    await bad("start=2026-02-30", "start", "not_a_date");
    await bad("start=yesterday", "start", "not_a_date");
    await bad("size=1000000000", "size", "unknown_page_size");
    await bad("status=gone", "status", "unknown_status");
    await bad("start=2020-01-01&end=2026-01-01", "end", "period_too_long");
    await bad("isGroup=1", "group", "required");
  });

  it("lists the period's own alarms before the earlier ones still alive, newest first, and pages across them", async () => {
    const g = await createGatewayFixture(store);
    const day = (ms: number) => formatSeoul(ms, "YYYY-MM-DD");
    // The period: the three days before yesterday (so alarms cleared yesterday or today were cleared "later").
    const first = day(Date.now() - 4 * DAY);
    const last = day(Date.now() - 2 * DAY);
    const start = new Date(`${first}T00:00:00+09:00`).getTime();
    const end = new Date(`${last}T00:00:00+09:00`).getTime() + DAY;
    const H = 3_600_000;
    const own: number[] = [];
    for (let i = 0; i < 22; i++) {
      own.push(
        await insertAlarm(g.plantUid, {
          level: 1 + (i % 4),
          code: 1000004,
          raised_at: start + i * H,
          released_at: start + i * H + 60_000,
        }),
      );
    }
    const earlier = {
      clearedIn: await insertAlarm(g.plantUid, { level: 2, raised_at: start - 5 * H, released_at: start + H }),
      clearedLater: await insertAlarm(g.plantUid, { level: 4, raised_at: start - 2 * H, released_at: end + H }),
      open: await insertAlarm(g.plantUid, { level: 4, device_uid: g.board, raised_at: start - 10 * DAY }),
    };
    // Not in the period: cleared before it began, raised after it ended.
    await insertAlarm(g.plantUid, { level: 3, raised_at: start - 3 * DAY, released_at: start - 1 });
    await insertAlarm(g.plantUid, { level: 3, raised_at: end, released_at: end + H });
    const q = (extra: string) => get(`/alarm?plant=${g.plantUid}&start=${first}&end=${last}${extra}`);
    const p1 = await q("&size=20");
    expect(p1.status).toBe(200);
    expect(p1.body.total).toBe(25);
    expect(p1.body.counts).toEqual({ "-1": 25, 1: 6, 2: 7, 3: 5, 4: 7 });
    const newestFirst = [...own].reverse();
    expect(p1.body.alarmList.map((a: { seq: number }) => a.seq)).toEqual(newestFirst.slice(0, 20));
    const p2 = await q("&size=20&page=2");
    expect(p2.body.alarmList.map((a: { seq: number }) => a.seq)).toEqual([
      ...newestFirst.slice(20),
      earlier.clearedLater,
      earlier.clearedIn,
      earlier.open,
    ]);
    expect(p2.body.alarmList[4]).toMatchObject({
      status: "active",
      deviceName: expect.any(String),
      plantName: expect.stringContaining("테스트 발전소"),
    });
    // A page that starts among the earlier ones, and one past the end.
    const lvl4 = await q("&level=4&size=20");
    expect(lvl4.body.total).toBe(7);
    expect(lvl4.body.alarmList.map((a: { seq: number }) => a.seq)).toEqual([
      ...newestFirst.filter((_, i) => (21 - i) % 4 === 3),
      earlier.clearedLater,
      earlier.open,
    ]);
    expect((await q("&size=20&page=3")).body.alarmList).toEqual([]);
    // States over the three parts.
    const seqs = (res: { body: { alarmList: Array<{ seq: number }> } }) =>
      res.body.alarmList.map((a) => a.seq).sort((x, y) => x - y);
    expect(seqs(await q("&status=active"))).toEqual([earlier.open]);
    expect((await q("&status=cleared&size=50")).body.total).toBe(24);
    // Today's list (the default period) holds the alarm open since ten days ago, not those cleared before today.
    expect(seqs(await get(`/alarm?plant=${g.plantUid}`))).toEqual([earlier.open]);
  });

  it("finds the member's plants and groups by name for the scope picker, and names the chosen ones", async () => {
    const tag = randomBytes(3).toString("hex");
    const g = await createGatewayFixture(store);
    const h = await createGatewayFixture(store);
    await store.db
      .updateTable("plant")
      .set({ name: `찾기 ${tag} 50%_발전소` })
      .where("uid", "=", g.plantUid)
      .execute();
    await store.db
      .updateTable("plant")
      .set({ name: `찾기 ${tag} 500 발전소` })
      .where("uid", "=", h.plantUid)
      .execute();
    const m = await otherNodeMember();
    await store.db
      .updateTable("node")
      .set({ name: `찾기 ${tag} 그룹` })
      .where("seq", "=", m.node)
      .execute();
    const scope = (query: string, token = admin) => get(`/alarm/scope?${query}`, token);
    // LIKE's wildcards are plain characters here; case does not matter.
    const literal = await scope(`q=${encodeURIComponent(`${tag} 50%_`)}`);
    expect(literal.status).toBe(200);
    expect(literal.body.matches).toEqual({
      plants: [{ uid: g.plantUid, name: `찾기 ${tag} 50%_발전소` }],
      groups: [],
      more: false,
    });
    const both = await scope(`q=${encodeURIComponent(`찾기 ${tag.toUpperCase()}`)}`);
    expect(both.body.matches.plants.map((p: { uid: string }) => p.uid).sort()).toEqual([g.plantUid, h.plantUid].sort());
    expect(both.body.matches.groups).toEqual([{ seq: m.node, name: `찾기 ${tag} 그룹` }]);
    // An exact name comes first; `more` says the limit cut the list.
    const exact = await scope(`q=${encodeURIComponent(`찾기 ${tag} 500 발전소`)}&limit=1`);
    expect(exact.body.matches).toMatchObject({ plants: [{ uid: h.plantUid }], more: false });
    const cut = await scope(`q=${encodeURIComponent(`찾기 ${tag}`)}&limit=1`);
    expect(cut.body.matches.plants).toHaveLength(1);
    expect(cut.body.matches.more).toBe(true);
    // The chosen plant and group by name, with the plant's devices.
    const chosen = await scope(`plant=${g.plantUid}&group=${m.node}`);
    expect(chosen.body.plant).toEqual({ uid: g.plantUid, name: `찾기 ${tag} 50%_발전소` });
    expect(chosen.body.group).toEqual({ seq: m.node, name: `찾기 ${tag} 그룹` });
    expect(chosen.body.devices.map((d: { uid: string }) => d.uid)).toEqual(expect.arrayContaining([...g.inverters, g.env]));
    expect(chosen.body.matches).toBeNull();
    // A member of another node finds only their own, and a foreign plant or group is not there for them.
    const theirs = await scope(`q=${encodeURIComponent(`찾기 ${tag}`)}`, m.token);
    expect(theirs.body.matches).toEqual({ plants: [], groups: [{ seq: m.node, name: `찾기 ${tag} 그룹` }], more: false });
    expect((await scope(`plant=${g.plantUid}`, m.token)).status).toBe(404);
    const root = await store.db
      .selectFrom("node")
      .select("seq")
      .where("parent_seq", "is", null)
      .orderBy("seq")
      .executeTakeFirstOrThrow();
    expect((await scope(`group=${root.seq}`, m.token)).status).toBe(404);
    expect((await scope(`q=${"x".repeat(101)}`)).status).toBe(400);
  });

  it("acknowledge with a note → cleared → raised again → active; the steps are audited", async () => {
    const g = await createGatewayFixture(store);
    const fault = (code: number) =>
      postReadings(server.baseUrl, g, [
        { device: g.inverters[0], ts: slot(0), values: inverter(code ? 0 : 30_000, { fault_code: code }) },
        { device: g.inverters[1], ts: slot(0), values: inverter(30_000) },
      ]);
    await fault(8);
    const alarm = await waitFor(async () =>
      (await get(`/alarm/unrelease?plant=${g.plantUid}`)).body.alarmList.find((a: { code: number }) => a.code === 1000006),
    );
    expect(alarm.status).toBe("active");
    const guest = (await apiClient(server.baseUrl).session("guest", "guest-demo-2026")).accessToken;
    expect((await post(`/alarm/${alarm.seq}/ack`, { note: "guest" }, guest)).status).toBe(403);
    expect((await post(`/alarm/${alarm.seq}/ack`, { note: "x".repeat(501) })).status).toBe(400);
    const acked = await post(`/alarm/${alarm.seq}/ack`, { note: "현장 확인 중" });
    expect(acked.status).toBe(200);
    expect(acked.body.alarm).toMatchObject({ status: "acknowledged", ack_by: "admin", ack_note: "현장 확인 중" });
    expect((await post(`/alarm/${alarm.seq}/ack`, {})).status).toBe(409);
    // The fault clears (a reading of the next step), then comes back.
    await postReadings(server.baseUrl, g, [{ device: g.inverters[0], ts: slot(0) + 1, values: inverter(30_000) }]);
    await store.db.updateTable("device_latest").set({ fault_code: 0 }).where("device_uid", "=", g.inverters[0]!).execute();
    await waitFor(async () => (await get(`/alarm/${alarm.seq}`)).body.alarm.status === "cleared");
    await store.db.updateTable("device_latest").set({ fault_code: 8 }).where("device_uid", "=", g.inverters[0]!).execute();
    const again = await waitFor(async () => {
      const a = (await get(`/alarm/${alarm.seq}`)).body;
      return a.alarm.status === "active" ? a : null;
    });
    expect(again.alarm).toMatchObject({ ack_by: null, ack_note: null, released_at: null });
    expect(again.events.map((e: { kind: string }) => e.kind)).toEqual(["raised", "acknowledged", "cleared", "reactivated"]);
    expect(again.events[1]).toMatchObject({ member_id: "admin", note: "현장 확인 중" });
  });

  it("the /alarm page shows an acknowledgement at once; each response has its own nonce, each member their own page", async () => {
    const g = await createGatewayFixture(store);
    const seq = await insertAlarm(g.plantUid, { level: 3, message: "memo" });
    const t = await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD);
    let cookie = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1`;
    const url = `${server.baseUrl}/alarm?plant=${g.plantUid}`;
    // Keep the CSRF cookie the first page sets, as a browser does.
    const first = await fetch(url, { headers: { cookie } });
    await first.text();
    for (const set of first.headers.getSetCookie()) cookie += `; ${set.split(";")[0]}`;
    const pageOf = async (cookie: string) => {
      const res = await fetch(url, { headers: { cookie, "accept-encoding": "br, gzip" } });
      expect(res.status).toBe(200);
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
      const html = await res.text();
      const csrf = /name="csrf"[^>]*value="([^"]+)"/.exec(html)?.[1];
      return { nonce: nonce!, html, csrf: csrf!, encoding: res.headers.get("content-encoding") };
    };
    const page = () => pageOf(cookie);
    const a = await page();
    const b = await page();
    // Each page rendered with the nonce of its own response (header and scripts alike), compressed as the client asks.
    expect(a.nonce).not.toBe(b.nonce);
    expect(b.encoding).toBe("br");
    expect(b.html).toContain(`nonce="${b.nonce}"`);
    expect(b.html).not.toContain(a.nonce);
    expect(b.html).toContain('class="alarm-active"');
    // Another member asking the same URL gets their own page: their own CSRF token and id, never the admin's.
    const other = await createMember(store);
    const o = await apiClient(server.baseUrl).session(other.id, other.password);
    let otherCookie = `accessToken=${o.accessToken}; refreshToken=${o.refreshToken}; sessionId=${o.sessionId}; NewAppOpenPop=1`;
    const otherFirst = await fetch(url, { headers: { cookie: otherCookie } });
    await otherFirst.text();
    for (const set of otherFirst.headers.getSetCookie()) otherCookie += `; ${set.split(";")[0]}`;
    for (const mine of [await pageOf(otherCookie), await pageOf(otherCookie)]) {
      expect(mine.csrf).toEqual(expect.any(String));
      expect(mine.csrf).not.toBe(b.csrf);
      expect(mine.html).not.toContain(b.csrf);
      expect(mine.html).not.toContain(b.nonce);
      expect(mine.html).toContain(other.id);
    }
    expect(b.html).not.toContain(other.id);
    const note = `memo-${randomBytes(3).toString("hex")}`;
    expect((await post(`/alarm/${seq}/ack`, { note })).status).toBe(200);
    // The list answer and the page are those of the acknowledged alarm at once (no stale answer, no stale page).
    const c = await page();
    expect(c.html).toContain('class="alarm-acknowledged"');
    expect(c.html).toContain(note);
    expect(c.html).not.toContain('class="alarm-active"');
  });

  it("answers a list asked again with the tag of the answer held as 304; a changed list, or another member's, in full", async () => {
    const g = await createGatewayFixture(store);
    const seq = await insertAlarm(g.plantUid, { level: 2, message: "tag" });
    // undici's request, as the portal asks: fetch adds "Cache-Control: no-cache" to a conditional request (Fetch
    // standard), which asks for the answer in full.
    const ask = async (path: string, token: string, etag?: string) => {
      const res = await request(`${server.baseUrl}/api${path}`, {
        headers: { authorization: `Bearer ${token}`, ...(etag ? { "if-none-match": etag } : {}) },
      });
      const text = await res.body.text();
      return {
        status: res.statusCode,
        etag: typeof res.headers.etag === "string" ? res.headers.etag : null,
        text: async () => text,
        json: async () => JSON.parse(text),
      };
    };
    const first = await ask(`/alarm?plant=${g.plantUid}`, admin);
    expect(first.status).toBe(200);
    expect((await first.json()).alarmList.map((a: { seq: number }) => a.seq)).toContain(seq);
    const etag = first.etag!;
    expect(etag).toMatch(/^"/);
    const again = await ask(`/alarm?plant=${g.plantUid}`, admin, etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const note = `tag-${randomBytes(3).toString("hex")}`;
    expect((await post(`/alarm/${seq}/ack`, { note })).status).toBe(200);
    const changed = await ask(`/alarm?plant=${g.plantUid}`, admin, etag);
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(etag);
    expect(JSON.stringify(await changed.json())).toContain(note);
    // A member of another node holding the admin's tags: their own list in full, never a 304 for the admin's.
    const other = await otherNodeMember();
    const fleet = await ask("/alarm", admin);
    const fleetTag = fleet.etag!;
    expect((await fleet.json()).alarmList.length).toBeGreaterThan(0);
    const theirs = await ask("/alarm", other.token, fleetTag);
    expect(theirs.status).toBe(200);
    expect((await theirs.json()).alarmList).toEqual([]);
    expect([403, 404]).toContain((await ask(`/alarm?plant=${g.plantUid}`, other.token, etag)).status);
  });

  it("migration 0015 turns the engine's old English sentences into codes with parameters, other text kept verbatim", async () => {
    const g = await createGatewayFixture(store);
    const since = Date.UTC(2026, 10, 26, 3, 4, 5);
    const legacy = {
      rtu: await insertAlarm(g.plantUid, {
        code: 1000003,
        level: 4,
        rtu_uid: g.rtuUid,
        message: `RTU ${g.rtuUid} silent since ${new Date(since).toISOString()}`,
      }),
      device: await insertAlarm(g.plantUid, { device_uid: g.inverters[0], message: `device ${g.inverters[0]} not answering` }),
      low: await insertAlarm(g.plantUid, {
        code: 1000004,
        level: 2,
        device_uid: g.inverters[1],
        message: "2.0 kW is 3 % of the reference 69.6 kW",
      }),
      wide: await insertAlarm(g.plantUid, {
        code: 1000006,
        level: 3,
        message: "plant-wide: all 2 inverters (fault 0x8)",
        released_at: Date.now(),
      }),
      other: await insertAlarm(g.plantUid, {
        code: 1000006,
        level: 3,
        fault_code: 8,
        message: "점검 중 수동 등록",
        released_at: Date.now(),
      }),
    };
    expect(await convertLegacyAlarmMessages(store.db)).toBeGreaterThanOrEqual(5);
    const of = async (seq: number) => (await get(`/alarm/${seq}`)).body.alarm;
    expect(await of(legacy.rtu)).toMatchObject({ messageCode: "rtu_silent", messageParams: { rtu: g.rtuUid, since } });
    expect((await of(legacy.rtu)).message).toBe(`RTU ${g.rtuUid}: ${formatSeoul(since)} 이후 수신 없음`);
    expect(await of(legacy.device)).toMatchObject({ messageCode: "device_silent", messageParams: { device: g.inverters[0] } });
    expect(await of(legacy.low)).toMatchObject({
      messageCode: "low_generation",
      messageParams: { actualKw: 2, ratio: 3, referenceKw: 69.6 },
      message: "2.0 kW, 기준 69.6 kW의 3%",
    });
    expect(await of(legacy.wide)).toMatchObject({
      messageCode: "plant_wide",
      messageParams: { of: "inverters", count: 2, detail: { code: "inverter_fault", params: { faultCode: 8 } } },
    });
    expect(await of(legacy.other)).toMatchObject({
      messageCode: "text",
      messageParams: { text: "점검 중 수동 등록" },
      message: "점검 중 수동 등록",
    });
    // Converted once: the rows have their code now, and a second run finds nothing of theirs.
    const codes = await store.db
      .selectFrom("alarm")
      .select(["seq", "message_code"])
      .where("seq", "in", Object.values(legacy))
      .execute();
    expect(codes.every((c) => c.message_code !== null)).toBe(true);
    expect(await convertLegacyAlarmMessages(store.db)).toBe(0);
  });

  it("waits out the raise delay, judges production alarms only in daylight, and raises one plant alarm for a plant-wide outage", async () => {
    // Plant-wide: every inverter faulted → one plant alarm, no device alarms.
    const whole = await createGatewayFixture(store, { inverters: 3 });
    await postReadings(
      server.baseUrl,
      whole,
      whole.inverters.map((d) => ({ device: d, ts: slot(0), values: inverter(0, { fault_code: 8 }) })),
    );
    const plantWide = await waitFor(async () => {
      const list = (await get(`/alarm/unrelease?plant=${whole.plantUid}`)).body.alarmList.filter(
        (a: { code: number }) => a.code === 1000006,
      );
      return list.length ? list : null;
    });
    expect(plantWide).toHaveLength(1);
    expect(plantWide[0]).toMatchObject({ code: 1000006, device_uid: null });
    // Stored as a code with parameters (migration 0015), not a sentence; `message` renders it in Korean.
    expect(plantWide[0]).toMatchObject({
      messageCode: "plant_wide",
      messageParams: { of: "inverters", count: 3, detail: { code: "inverter_fault", params: { faultCode: 8 } } },
    });
    expect(plantWide[0].message).toMatch(/^발전소 전체: 인버터 3대 모두 \(/);
    const stored = await store.db
      .selectFrom("alarm")
      .select(["message", "message_code", "message_params"])
      .where("seq", "=", plantWide[0].seq)
      .executeTakeFirstOrThrow();
    expect(stored.message).toBe("");
    expect(stored.message_code).toBe("plant_wide");
    expect(JSON.parse(stored.message_params!)).toEqual(plantWide[0].messageParams);
    // Daylight window: the same underperformance raises 1000004 by day, nothing by night.
    const day = await createGatewayFixture(store, { lat: 0, lng: longitudeAt(0), inverters: 2 });
    const night = await createGatewayFixture(store, { lat: 0, lng: longitudeAt(12), inverters: 2 });
    for (const g of [day, night]) {
      await postReadings(server.baseUrl, g, [
        { device: g.env, ts: slot(0), values: { his: 700, iis: 800, sts: 25, ats: 20 } },
        { device: g.inverters[0], ts: slot(0), values: inverter(1_000) },
        { device: g.inverters[1], ts: slot(0), values: inverter(40_000) },
      ]);
    }
    await waitFor(async () =>
      (await get(`/alarm/unrelease?plant=${day.plantUid}`)).body.alarmList.some((a: { code: number }) => a.code === 1000004),
    );
    expect(
      (await get(`/alarm/unrelease?plant=${night.plantUid}`)).body.alarmList.filter((a: { code: number }) => a.code === 1000004),
    ).toEqual([]);
    // Raise delay: with 30 minutes, a new fault is an incident, not an alarm, until it has lasted that long.
    const settings = await get("/settings");
    expect((await put("/settings/alarm", { ...settings.body.alarm, raiseDelayMinutes: 30 })).status).toBe(200);
    try {
      const late = await createGatewayFixture(store);
      await postReadings(server.baseUrl, late, [
        { device: late.inverters[0], ts: slot(0), values: inverter(0, { fault_code: 8 }) },
        { device: late.inverters[1], ts: slot(0), values: inverter(30_000) },
      ]);
      const incident = await waitFor(() =>
        store.db.selectFrom("alarm_incident").selectAll().where("plant_uid", "=", late.plantUid).executeTakeFirst(),
      );
      expect((await get(`/alarm/unrelease?plant=${late.plantUid}`)).body.alarmList).toEqual([]);
      // The incident has lasted 31 minutes (moved back in the store instead of waiting half an hour).
      await store.db
        .updateTable("alarm_incident")
        .set({ first_seen_at: Number(incident.first_seen_at) - 31 * 60_000 })
        .where("key", "=", incident.key)
        .execute();
      await waitFor(async () => (await get(`/alarm/unrelease?plant=${late.plantUid}`)).body.alarmList.length === 1);
    } finally {
      await put("/settings/alarm", { ...settings.body.alarm, raiseDelayMinutes: 0 });
    }
  });

  it("alerts the owner and the safety manager by mail and webhook, once per step; SMTP down → retried, none lost across a restart", async () => {
    const g = await createGatewayFixture(store);
    const emails = {
      owner: `owner-${randomBytes(3).toString("hex")}@example.kr`,
      safety: `safety-${randomBytes(3).toString("hex")}@example.kr`,
    };
    const owner = { ...(await createMember(store, { email: emails.owner })), email: emails.owner };
    const safety = { ...(await createMember(store, { email: emails.safety })), email: emails.safety };
    const ownerToken = (await apiClient(server.baseUrl).session(owner.id, owner.password)).accessToken;
    const pref = await put(
      "/alarm/notify/pref",
      { minLevel: 1, mail: true, webhook: true, webhookUrl: hook.url, quietFrom: "", quietTo: "", digest: false },
      ownerToken,
    );
    expect(pref.status).toBe(200);
    expect(pref.body).toMatchObject({ minLevel: 1, mail: true, webhook: true, webhookUrl: hook.url, email: owner.email });
    expect(
      (await put("/alarm/notify/pref", { minLevel: 9, mail: true, webhook: true, webhookUrl: "" }, ownerToken)).body.fields,
    ).toMatchObject({ minLevel: "unknown_level", webhookUrl: "required" });
    expect((await put(`/alarm/contacts/${g.plantUid}`, { owner: owner.id, safety: "nobody-here" })).status).toBe(400);
    // The safety manager reads their alerts in English (the owner in Korean, the default).
    const safetyToken = (await apiClient(server.baseUrl).session(safety.id, safety.password)).accessToken;
    const safetyPref = await put(
      "/alarm/notify/pref",
      { minLevel: 3, mail: true, webhook: false, digest: false, lang: "en" },
      safetyToken,
    );
    expect(safetyPref.body).toMatchObject({ lang: "en", mail: true });
    expect(pref.body.lang).toBe("ko");
    expect((await put("/alarm/notify/pref", { minLevel: 3, lang: "fr" }, safetyToken)).body.fields).toMatchObject({
      lang: "unknown_lang",
    });
    const contacts = await put(`/alarm/contacts/${g.plantUid}`, { owner: owner.id, safety: safety.id });
    expect(contacts.body).toMatchObject({ owner: { id: owner.id }, safety: { id: safety.id } });

    const mailsTo = (who: string) => mailbox.messages.filter((m) => m.to === who);
    // Every device reports; one inverter has a DC ground fault (level 4).
    await postReadings(server.baseUrl, g, groundFaultReadings(g));
    await waitFor(
      () =>
        mailsTo(owner.email!).length === 1 &&
        mailsTo(safety.email!).length === 1 &&
        hook.received.some((h) => h.body.text.includes(g.plantUid)),
      {
        ms: 15_000,
        failure: () => `mails ${JSON.stringify(mailbox.messages.map((m) => m.to))} hooks ${hook.received.length}`,
      },
    );
    expect(mailText(mailsTo(owner.email!)[0]!.raw)).toContain(`발전소: 테스트 발전소`);
    expect(mailText(mailsTo(owner.email!)[0]!.raw)).toContain(g.plantUid);
    expect(mailText(mailsTo(owner.email!)[0]!.raw)).toMatch(/내용: .*고장 코드 0x200/);
    expect(mailText(mailsTo(safety.email!)[0]!.raw)).toContain(`Plant: 테스트 발전소`);
    expect(mailText(mailsTo(safety.email!)[0]!.raw)).toMatch(/Details: .*fault code 0x200/i);

    // SMTP down: the clearing alert fails, is retried with backoff, and survives a restart of the server.
    await mailbox.down();
    await store.db
      .updateTable("device_latest")
      .set({ fault_code: 0, iw: 30_000 })
      .where("device_uid", "=", g.inverters[0]!)
      .execute();
    let outboxSeen: unknown[] = [];
    const pending = await waitFor(
      async () => {
        outboxSeen = await store.db
          .selectFrom("outbox")
          .select(["recipient", "status", "attempts", "last_error", "subject"])
          .execute();
        const rows = await store.db
          .selectFrom("outbox")
          .selectAll()
          .where("recipient", "in", [owner.email!, safety.email!])
          .where("status", "=", "pending")
          .execute();
        return rows.length === 2 && rows.every((r) => Number(r.attempts) >= 1) ? rows : null;
      },
      { ms: 15_000, failure: () => `outbox: ${JSON.stringify(outboxSeen)}` },
    );
    const failures = await store.db
      .selectFrom("outbox_attempt")
      .selectAll()
      .where(
        "outbox_seq",
        "in",
        pending.map((p) => p.seq),
      )
      .where("ok", "=", 0)
      .execute();
    expect(failures.length).toBeGreaterThanOrEqual(2);
    await store.close();
    await server.stop({ keepData: true });
    await mailbox.up();
    server = await startServer({
      store: kind,
      env: env(),
      timeoutMs: 110_000,
      reuse: { dataDir: server.dataDir, databaseUrl: server.databaseUrl },
    });
    store = await openTestStore(server.databaseUrl);
    admin = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
    await waitFor(() => mailsTo(owner.email!).length === 2 && mailsTo(safety.email!).length === 2, { ms: 20_000 });
    // A duplicate would be queued by a pass of the restarted engine and sent by the outbox: after two more passes
    // and with nothing left to send, count: exactly one mail per step and person.
    await alarmPasses(server.baseUrl);
    await waitFor(
      async () =>
        (
          await store.db
            .selectFrom("outbox")
            .select("seq")
            .where("recipient", "in", [owner.email!, safety.email!, hook.url])
            .where("status", "=", "pending")
            .execute()
        ).length === 0,
      { ms: 20_000 },
    );
    expect(mailsTo(owner.email!)).toHaveLength(2);
    expect(mailsTo(safety.email!)).toHaveLength(2);
    expect(hook.received.filter((h) => h.body.text.includes(g.plantUid))).toHaveLength(2);
    const log = await get("/alarm/notify/log");
    expect(log.status).toBe(200);
    expect(log.body.channels).toEqual(expect.arrayContaining(["mail", "webhook"]));
    expect(
      log.body.deliveryList.some(
        (d: { recipient: string; status: string; attempts: number }) =>
          d.recipient === owner.email && d.status === "sent" && d.attempts >= 2,
      ),
    ).toBe(true);
    expect((await get("/alarm/notify/log", ownerToken)).status).toBe(403);
  }, 90_000);

  it("issue 25: contacts must see the plant; a contact who no longer does is dropped at send time, logged with the reason; the log is scoped", async () => {
    const g = await createGatewayFixture(store);
    const email = `moved-${randomBytes(3).toString("hex")}@example.kr`;
    const foreign = await otherNodeMember();
    // Another group's member cannot be named (400 naming the member); nothing is stored.
    const refused = await put(`/alarm/contacts/${g.plantUid}`, { owner: foreign.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ fields: { owner: "member_cannot_see_plant" }, details: { member: [foreign.id] } });
    expect((await get(`/alarm/contacts/${g.plantUid}`)).body.owner).toBeNull();
    // A contact who sees the plant today…
    const contact = await createMember(store, { email });
    const contactToken = (await apiClient(server.baseUrl).session(contact.id, contact.password)).accessToken;
    expect(
      (await put("/alarm/notify/pref", { minLevel: 1, mail: true, webhook: false, digest: false }, contactToken)).status,
    ).toBe(200);
    expect((await put(`/alarm/contacts/${g.plantUid}`, { safety: contact.id })).status).toBe(200);
    // …is moved to a group that cannot see it; the next alarm's mail is not sent to them.
    await store.db.updateTable("member").set({ node_seq: foreign.node }).where("id", "=", contact.id).execute();
    await postReadings(server.baseUrl, g, groundFaultReadings(g));
    const dropped = await waitFor(
      async () =>
        (
          await store.db.selectFrom("outbox").selectAll().where("recipient", "=", email).where("status", "=", "dropped").execute()
        )[0] ?? null,
      { ms: 20_000, failure: () => "no dropped delivery" },
    );
    expect(dropped).toMatchObject({ plant_uid: g.plantUid, member_id: contact.id, last_error: "recipient_cannot_see_plant" });
    expect(mailbox.messages.filter((m) => m.to === email)).toHaveLength(0);
    const rootLog = await get("/alarm/notify/log?status=dropped");
    expect(rootLog.body.deliveryList).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ recipient: email, status: "dropped", last_error: "recipient_cannot_see_plant" }),
      ]),
    );
    // The log is scoped: a level-10 admin of another group sees none of this plant's deliveries, with or without status.
    const otherAdmin = await createMember(store, { node_seq: foreign.node, auth: 10 });
    const otherToken = (await apiClient(server.baseUrl).session(otherAdmin.id, otherAdmin.password)).accessToken;
    for (const q of ["", "?status=dropped", "?status=sent", "?status=pending"]) {
      const log = await get(`/alarm/notify/log${q}`, otherToken);
      expect(log.status).toBe(200);
      const subjects = log.body.deliveryList.map((d: { subject: string; recipient: string }) => `${d.subject} ${d.recipient}`);
      expect(subjects.filter((t: string) => t.includes("테스트 발전소") || t.includes("@example.kr"))).toEqual([]);
    }
  }, 60_000);

  describe("commands", () => {
    let gateway: mqtt.MqttClient;
    let mode: "ok" | "fail" | "silent" = "ok";
    let g: GatewayFixture;
    beforeAll(async () => {
      g = await createGatewayFixture(store);
      gateway = await mqtt.connectAsync(MQTT_URL, { clientId: `gw-${randomBytes(4).toString("hex")}` });
      await gateway.subscribeAsync(`${prefix}/${g.rtuUid}/command`, { qos: 1 });
      gateway.on("message", (_topic, payload) => {
        const cmd = JSON.parse(payload.toString());
        if (mode === "silent") return;
        const answer =
          mode === "ok"
            ? { seq: cmd.seq, ok: true, state: cmd.action === "on" ? 1 : 0, message: "done" }
            : { seq: cmd.seq, ok: false, message: "interlock" };
        void gateway.publishAsync(`${prefix}/${g.rtuUid}/command/result`, JSON.stringify(answer), { qos: 1 });
      });
    });
    afterAll(async () => {
      await gateway?.endAsync();
    });

    it("records acknowledged, failed and timed-out commands and lists them on the control call", async () => {
      const send = (hex: { hexOn?: string; hexOff?: string }, device = g.inverters[0]!, deviceType = 1) =>
        post("/command/hex", { deviceType, rtuUid: g.rtuUid, deviceUid: device, ch: 0, ...hex });
      mode = "ok";
      const ok = await send({ hexOff: "0x0000" });
      expect(ok.body).toMatchObject({ status: "done", ok: true, state: 0 });
      mode = "fail";
      const failed = await send({ hexOff: "0x0000" }, g.vcb, 7);
      expect(failed.body).toMatchObject({ status: "failed", ok: false, message: "interlock" });
      mode = "silent";
      const timedOut = await send({ hexOn: "0x0001" }, g.acb, 8);
      expect(timedOut.body).toMatchObject({ status: "timeout", ok: false });
      const sent = await get(`/command/${ok.body.seq}`);
      expect(sent.body).toMatchObject({
        seq: ok.body.seq,
        status: "done",
        action: "off",
        requested_by: "admin",
        plant_uid: g.plantUid,
      });
      // Names in natural order, as on every list: 인버터 2 before 인버터 10.
      await store.db.updateTable("device").set({ name: "인버터 10" }).where("uid", "=", g.inverters[0]!).execute();
      const control = await get(`/pvstatus/control?plant=${g.plantUid}`);
      expect(control.status).toBe(200);
      const devices = control.body.plants[0].devices;
      expect(devices.map((d: { kind: number }) => d.kind)).toEqual([1, 1, 7, 8]);
      expect(devices.slice(0, 2).map((d: { name: string }) => d.name)).toEqual(["인버터 2", "인버터 10"]);
      // Issue 26 point 5: the state is the newest reading's, never the command's word; no reading yet, no state.
      expect(devices.find((d: { uid: string }) => d.uid === g.inverters[0])).toMatchObject({
        state: null,
        readingAt: null,
        lastCommand: { status: "done" },
        operable: true,
      });
      expect(control.body).toMatchObject({ total: 4, page: 1, size: 20 });
      // Issue 26 point 10: a page, a name search, the kind, one device; a bad page is a 400 with its field.
      const paged = await get(`/pvstatus/control?plant=${g.plantUid}&size=3&page=2`);
      expect(paged.body).toMatchObject({ total: 4, page: 2, size: 3 });
      expect(paged.body.plants[0].devices.map((d: { kind: number }) => d.kind)).toEqual([8]);
      const named = await get(`/pvstatus/control?plant=${g.plantUid}&q=${encodeURIComponent("인버터 1")}`);
      expect(named.body.plants[0].devices.map((d: { name: string }) => d.name)).toEqual(["인버터 10"]);
      const breakers = await get(`/pvstatus/control?plant=${g.plantUid}&kind=breaker`);
      expect(breakers.body.plants[0].devices.map((d: { kind: number }) => d.kind)).toEqual([7, 8]);
      const one = await get(`/pvstatus/control?device=${g.vcb}`);
      expect(one.body.total).toBe(1);
      const bad = await get(`/pvstatus/control?page=0`);
      expect(bad.status).toBe(400);
      expect((await get(`/pvstatus/control?group=999999999`)).status).toBe(404);
      expect(control.body.commandList.slice(0, 3).map((c: { status: string }) => c.status)).toEqual([
        "timeout",
        "failed",
        "done",
      ]);
      expect((await get("/pvstatus/control?plant=NOPE")).status).toBe(404);
      // The plant's card says so too: the inverter's command (done) and the ACB's (no answer) wait for a reading, the
      // refused VCB command does not; a reading of the inverter that arrives after its command ends its wait.
      const card = async () =>
        (
          await apiClient(server.baseUrl).call("POST", "/pvstatus/group", {
            token: admin,
            json: { type: "plant", uid: g.plantUid },
          })
        ).body.list[0].awaitingDevices as number;
      expect(await card()).toBe(2);
      const read = await postReadings(server.baseUrl, g, [
        { device: g.inverters[0]!, ts: slot(0), values: { iw: 1_000, today_wh: 10, total_wh: 1_000_010 } },
      ]);
      expect(read.status).toBe(200);
      expect(await pollUntil(card, (n) => n === 1)).toBe(1);
      mode = "ok";
    });

    it("issue 25: a replayed confirmation (same Idempotency-Key) runs nothing and answers the first outcome", async () => {
      mode = "ok";
      const seen: number[] = [];
      const onMessage = (_t: string, payload: Buffer) => seen.push(JSON.parse(payload.toString()).seq);
      gateway.on("message", onMessage);
      try {
        const body = { deviceType: 7, rtuUid: g.rtuUid, deviceUid: g.vcb, ch: 0, hexOn: "0x0001" };
        const key = `confirm-${randomBytes(8).toString("hex")}`;
        const call = (json: unknown, k = key) =>
          apiClient(server.baseUrl).call("POST", "/command/hex", { token: admin, json, headers: { "idempotency-key": k } });
        const before = await store.db
          .selectFrom("command")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        const first = await call(body);
        expect(first.body).toMatchObject({ status: "done", ok: true });
        expect(first.body.replayed).toBeUndefined();
        for (let i = 0; i < 3; i++) {
          const again = await call(body);
          expect(again.status).toBe(200);
          expect(again.body).toMatchObject({
            seq: first.body.seq,
            status: "done",
            replayed: true,
            requested_at: first.body.requested_at,
          });
        }
        const after = await store.db
          .selectFrom("command")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        expect(Number(after.n) - Number(before.n)).toBe(1);
        expect(seen).toEqual([first.body.seq]);
        // The same key for another action is refused; a malformed key is a 400 naming the header.
        expect((await call({ ...body, hexOn: undefined, hexOff: "0x0000" })).status).toBe(409);
        const bad = await call(body, "x".repeat(201));
        expect([bad.status, bad.body.fields]).toEqual([400, { "Idempotency-Key": "invalid" }]);
        // Without a key every call is a command of its own (as before).
        const plain = await post("/command/hex", body);
        expect(plain.body.seq).not.toBe(first.body.seq);
      } finally {
        gateway.off("message", onMessage);
      }
    });

    it("issue 25: the /control confirmation posted again runs nothing and says when it was already sent", async () => {
      mode = "ok";
      const t = await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD);
      let cookie = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1`;
      const confirmUrl = `${server.baseUrl}/control?plant=${g.plantUid}&device=${g.acb}&do=on`;
      const page = await fetch(confirmUrl, { headers: { cookie } });
      const html = await page.text();
      for (const set of page.headers.getSetCookie()) cookie += `; ${set.split(";")[0]}`;
      const csrf = /name="csrf"[^>]*value="([^"]+)"/.exec(html)?.[1];
      const once = /name="once"[^>]*value="([^"]+)"/.exec(html)?.[1];
      expect(csrf && once, html.slice(0, 500)).toBeTruthy();
      const form = new URLSearchParams({
        csrf: csrf!,
        plant: g.plantUid,
        deviceUid: g.acb,
        action: "on",
        once: once!,
        intent: "command",
      });
      const count = async () =>
        Number(
          (
            await store.db
              .selectFrom("command")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .where("device_uid", "=", g.acb)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const flashes: string[] = [];
      for (let i = 0; i < 3; i++) {
        const post = await fetch(confirmUrl, {
          method: "POST",
          redirect: "manual",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: form,
        });
        expect(post.status).toBe(302);
        const flash = post.headers.getSetCookie().find((c) => c.startsWith("flash="))!;
        const shown = await fetch(new URL(post.headers.get("location")!, server.baseUrl), {
          headers: { cookie: `${cookie}; ${flash.split(";")[0]}` },
        });
        flashes.push(await shown.text());
      }
      expect(await count()).toBe(before + 1);
      expect(flashes[0]).not.toContain("이미");
      const seq = (
        await store.db
          .selectFrom("command")
          .select("seq")
          .where("device_uid", "=", g.acb)
          .orderBy("seq", "desc")
          .executeTakeFirstOrThrow()
      ).seq;
      for (const later of flashes.slice(1))
        expect(later).toMatch(new RegExp(`이미 \\d{2}:\\d{2}:\\d{2}에 보낸 명령입니다 \\(#${seq}`));
    });

    it("refuses without the control bit, inverters without deviceOperation, and foreign devices", async () => {
      const body = (device: string, deviceType: number) => ({
        deviceType,
        rtuUid: g.rtuUid,
        deviceUid: device,
        ch: 0,
        hexOff: "0x0000",
      });
      const noControl = await createMember(store, { service: 0xffff & ~(1 << SERVICE_BITS.control) });
      const t1 = (await apiClient(server.baseUrl).session(noControl.id, noControl.password)).accessToken;
      expect((await post("/command/hex", body(g.vcb, 7), t1)).status).toBe(403);
      expect((await get("/pvstatus/control", t1)).status).toBe(403);
      const noOperation = await createMember(store, { service: 0xffff & ~(1 << SERVICE_BITS.deviceOperation) });
      const t2 = (await apiClient(server.baseUrl).session(noOperation.id, noOperation.password)).accessToken;
      expect((await post("/command/hex", body(g.inverters[0]!, 1), t2)).status).toBe(403);
      expect((await post("/command/hex", body(g.vcb, 7), t2)).body.status).toBe("done");
      const foreign = await otherNodeMember();
      expect((await post("/command/hex", body(g.vcb, 7), foreign.token)).status).toBe(404);
      const seen = await get("/pvstatus/control", foreign.token);
      expect(seen.body.plants.some((p: { plant_uid: string }) => p.plant_uid === g.plantUid)).toBe(false);
      expect((await get(`/pvstatus/control?plant=${g.plantUid}`, foreign.token)).status).toBe(404);
      const last = (await get(`/command?plant=${g.plantUid}`)).body.commandList[0];
      expect((await get(`/command/${last.seq}`, foreign.token)).status).toBe(404);
      expect((await post("/command/hex", { ...body(g.vcb, 7), deviceType: 8 })).status).toBe(400);
    });
  });
});

/**
 * The simulator obeys commands through the normal data path: its readings go through the ingest into
 * device_latest, which the control and status calls read. An inverter switched off produces nothing until it is
 * switched on; a tripped breaker takes its plant's output to zero and reports itself open.
 */
describe("the simulated gateways carry commands out", () => {
  it("inverter off → zero output until on; breaker trip → the plant's output is zero and the breaker open", async () => {
    const { openStore } = await import("../../api/store/db");
    const { seedFoundation } = await import("../../api/store/seed");
    const { demoFleet, seedDemoFleet } = await import("../../api/sim/fleet");
    const { GatewayEmulator } = await import("../../api/sim/gateway-emulator");
    const { IngestService } = await import("../../api/telemetry/ingest");
    const store = await openStore("file::memory:");
    try {
      await seedFoundation(store, { adminPassword: "admin1234!" });
      await seedDemoFleet(store, demoFleet(1));
      // Noon in Korea on a clear June day: every inverter produces.
      let now = Date.parse("2026-06-15T03:00:00Z");
      const clock = { now: () => now, speed: 1 };
      const sim = new GatewayEmulator(store, new IngestService(store, clock), clock, { historyDays: 0, faultIntensity: 0 });
      expect(await sim.load()).toBe(1);
      await sim.catchUp();
      const devices = await store.db
        .selectFrom("device")
        .select(["uid", "rtu_uid", "kind", "plant_uid"])
        .where("kind", "in", [1, 7, 8])
        .orderBy("uid")
        .execute();
      const inverters = devices.filter((d) => d.kind === 1);
      const vcb = devices.find((d) => d.kind === 7 || d.kind === 8)!;
      expect(vcb).toBeDefined();
      expect(inverters.length).toBeGreaterThan(1);
      const latest = async () =>
        new Map(
          (await store.db.selectFrom("device_latest").select(["device_uid", "iw", "state", "ts"]).execute()).map((r) => [
            r.device_uid,
            r,
          ]),
        );
      const step = async () => {
        now += 600_000;
        await sim.catchUp();
      };
      const send = (d: { uid: string; rtu_uid: string | null; kind: number }, action: "on" | "off") =>
        sim.deliver({
          seq: 1,
          rtuUid: d.rtu_uid!,
          deviceUid: d.uid,
          deviceType: d.kind,
          ch: 0,
          action,
          hex: action === "on" ? "0x0001" : "0x0000",
        });

      let l = await latest();
      for (const inv of inverters) expect(Number(l.get(inv.uid)?.iw)).toBeGreaterThan(0);

      expect(await send(inverters[0]!, "off")).toMatchObject({ ok: true, state: 0 });
      await step();
      await step();
      l = await latest();
      expect(Number(l.get(inverters[0]!.uid)?.iw)).toBe(0);
      expect(Number(l.get(inverters[1]!.uid)?.iw)).toBeGreaterThan(0);

      await send(inverters[0]!, "on");
      await step();
      l = await latest();
      expect(Number(l.get(inverters[0]!.uid)?.iw)).toBeGreaterThan(0);

      expect(await send(vcb, "off")).toMatchObject({ ok: true, state: 0 });
      await step();
      l = await latest();
      for (const inv of inverters) expect(Number(l.get(inv.uid)?.iw)).toBe(0);
      expect(Number(l.get(vcb.uid)?.state)).toBe(0);

      await send(vcb, "on");
      await step();
      l = await latest();
      expect(Number(l.get(vcb.uid)?.state)).toBe(1);
      for (const inv of inverters) expect(Number(l.get(inv.uid)?.iw)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 120_000);
});
