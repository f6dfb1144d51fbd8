/**
 * Issue 29 §1, the tamper-evident command and acknowledgement log, against real servers on both stores:
 * - commands (with the gateway's answer) and alarm acknowledgements are appended to the chain; many commands at once
 *   still give an intact chain; on PostgreSQL, two servers on one database taking commands at once do too;
 * - a row edited directly in the database (or deleted) is reported by GET /api/audit/verify at that entry;
 * - the list is scoped by plant and period, and the control service bit gates it.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeoul } from "../../domain/seoul-clock";
import { COMMAND_HEX } from "../../domain/contract/alarm";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { STORES, apiClient } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, type GatewayFixture } from "../helpers/telemetry";

const today = () => formatSeoul(Date.now(), "YYYY-MM-DD");

describe.each(STORES)("command and acknowledgement log on %s", (kind) => {
  const secrets = { JWT_SECRET: randomBytes(32).toString("hex"), SESSION_SECRET: randomBytes(32).toString("hex") };
  let server: TestServer;
  let second: TestServer | null = null;
  let store: Store;
  let admin: string;

  beforeAll(async () => {
    server = await startServer({ store: kind, env: { ...secrets, PORTAL_WORKERS: "0" }, timeoutMs: 110_000 });
    store = await openTestStore(server.databaseUrl);
    admin = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await store?.close();
    await second?.stop({ keepData: true });
    await server?.stop();
  });

  const call = (method: string, p: string, json?: unknown, token = admin, base = server.baseUrl) =>
    apiClient(base).call(method, p, { token, json });
  const command = (g: GatewayFixture, i: number, base = server.baseUrl) =>
    call(
      "POST",
      "/command/hex",
      { deviceType: 1, rtuUid: g.rtuUid, deviceUid: g.inverters[i % g.inverters.length], ch: 0, hexOff: COMMAND_HEX.off },
      admin,
      base,
    );

  async function openAlarm(plantUid: string) {
    const row = await store.db
      .insertInto("alarm")
      .values({
        plant_uid: plantUid,
        rtu_uid: null,
        device_uid: null,
        code: 1000006,
        level: 3,
        fault_code: null,
        message: "test",
        raised_at: Date.now(),
      })
      .returning("seq")
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  it("records commands, their answers and acknowledgements in an intact chain, also when many come at once", async () => {
    const g = await createGatewayFixture(store, { inverters: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => command(g, i)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const alarm = await openAlarm(g.plantUid);
    const ack = await call("POST", `/alarm/${alarm}/ack`, { note: "현장 확인" });
    expect(ack.status, ack.text).toBe(200);

    const list = await call("GET", `/audit?plant=${g.plantUid}&start=${today()}&end=${today()}&size=100`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.total).toBe(12 * 2 + 1);
    const kinds = list.body.rows.map((r: { kind: string }) => r.kind);
    expect(kinds.filter((k: string) => k === "command")).toHaveLength(12);
    expect(kinds.filter((k: string) => k === "command_result")).toHaveLength(12);
    expect(list.body.rows[0]).toMatchObject({
      kind: "alarm_ack",
      ref_seq: alarm,
      member_id: "admin",
      detail: { note: "현장 확인", code: 1000006 },
    });
    const seqs = new Set(answers.map((a) => a.body.seq));
    for (const r of list.body.rows.filter((x: { kind: string }) => x.kind !== "alarm_ack"))
      expect(seqs.has(r.ref_seq)).toBe(true);
    // The gateway's answer: no link reaches the fixture's RTU, so every command is undeliverable, recorded so.
    expect(list.body.rows.find((r: { kind: string }) => r.kind === "command_result").detail).toMatchObject({
      status: "undeliverable",
      ok: false,
    });

    const verdict = await call("GET", "/audit/verify");
    expect(verdict.status).toBe(200);
    expect(verdict.body).toMatchObject({ intact: true, broken: null });
    expect(verdict.body.checked).toBeGreaterThanOrEqual(25);

    // Another plant's entries are not in this plant's list; a bad period is a 400 with the field; no plant seen: 404.
    const other = await createGatewayFixture(store);
    expect((await command(other, 0)).status).toBe(200);
    const again = await call("GET", `/audit?plant=${g.plantUid}&start=${today()}&end=${today()}&size=100`);
    expect(again.body.total).toBe(25);
    const bad = await call("GET", `/audit?start=${today()}&end=2000-01-01`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ end: "end_before_start" });
    expect((await call("GET", `/audit?plant=nope&start=${today()}&end=${today()}`)).status).toBe(404);
  });

  it("is for members with the control service bit", async () => {
    const m = await createMember(store, { service: 0 });
    const token = (await apiClient(server.baseUrl).session(m.id, m.password)).accessToken;
    expect((await call("GET", "/audit/verify", undefined, token)).status).toBe(403);
    expect((await call("GET", `/audit?start=${today()}&end=${today()}`, undefined, token)).status).toBe(403);
  });

  it.runIf(kind === "postgres")("two servers on one database taking commands at once keep one intact chain", async () => {
    second = await startServer({
      store: "postgres",
      reuse: { dataDir: mkdtempSync(path.join(os.tmpdir(), "portal-audit-s2-")), databaseUrl: server.databaseUrl },
      env: { ...secrets, PORTAL_WORKERS: "0" },
      timeoutMs: 110_000,
    });
    const g = await createGatewayFixture(store, { inverters: 4 });
    const before = (await call("GET", "/audit/verify")).body.checked;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => command(g, i, i % 2 ? second!.baseUrl : server.baseUrl)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const verdict = await call("GET", "/audit/verify", undefined, admin, second.baseUrl);
    expect(verdict.body).toMatchObject({ intact: true, broken: null, checked: before + 60 });
  });

  it("reports the first entry edited or deleted directly in the database", async () => {
    const g = await createGatewayFixture(store);
    for (let i = 0; i < 3; i++) expect((await command(g, i)).status).toBe(200);
    const rows = await store.db.selectFrom("audit_chain").select(["seq", "detail"]).orderBy("seq", "desc").limit(6).execute();
    const victim = rows[3]!; // the second command's entry or its answer: entries after it stay in place
    await store.db
      .updateTable("audit_chain")
      .set({ detail: victim.detail.replace('"off"', '"on"').replace("undeliverable", "done") })
      .where("seq", "=", victim.seq)
      .execute();
    const edited = await call("GET", "/audit/verify");
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ intact: false, broken: { seq: Number(victim.seq), reason: "hash_mismatch" } });
    // Put back exactly, and the chain is intact again; delete a row, and the one after it is reported.
    await store.db.updateTable("audit_chain").set({ detail: victim.detail }).where("seq", "=", victim.seq).execute();
    expect((await call("GET", "/audit/verify")).body).toMatchObject({ intact: true });
    await store.db.deleteFrom("audit_chain").where("seq", "=", rows[2]!.seq).execute();
    const deleted = await call("GET", "/audit/verify");
    expect(deleted.body).toMatchObject({ intact: false, broken: { seq: Number(rows[1]!.seq), reason: "prev_mismatch" } });
  });
});
