/**
 * Alarms across the demo history (issue 26 point 4): a demo server that plays in a few days of history lists, on the
 * alarm screen's API, released alarms raised on each of the past days (derived from the replayed readings, not only
 * today's), with no alert queued for any of them — though a member would be alerted of every plant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlarmListResponse } from "../../domain/contract/alarm";
import type { HealthAnswer } from "../../domain/contract/health";
import { formatSeoul, seoulDayIndex } from "../../domain/seoul-clock";
import type { Store } from "../../api/store/db";
import { openTestStore } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";

const DAYS = 3;

describe.each(STORES)("the demo history's alarms on %s", (kind) => {
  let server: TestServer;
  let store: Store;
  let startedAt: number;
  beforeAll(async () => {
    startedAt = Date.now();
    server = await startServer({ store: kind, env: { SIMULATE: "1", HISTORY_DAYS: String(DAYS) }, timeoutMs: 180_000 });
    store = await openTestStore(server.databaseUrl);
    // The admin would be alerted of every plant's alarms, by mail and webhook (set while the history plays in).
    await store.db.updateTable("member").set({ email: "ops@example.com" }).where("id", "=", "admin").execute();
    await store.db
      .insertInto("alert_pref")
      .values({
        member_id: "admin",
        min_level: 1,
        mail: 1,
        webhook: 1,
        webhook_url: "http://127.0.0.1:9/hook",
        quiet_from: null,
        quiet_to: null,
        digest: 0,
        updated_at: startedAt,
      })
      .execute();
    for (const p of await store.db.selectFrom("plant").select("uid").execute())
      await store.db
        .insertInto("plant_contact")
        .values({ plant_uid: p.uid, role: "owner", member_id: "admin", updated_at: startedAt, updated_by: "admin" })
        .execute();
    await waitFor(
      async () => {
        const h = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as HealthAnswer;
        return h.replay === null;
      },
      { ms: 170_000, every: 500, failure: () => `history not in: ${server.output().slice(-2_000)}` },
    );
  }, 200_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it("lists released alarms raised on every past day, and alerts none of them", async () => {
    const s = await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD);
    const q = new URLSearchParams({
      start: formatSeoul(startedAt - DAYS * 86_400_000, "YYYY-MM-DD"),
      end: formatSeoul(startedAt, "YYYY-MM-DD"),
      status: "cleared",
      size: "100",
    });
    const res = await apiClient(server.baseUrl).call<AlarmListResponse>("GET", `/alarm?${q}`, { token: s.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThan(100);
    // Every page of the list: raised on each past day, released after they were raised.
    const rows = [...res.body.alarmList];
    for (let page = 2; rows.length < res.body.total; page++) {
      q.set("page", String(page));
      const more = await apiClient(server.baseUrl).call<AlarmListResponse>("GET", `/alarm?${q}`, { token: s.accessToken });
      rows.push(...more.body.alarmList);
    }
    const pastDays = new Set(rows.filter((a) => a.raised_at < startedAt).map((a) => seoulDayIndex(a.raised_at)));
    expect(pastDays.size).toBeGreaterThanOrEqual(DAYS);
    for (const a of rows) expect(a.released_at!).toBeGreaterThan(a.raised_at);

    // No alert for a step of the past: every queued alarm alert is of a step taken after the server started.
    const history = await store.db.selectFrom("alarm_event").select(["seq", "at"]).where("at", "<", startedAt).execute();
    expect(history.length).toBeGreaterThan(200);
    const alerts = await store.db
      .selectFrom("outbox")
      .select("dedupe_key")
      .where("dedupe_key", "like", "alarm-event:%")
      .execute();
    const pastSeqs = new Set(history.map((e) => Number(e.seq)));
    const alertedPast = alerts.filter((o) => pastSeqs.has(Number(o.dedupe_key.split(":")[1])));
    expect(alertedPast).toEqual([]);
  });
});
