/**
 * Scheduled statistics reports against a real server on both stores: a member subscribes to a plant's daily
 * integrated report, the report scheduler (a cluster singleton, ticking every 300 ms here) queues it through the
 * outbox, and it arrives at a REAL SMTP server started here (smtp-server) with the XLSX attached — opened with
 * exceljs and checked. A second tick, and a run after the remembered period is lost, send nothing again (the
 * outbox's dedupe key). A foreign plant or group answers 404, bad input 400, another member's subscription 404.
 */
import ExcelJS from "exceljs";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeoul } from "../../domain/seoul-time";
import { lastDuePeriod } from "../../domain/statistics-schedule";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { freePort, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";
import { waitFor } from "../helpers/wait";

const STEP = 600_000;
const HOUR = 3_600_000;

/** A real SMTP server that keeps the raw messages it receives. */
async function mailbox() {
  const messages: Array<{ to: string; raw: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 20 * 1024 * 1024,
    onData: (stream, session, cb) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(","),
          raw: Buffer.concat(chunks).toString("latin1"),
        });
        cb();
      });
    },
  });
  const port = await freePort(3600, 3699);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { messages, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The parts of a multipart mail: headers (lower-cased names) and the body decoded from base64 when so encoded. */
function mimeParts(raw: string): Array<{ headers: string; body: Buffer }> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const at = part.indexOf("\r\n\r\n");
      const headers = part.slice(0, at);
      const body = part.slice(at + 4);
      const b64 = /content-transfer-encoding:\s*base64/i.test(headers);
      return { headers, body: b64 ? Buffer.from(body.replace(/\s+/g, ""), "base64") : Buffer.from(body, "latin1") };
    });
}

