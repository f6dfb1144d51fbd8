/**
 * Issue 29 §2, per-member routing against a real server on both stores, mails to a REAL SMTP server
 * (tests/helpers/mailbox.ts): a member routed to plant A only gets A's alarm mail, not B's (both plants have them as
 * a contact); quiet hours hold a level-2 alarm's mail but a level-4 (severe) one goes at once. The alarms' first
 * ladder step is enqueued by the escalation pass (as a second engine would run it), delivered by the server's outbox.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minutesToHhmm } from "../../domain/alert-policy";
import { formatSeoul } from "../../domain/seoul-clock";
import { escalateAlarms } from "../../api/telemetry/alarm-escalation";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { STORES, apiClient } from "../helpers/http";
import { Mailbox, mailText } from "../helpers/mailbox";
import { ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture } from "../helpers/telemetry";
import { pollUntil, waitFor } from "../helpers/wait";

describe.each(STORES)("per-member alert routing on %s", (kind) => {
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
        // The engine stays out of the way: the test runs the escalation pass itself.
        ALARM_INTERVAL_MS: "3600000",
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
  /** The texts of the mails a recipient got (a mail names its plant's uid in its text). */
  const mailsTo = (who: string) => mailbox.messages.filter((m) => m.to === who).map((m) => mailText(m.raw));

  /** A member with an e-mail, the operator (the default ladder's first step) of these plants, logged in. */
  async function operatorOf(plants: string[]) {
    const email = `op-${randomBytes(3).toString("hex")}@example.kr`;
    const m = await createMember(store, { email });
    for (const p of plants)
      expect((await call("PUT", `/alarm/contacts/${p}`, { owner: null, safety: null, operator: m.id })).status).toBe(200);
    const token = (await apiClient(server.baseUrl).session(m.id, m.password)).accessToken;
    return { id: m.id, email, token };
  }

  async function raise(plantUid: string, level: number, code: number) {
    const now = Date.now();
    const row = await store.db
      .insertInto("alarm")
      .values({
        plant_uid: plantUid,
        rtu_uid: null,
        device_uid: null,
        code,
        level,
        fault_code: null,
        message: "test",
        raised_at: now,
        active_since: now,
        last_seen_at: now,
      })
      .returning("seq")
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }
  const plantName = async (uid: string) =>
    (await store.db.selectFrom("plant").select("name").where("uid", "=", uid).executeTakeFirstOrThrow()).name;

  it("saves routes with field errors for what the member cannot route", async () => {
    const a = await createGatewayFixture(store);
    const m = await operatorOf([a.plantUid]);
    const bad = await call(
      "PUT",
      "/alarm/notify/routes",
      { routes: [{ plant: "no-such", minLevel: 1, mail: true, webhook: true }] },
      m.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ "routes.0.plant": "unknown_plant", "routes.0.webhook": "no_webhook_url" });
    const both = await call(
      "PUT",
      "/alarm/notify/routes",
      { routes: [{ plant: a.plantUid, group: 1, minLevel: 9, mail: false, webhook: false }] },
      m.token,
    );
    expect(both.body.fields).toMatchObject({
      "routes.0.group": "plant_or_group",
      "routes.0.minLevel": "too_large",
      "routes.0.mail": "no_channel",
    });
    const ok = await call(
      "PUT",
      "/alarm/notify/routes",
      { routes: [{ plant: a.plantUid, minLevel: 2, codes: [1000006, 1000006], mail: true, webhook: false }] },
      m.token,
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.routes).toEqual([
      {
        plant: a.plantUid,
        plantName: await plantName(a.plantUid),
        group: null,
        groupName: null,
        minLevel: 2,
        codes: [1000006],
        mail: true,
        webhook: false,
      },
    ]);
    expect((await call("GET", "/alarm/notify/routes", undefined, m.token)).body).toEqual(ok.body);
  });

  it("a member routed to plant A only gets A's alarm mail, not B's", async () => {
    const a = await createGatewayFixture(store);
    const b = await createGatewayFixture(store);
    const m = await operatorOf([a.plantUid, b.plantUid]);
    const routed = await call(
      "PUT",
      "/alarm/notify/routes",
      { routes: [{ plant: a.plantUid, minLevel: 1, mail: true, webhook: false }] },
      m.token,
    );
    expect(routed.status, routed.text).toBe(200);
    // A safety manager of both without routes gets both (B's alarm was mailed, just not to the routed member):
    // the first ladder step of these plants calls the operator and the safety manager.
    const other = await operatorOf([]);
    for (const p of [a.plantUid, b.plantUid]) {
      expect((await call("PUT", `/alarm/contacts/${p}`, { owner: null, safety: other.id })).status).toBe(200);
      const ladder = await call("PUT", `/alarm/ladder?plant=${p}`, {
        steps: [{ afterMinutes: 0, roles: ["operator", "safety"] }],
      });
      expect(ladder.status, ladder.text).toBe(200);
    }
    const [nameA, nameB] = [`(${a.plantUid})`, `(${b.plantUid})`];
    await raise(a.plantUid, 3, 1000006);
    await raise(b.plantUid, 3, 1000006);
    await escalateAlarms(store, Date.now(), [[a.plantUid, b.plantUid]]);
    // Every message of the two alarms delivered (or given up) before looking at who got what.
    await waitFor(
      async () => {
        const pending = await store.db
          .selectFrom("outbox")
          .select("seq")
          .where("plant_uid", "in", [a.plantUid, b.plantUid])
          .where("status", "=", "pending")
          .execute();
        const all = await store.db
          .selectFrom("outbox")
          .select("seq")
          .where("plant_uid", "in", [a.plantUid, b.plantUid])
          .execute();
        return all.length > 0 && pending.length === 0;
      },
      { ms: 20_000 },
    );
    const mine = mailsTo(m.email);
    expect(mine.filter((s) => s.includes(nameA))).toHaveLength(1);
    expect(mine.filter((s) => s.includes(nameB))).toHaveLength(0);
    const toMember = await store.db.selectFrom("outbox").select(["plant_uid"]).where("member_id", "=", m.id).execute();
    expect(toMember.map((r) => r.plant_uid)).toEqual([a.plantUid]);
    const theirs = mailsTo(other.email);
    expect(theirs.filter((x) => x.includes(nameA))).toHaveLength(1);
    expect(theirs.filter((x) => x.includes(nameB))).toHaveLength(1);
  });

  it("quiet hours hold a level-2 alarm's mail; a level-4 alarm goes at once", async () => {
    const c = await createGatewayFixture(store);
    const m = await operatorOf([c.plantUid]);
    // Quiet from an hour ago to an hour ahead (Seoul wall clock).
    const nowMin =
      Number(formatSeoul(Date.now(), "HH:mm").slice(0, 2)) * 60 + Number(formatSeoul(Date.now(), "HH:mm").slice(3, 5));
    const pref = await call(
      "PUT",
      "/alarm/notify/pref",
      {
        minLevel: 1,
        mail: true,
        webhook: false,
        quietFrom: minutesToHhmm((nowMin + 1440 - 60) % 1440),
        quietTo: minutesToHhmm((nowMin + 60) % 1440),
        digest: false,
      },
      m.token,
    );
    expect(pref.status, pref.text).toBe(200);
    const name = `(${c.plantUid})`;
    const severe = await raise(c.plantUid, 4, 1000006);
    const caution = await raise(c.plantUid, 2, 1000003);
    await escalateAlarms(store, Date.now(), [[c.plantUid]]);
    const severeMail = await pollUntil(
      async () => mailsTo(m.email).filter((s) => s.includes(name)),
      (x) => x.length >= 1,
      { ms: 20_000 },
    );
    expect(severeMail).toHaveLength(1);
    // The severe one is recorded as sent (just after the SMTP server accepted it).
    const rows = await pollUntil(
      () =>
        store.db.selectFrom("outbox").select(["dedupe_key", "status", "next_attempt_at"]).where("member_id", "=", m.id).execute(),
      (r) => r.some((x) => x.dedupe_key.startsWith(`alarm-ladder:${severe}:`) && x.status === "sent"),
      { ms: 10_000 },
    );
    const of = (seq: number) => rows.find((r) => r.dedupe_key.startsWith(`alarm-ladder:${seq}:`));
    expect(of(severe)).toMatchObject({ status: "sent" });
    // The level-2 alarm's mail waits for the end of the quiet hours (about an hour from now), unsent.
    expect(of(caution)).toMatchObject({ status: "pending" });
    expect(Number(of(caution)!.next_attempt_at)).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(mailsTo(m.email)).toHaveLength(1);
  });
});
