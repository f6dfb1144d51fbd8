/**
 * Issue 29 §2 against a real server on both stores, mails to a REAL SMTP server (tests/helpers/mailbox.ts):
 * - an escalation ladder fires in order (operator at once, safety manager after 15 min, owner after 60 min), each
 *   step exactly once — also when a second and a third engine (a restart, another server) judge the same store
 *   later, on a clock moved forward — and stops at acknowledgement; bad ladders answer 400 with field errors;
 * - the alarm mail carries the link to the alarm (/alarm/<seq>);
 * - auto-close: an open alarm whose condition was not seen for the configured time is cleared by itself, marked so;
 * - flapping: an alarm that comes back more than N times an hour stays one alarm with a count, without N mails.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AlarmEngine } from "../../api/telemetry/alarm-engine";
import { escalateAlarms } from "../../api/telemetry/alarm-escalation";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { STORES, apiClient } from "../helpers/http";
import { Mailbox, decodedHeader, mailText } from "../helpers/mailbox";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, groundFaultReadings, postReadings } from "../helpers/telemetry";
import { alarmPasses, waitFor } from "../helpers/wait";

const MIN = 60_000;

const groundFault = groundFaultReadings;

describe.each(STORES)("alarm escalation, auto-close and flapping on %s", (kind) => {
  let server: TestServer;
  let store: Store;
  let mailbox: Mailbox;
  let admin: string;

  beforeAll(async () => {
    mailbox = new Mailbox(await freePort());
    await mailbox.up();
    server = await startServer({
      store: kind,
      env: {
        ALARM_INTERVAL_MS: "300",
        SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
        MAIL_FROM: "Portal <alerts@portal.test>",
        OUTBOX_RETRY_MS: "300",
        PORTAL_WORKERS: "0",
      },
      timeoutMs: 110_000,
    });
    store = await openTestStore(server.databaseUrl);
    admin = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
    await mailbox?.down();
  });

  const call = (method: string, path: string, json?: unknown, token = admin) =>
    apiClient(server.baseUrl).call(method, path, { token, json });
  const mailsTo = (who: string) => mailbox.messages.filter((m) => m.to === who);

  /** A plant with an operator, a safety manager and an owner, each with an e-mail address. */
  async function staffedPlant() {
    const g = await createGatewayFixture(store);
    const staff: Record<"operator" | "safety" | "owner", { id: string; email: string }> = {} as never;
    for (const role of ["operator", "safety", "owner"] as const) {
      const email = `${role}-${randomBytes(3).toString("hex")}@example.kr`;
      staff[role] = { id: (await createMember(store, { email })).id, email };
    }
    const contacts = await call("PUT", `/alarm/contacts/${g.plantUid}`, {
      owner: staff.owner.id,
      safety: staff.safety.id,
      operator: staff.operator.id,
    });
    expect(contacts.status, contacts.text).toBe(200);
    expect(contacts.body.operator).toMatchObject({ id: staff.operator.id });
    return { g, staff };
  }

  async function openAlarmOf(plant: string) {
    return waitFor(
      () =>
        store.db
          .selectFrom("alarm")
          .selectAll()
          .where("plant_uid", "=", plant)
          .where("code", "=", 1000006)
          .where("released_at", "is", null)
          .executeTakeFirst(),
      { ms: 15_000 },
    );
  }

  const ladderRows = async (seq: number) =>
    (
      await store.db
        .selectFrom("alarm_escalation")
        .select(["step", "active_since"])
        .where("alarm_seq", "=", seq)
        .orderBy("step")
        .execute()
    ).map((r) => Number(r.step));

  const ladderMessages = async (seq: number) =>
    store.db
      .selectFrom("outbox")
      .select(["recipient", "dedupe_key"])
      .where("dedupe_key", "like", `alarm-ladder:${seq}:%`)
      .execute();

  /** An engine as a second server (or this one after a restart) runs it: the same store, its own clock. */
  const engineAt = (at: () => number) =>
    new AlarmEngine(store, { now: at, speed: 1 }, () => undefined, 0, "https://portal.example.kr");

  it("validates a ladder, answers where a plant's ladder comes from, and saves one per plant or group", async () => {
    const { g } = await staffedPlant();
    const before = await call("GET", `/alarm/ladder?plant=${g.plantUid}`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ own: false, from: null });
    expect(before.body.steps.map((s: { afterMinutes: number }) => s.afterMinutes)).toEqual([0, 15, 60]);
    const bad = await call("PUT", `/alarm/ladder?plant=${g.plantUid}`, {
      steps: [
        { afterMinutes: 10, roles: ["owner"] },
        { afterMinutes: 5, roles: ["safety"] },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ "steps.1.afterMinutes": "not_after_previous" });
    const bad2 = await call("PUT", `/alarm/ladder?plant=${g.plantUid}`, { steps: [{ afterMinutes: -1, roles: [] }] });
    expect(bad2.body.fields).toMatchObject({ "steps.0.afterMinutes": "too_small", "steps.0.roles": "no_role" });
    expect((await call("GET", "/alarm/ladder")).status).toBe(400);
    expect((await call("GET", "/alarm/ladder?plant=no-such-plant")).status).toBe(404);
    // A group's ladder applies to its plants without their own.
    const plant = await store.db.selectFrom("plant").select("node_seq").where("uid", "=", g.plantUid).executeTakeFirstOrThrow();
    const group = Number(plant.node_seq);
    const put = await call("PUT", `/alarm/ladder?group=${group}`, { steps: [{ afterMinutes: 0, roles: ["owner", "operator"] }] });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ own: true, steps: [{ afterMinutes: 0, roles: ["operator", "owner"] }] });
    expect((await call("GET", `/alarm/ladder?plant=${g.plantUid}`)).body).toMatchObject({ own: false, from: { group } });
    expect((await call("DELETE", `/alarm/ladder?group=${group}`)).body).toMatchObject({ own: false });
  });

  it("fires the ladder in order, each step once across a restart and a second engine, and stops at acknowledgement", async () => {
    const one = await staffedPlant();
    const two = await staffedPlant();
    for (const p of [one, two]) {
      const saved = await call("PUT", `/alarm/ladder?plant=${p.g.plantUid}`, {
        steps: [
          { afterMinutes: 0, roles: ["operator"] },
          { afterMinutes: 15, roles: ["safety"] },
          { afterMinutes: 60, roles: ["owner"] },
        ],
      });
      expect(saved.status, saved.text).toBe(200);
      await postReadings(server.baseUrl, p.g, groundFault(p.g));
    }
    const a1 = await openAlarmOf(one.g.plantUid);
    const a2 = await openAlarmOf(two.g.plantUid);
    const seq1 = Number(a1.seq);
    const seq2 = Number(a2.seq);
    // Step 1 at once, by this server's engine: the operator only, with the link to the alarm.
    await waitFor(() => mailsTo(one.staff.operator.email).length === 1 && mailsTo(two.staff.operator.email).length === 1, {
      ms: 15_000,
      failure: () => JSON.stringify(mailbox.messages.map((m) => [m.to, m.subject])),
    });
    const first = mailText(mailsTo(one.staff.operator.email)[0]!.raw);
    expect(first).toMatch(new RegExp(`확인·조치: http://[^\\s]+/alarm/${seq1}\\b`));
    expect(decodedHeader(mailsTo(one.staff.operator.email)[0]!.subject)).toContain("[발생]");
    expect(mailsTo(one.staff.safety.email)).toHaveLength(0);
    expect(mailsTo(one.staff.owner.email)).toHaveLength(0);

    // The second plant's alarm is acknowledged (from its page's API call) before its second step is due.
    expect((await call("POST", `/alarm/${seq2}/ack`, { note: "현장 확인 중" })).status).toBe(200);

    // 16 minutes later, as a second engine sees it (this server's engine keeps running on the wall clock).
    const since1 = Number(a1.active_since);
    const second = engineAt(() => since1 + 16 * MIN);
    second.notePlants([one.g.plantUid, two.g.plantUid]);
    await second.evaluate();
    await waitFor(() => mailsTo(one.staff.safety.email).length === 1, { ms: 15_000 });
    expect(decodedHeader(mailsTo(one.staff.safety.email)[0]!.subject)).toContain("[미확인 2단계]");
    expect(await ladderRows(seq1)).toEqual([0, 1]);
    // The same engine again and a third (a restart): nothing more.
    await second.evaluate("fleet");
    const third = engineAt(() => since1 + 16 * MIN);
    await third.evaluate("fleet");
    expect(await ladderRows(seq1)).toEqual([0, 1]);

    // An hour on: the owner of the first plant; nothing for the acknowledged second.
    const hourOn = since1 + 61 * MIN;
    expect((await escalateAlarms(store, hourOn, [[one.g.plantUid, two.g.plantUid]])).steps).toBe(1);
    expect((await escalateAlarms(store, hourOn, [[one.g.plantUid, two.g.plantUid]])).steps).toBe(0);
    await waitFor(() => mailsTo(one.staff.owner.email).length === 1, { ms: 15_000 });
    expect(await ladderRows(seq1)).toEqual([0, 1, 2]);
    expect(await ladderRows(seq2)).toEqual([0]);
    // One outbox message per step and recipient; the order the steps were delivered in.
    const messages = await ladderMessages(seq1);
    expect(messages.map((m) => m.recipient).sort()).toEqual(
      [one.staff.operator.email, one.staff.safety.email, one.staff.owner.email].sort(),
    );
    const sent = mailbox.messages.filter((m) => Object.values(one.staff).some((s) => s.email === m.to)).map((m) => m.to);
    expect(sent).toEqual([one.staff.operator.email, one.staff.safety.email, one.staff.owner.email]);
    expect(mailsTo(two.staff.safety.email)).toHaveLength(0);
    expect(mailsTo(two.staff.owner.email)).toHaveLength(0);
  });

  it("auto-clears an alarm whose condition was not seen for the configured time, marked as such", async () => {
    const settings = await call("GET", "/settings");
    expect((await call("PUT", "/settings/alarm", { ...settings.body.alarm, autoCloseMinutes: 30 })).status).toBe(200);
    try {
      // Its devices never reported: the engine cannot judge the condition now (it stays open on its own).
      const g = await createGatewayFixture(store);
      const now = Date.now();
      const insert = (lastSeen: number, device: string) =>
        store.db
          .insertInto("alarm")
          .values({
            plant_uid: g.plantUid,
            rtu_uid: g.rtuUid,
            device_uid: device,
            code: 1000001,
            level: 3,
            fault_code: null,
            message: "fixture",
            raised_at: now - 2 * 3_600_000,
            released_at: null,
            active_since: now - 2 * 3_600_000,
            last_seen_at: lastSeen,
          })
          .returning("seq")
          .executeTakeFirstOrThrow();
      const stale = Number((await insert(now - 31 * MIN, g.board)).seq);
      const recent = Number((await insert(now - 5 * MIN, g.env)).seq);
      const row = await waitFor(
        () =>
          store.db
            .selectFrom("alarm")
            .selectAll()
            .where("seq", "=", stale)
            .where("released_at", "is not", null)
            .executeTakeFirst(),
        { ms: 15_000 },
      );
      expect(Number(row.auto_cleared)).toBe(1);
      const one = await call("GET", `/alarm/${stale}`);
      expect(one.body.alarm).toMatchObject({ status: "cleared", autoCleared: true });
      expect(one.body.events.map((e: { kind: string }) => e.kind)).toContain("auto_cleared");
      await alarmPasses(server.baseUrl, 2);
      const other = await call("GET", `/alarm/${recent}`);
      expect(other.body.alarm).toMatchObject({ status: "active", autoCleared: false });
    } finally {
      await call("PUT", "/settings/alarm", { ...settings.body.alarm, autoCloseMinutes: 0 });
    }
  });

  it("a flapping alarm is one alarm with a count, not one mail per return", async () => {
    const settings = await call("GET", "/settings");
    expect((await call("PUT", "/settings/alarm", { ...settings.body.alarm, flapMaxPerHour: 2 })).status).toBe(200);
    try {
      const { g, staff } = await staffedPlant();
      await call("PUT", `/alarm/ladder?plant=${g.plantUid}`, { steps: [{ afterMinutes: 0, roles: ["operator"] }] });
      await postReadings(server.baseUrl, g, groundFault(g));
      const seq = Number((await openAlarmOf(g.plantUid)).seq);
      const setFault = (fault: number) =>
        store.db
          .updateTable("device_latest")
          .set({ fault_code: fault, iw: fault ? 0 : 30_000 })
          .where("device_uid", "=", g.inverters[0]!)
          .execute();
      const state = async () =>
        store.db.selectFrom("alarm").select(["released_at", "toggles"]).where("seq", "=", seq).executeTakeFirstOrThrow();
      // Cleared and back four times: the fourth and later returns exceed 2 an hour.
      for (let i = 1; i <= 4; i++) {
        await setFault(0);
        await waitFor(async () => (await state()).released_at !== null, { ms: 15_000 });
        await setFault(512);
        await waitFor(async () => (await state()).released_at === null && Number((await state()).toggles) === i, { ms: 15_000 });
      }
      const alarms = await store.db
        .selectFrom("alarm")
        .select("seq")
        .where("plant_uid", "=", g.plantUid)
        .where("code", "=", 1000006)
        .execute();
      expect(alarms.map((a) => Number(a.seq))).toEqual([seq]);
      const one = await call("GET", `/alarm/${seq}`);
      expect(one.body.alarm).toMatchObject({ toggles: 4, status: "active" });
      // Mailed: the raise, returns 1 and 2, clears 1–3 (the third clear came after two returns: not yet flapping);
      // not: the third and fourth return, the fourth clear.
      await alarmPasses(server.baseUrl, 3);
      const outbox = await store.db
        .selectFrom("outbox")
        .select("subject")
        .where("recipient", "=", staff.operator.email)
        .execute();
      expect(outbox.length).toBe(6);
      await waitFor(() => mailsTo(staff.operator.email).length === 6, { ms: 15_000 });
      const events = await store.db.selectFrom("alarm_event").select(["kind", "note"]).where("alarm_seq", "=", seq).execute();
      expect(events.filter((e) => e.note === "flapping").length).toBe(3);
    } finally {
      await call("PUT", "/settings/alarm", { ...settings.body.alarm, flapMaxPerHour: 3 });
    }
  });
});