for (const storeKind of STORES) {
  describe(`scheduled statistics reports (${storeKind})`, () => {
    let server: TestServer;
    let store: Store;
    let box: Awaited<ReturnType<typeof mailbox>>;
    let g: GatewayFixture;
    let foreign: GatewayFixture;
    let foreignNode: number;
    let token: string;
    let otherToken: string;
    let plantName: string;
    const api = () => apiClient(server.baseUrl);
    // The period the scheduler sends now: yesterday (or the day before, before 01:00 Seoul).
    const period = lastDuePeriod("daily", Date.now());
    const ADDRESS = "operator@plant.test";

    beforeAll(async () => {
      box = await mailbox();
      server = await startServer({
        store: storeKind,
        env: {
          PORTAL_WORKERS: "0",
          SMTP_URL: `smtp://127.0.0.1:${box.port}`,
          MAIL_FROM: "Portal <reports@portal.test>",
          OUTBOX_RETRY_MS: "300",
          REPORT_SCHEDULE_MS: "300",
        },
        timeoutMs: 150_000,
      });
      store = await openTestStore(server.databaseUrl);
      g = await createGatewayFixture(store, { inverters: 1, capaKw: 50 });
      plantName = (await store.db.selectFrom("plant").select("name").where("uid", "=", g.plantUid).executeTakeFirstOrThrow())
        .name;
      const root = await store.db
        .selectFrom("node")
        .select("seq")
        .where("parent_seq", "is", null)
        .orderBy("seq")
        .executeTakeFirstOrThrow();
      foreignNode = Number(
        (
          await store.db
            .insertInto("node")
            .values({ parent_seq: root.seq, name: "남의 관제", sort_order: 0, created_at: Date.now() })
            .returning("seq")
            .executeTakeFirstOrThrow()
        ).seq,
      );
      const mine = Number(
        (
          await store.db
            .insertInto("node")
            .values({ parent_seq: root.seq, name: "우리 관제", sort_order: 0, created_at: Date.now() })
            .returning("seq")
            .executeTakeFirstOrThrow()
        ).seq,
      );
      await store.db.updateTable("plant").set({ node_seq: mine }).where("uid", "=", g.plantUid).execute();
      foreign = await createGatewayFixture(store, { inverters: 1, nodeSeq: foreignNode });
      const member = await createMember(store, { node_seq: mine, service: 0, email: ADDRESS });
      const other = await createMember(store, { node_seq: foreignNode, service: 0 });
      token = (await api().session(member.id, member.password)).accessToken;
      otherToken = (await api().session(other.id, other.password)).accessToken;
      // 5 kW from 10:00 to 10:50 of the due day: 6 steps → 5 kWh.
      const readings = Array.from({ length: 6 }, (_, i) => ({
        device: g.inverters[0],
        ts: period.start + 10 * HOUR + i * STEP,
        values: { iw: 5000 },
      }));
      const res = await postReadings(server.baseUrl, g, readings);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }, 200_000);

    afterAll(async () => {
      await store?.close();
      await server?.stop();
      await box?.close();
    });

    it("refuses bad input and foreign scopes", async () => {
      const post = (json: unknown, t = token) => api().call("POST", "/statistics/subscriptions", { token: t, json });
      const ok = { report: "integrated", frequency: "daily", plant: g.plantUid, email: ADDRESS };
      let res = await post({ ...ok, frequency: "hourly" });
      expect(res.status).toBe(400);
      expect(res.body.fields.frequency).toBe("unknown_frequency");
      res = await post({ ...ok, email: "not a mail" });
      expect(res.status).toBe(400);
      expect(res.body.fields.email).toBe("invalid_email");
      res = await post({ ...ok, report: "weather" });
      expect(res.status).toBe(400);
      res = await post({ ...ok, plant: "not an id!" });
      expect(res.status).toBe(400);
      res = await post({ ...ok, plant: foreign.plantUid });
      expect(res.status, res.text).toBe(404);
      res = await post({ report: "integrated", frequency: "weekly", isGroup: true, group: foreignNode, email: ADDRESS });
      expect(res.status, res.text).toBe(404);
      res = await api().call("DELETE", "/statistics/subscriptions/abc", { token });
      expect(res.status).toBe(400);
      const listed = (await api().call("GET", "/statistics/subscriptions", { token })).body;
      expect(listed.subscriptions).toEqual([]);
      // The member's own address comes along (the report screen's form offers it).
      expect(listed.email).toBe(ADDRESS);
    });

    it("answers a disabled member 403 though they have no subscription (whose scope would ask the reach)", async () => {
      const m = await createMember(store, { node_seq: foreignNode, service: 0 });
      const own = (await api().session(m.id, m.password)).accessToken;
      expect((await api().call("GET", "/statistics/subscriptions", { token: own })).status).toBe(200);
      await store.db.updateTable("member").set({ use_yn: 0 }).where("id", "=", m.id).execute();
      const res = await api().call("GET", "/statistics/subscriptions", { token: own });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("member_disabled");
    });

    it("mails the report once, as an XLSX attachment, to a real SMTP server", async () => {
      const res = await api().call("POST", "/statistics/subscriptions", {
        token,
        json: { report: "integrated", frequency: "daily", plant: g.plantUid, email: ADDRESS, lang: "ko" },
      });
      expect(res.status, res.text).toBe(201);
      const seq = res.body.subscription.seq;
      expect(res.body.subscription.scope).toMatchObject({ kind: "plant", uid: g.plantUid, name: plantName });
      // The same subscription again is the existing one, not a second.
      const again = await api().call("POST", "/statistics/subscriptions", {
        token,
        json: { report: "integrated", frequency: "daily", plant: g.plantUid, email: ADDRESS },
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ existing: true, subscription: { seq } });

      const mail = await waitFor(() => box.messages.find((m) => m.to === ADDRESS), {
        ms: 30_000,
        failure: () => server.output().slice(-2000),
      });
      const parts = mimeParts(mail.raw);
      const text = parts.find((p) => /content-type:\s*text\/plain/i.test(p.headers))!.body.toString("utf8");
      expect(text).toContain(plantName);
      expect(text).toContain("발전량: 5 kWh");
      const file = parts.find((p) => /spreadsheetml/i.test(p.headers));
      expect(file, mail.raw.slice(0, 3000)).toBeDefined();
      expect(file!.headers).toMatch(/statistics-integrated-60-/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file!.body as never);
      expect(book.worksheets.map((s) => s.name)).toHaveLength(3);
      const [summary, totals, rows] = book.worksheets;
      const cell = (label: string) => {
        let found: unknown;
        summary!.eachRow((r) => {
          if (r.getCell(1).value === label) found = r.getCell(2).value;
        });
        return found;
      };
      expect(cell("범위")).toBe(plantName);
      expect(cell("기간")).toBe(
        `${formatSeoul(period.start, "YYYY-MM-DD HH:mm")} – ${formatSeoul(period.end, "YYYY-MM-DD HH:mm")}`,
      );
      expect(cell("단위")).toBe("60");
      expect(cell("발전량")).toBe(5);
      // Hourly rows of the plant: the energy column holds typed numbers that add up to the 5 kWh.
      expect(rows!.rowCount).toBeGreaterThan(1);
      const energyCol = (rows!.getRow(1).values as unknown[]).findIndex((v) => typeof v === "string" && v.startsWith("발전량"));
      expect(energyCol).toBeGreaterThan(0);
      const energies: number[] = [];
      rows!.eachRow((r, i) => {
        if (i > 1) energies.push(Number(r.getCell(energyCol).value ?? 0));
      });
      expect(energies.reduce((a, b) => a + b, 0)).toBeCloseTo(5, 6);
      expect(totals!.rowCount).toBe(2);

      const listed = await api().call("GET", "/statistics/subscriptions", { token });
      expect(listed.body.subscriptions).toHaveLength(1);
      expect(listed.body.subscriptions[0]).toMatchObject({ seq, last_period: period.start, last_error: null });
      expect(listed.body.subscriptions[0].next_run).toBeGreaterThan(Date.now());

      // More ticks send nothing more; nor does a run that lost the remembered period (the outbox's dedupe key). The
      // tick that remembers the period again is a later tick: whatever the earlier ones would have queued is queued.
      await store.db.updateTable("report_subscription").set({ last_period: null }).where("seq", "=", seq).execute();
      await waitFor(
        async () =>
          (await store.db.selectFrom("report_subscription").select("last_period").where("seq", "=", seq).executeTakeFirst())
            ?.last_period != null,
        { ms: 10_000 },
      );
      // One message for the period, already sent: nothing is left that could send a second mail.
      const queued = await store.db
        .selectFrom("outbox")
        .select(["status"])
        .where("dedupe_key", "like", `report:${seq}:%`)
        .execute();
      expect(queued).toEqual([{ status: "sent" }]);
      expect(box.messages.filter((m) => m.to === ADDRESS)).toHaveLength(1);

      // Another member neither sees nor deletes it; the owner unsubscribes.
      expect((await api().call("GET", "/statistics/subscriptions", { token: otherToken })).body.subscriptions).toEqual([]);
      expect((await api().call("DELETE", `/statistics/subscriptions/${seq}`, { token: otherToken })).status).toBe(404);
      expect((await api().call("DELETE", `/statistics/subscriptions/${seq}`, { token })).status).toBe(204);
      expect((await api().call("GET", "/statistics/subscriptions", { token })).body.subscriptions).toEqual([]);
    }, 60_000);

    it("the monthly report mail carries the month's alarm figures (issue 29 §2)", async () => {
      const month = lastDuePeriod("monthly", Date.now());
      const days = Math.round((month.end - month.start) / 86_400_000);
      const t = month.start + 3 * 86_400_000;
      const alarm = (releasedAt: number | null, ackAt: number | null) => ({
        plant_uid: g.plantUid,
        rtu_uid: null,
        device_uid: null,
        code: 1000006,
        level: 3,
        fault_code: null,
        message: "test",
        raised_at: t,
        released_at: releasedAt,
        ack_at: ackAt,
        ack_by: ackAt === null ? null : "admin",
      });
      // Cleared after 5 minutes without an acknowledgement (a nuisance alarm); acknowledged after 6 minutes, open.
      await store.db
        .insertInto("alarm")
        .values([alarm(t + 5 * 60_000, null), alarm(null, t + 6 * 60_000)])
        .execute();
      const before = box.messages.length;
      const res = await api().call("POST", "/statistics/subscriptions", {
        token,
        json: { report: "integrated", frequency: "monthly", plant: g.plantUid, email: ADDRESS, lang: "ko" },
      });
      expect(res.status, res.text).toBe(201);
      const mail = await waitFor(() => box.messages.slice(before).find((m) => m.to === ADDRESS), {
        ms: 30_000,
        failure: () => server.output().slice(-2000),
      });
      const text = mimeParts(mail.raw)
        .find((part) => /content-type:\s*text\/plain/i.test(part.headers))!
        .body.toString("utf8");
      expect(text).toContain("알람 지표");
      // 2 alarms, 1 plant, the month's days; 1 of 2 nuisance; acknowledged after 6 min; cleared after 5.
      expect(text).toContain(`전체 | 2 | ${((2 / days) * 100).toFixed(2)} | 50.0% | 6.0 | 5.0`);
      expect(text).toContain(`코드 1000006 | 2 |`);
    }, 60_000);
  });
}
