/**
 * The history's alarms (issue 26 point 4): a replay of past days leaves the alarms those days had, judged from the
 * replayed readings by the live engine's rules — released ones with raised times spread over the past days, each with
 * its lifecycle steps, the simulator's injected faults among them — and no alert for any of them (no outbox row).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ALARM_CODE } from "../../domain/status";
import { seoulDayIndex } from "../../domain/seoul-time";
import { wallClock } from "../clock";
import { openStore, type Store } from "../store/db";
import { seedFoundation } from "../store/seed";
import { IngestService } from "../telemetry/ingest";
import { seedDemoFleet } from "./fleet";
import { GatewayEmulator } from "./gateway-emulator";

/** The alarms' conditions and times, comparable between stores. */
async function alarmTimes(store: Store) {
  const rows = await store.db.selectFrom("alarm").selectAll().execute();
  return rows
    .map((a) => [a.code, a.plant_uid, a.device_uid, a.rtu_uid, a.level, Number(a.raised_at), a.released_at].join("|"))
    .sort();
}

describe("alarms of the replayed history", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "history-alarms-"));
  let store: Store;
  const stores: Store[] = [];
  afterAll(async () => {
    await store?.close();
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("are the same when unchanged nights are skipped as when every step is judged", async () => {
    // One clock for both replays, so they cover the same steps.
    const now = wallClock.now();
    const clock = { ...wallClock, now: () => now };
    const replay = async (name: string, exhaustive: boolean) => {
      const s = await openStore(`file:${path.join(dir, `${name}.db`)}`);
      stores.push(s);
      await seedFoundation(s, { adminPassword: "admin1234!" });
      await seedDemoFleet(s);
      const sim = new GatewayEmulator(s, new IngestService(s, clock), clock, {
        historyDays: 2,
        exhaustiveHistoryAlarms: exhaustive,
      });
      await sim.load();
      await sim.catchUp();
      return alarmTimes(s);
    };
    const skipping = await replay("skipping", false);
    expect(skipping.length).toBeGreaterThan(50);
    expect(await replay("exhaustive", true)).toEqual(skipping);
  }, 180_000);

  it("are derived from the past readings, released at their real times, and never alerted", async () => {
    store = await openStore(`file:${path.join(dir, "portal.db")}`);
    await seedFoundation(store, { adminPassword: "admin1234!" });
    await seedDemoFleet(store);
    // Someone who would be alerted of every plant's alarms, by mail and webhook, if the past were alerted.
    const at = Date.now();
    await store.db.updateTable("member").set({ email: "ops@example.com" }).where("id", "=", "admin").execute();
    await store.db
      .insertInto("alert_pref")
      .values({
        member_id: "admin",
        min_level: 1,
        mail: 1,
        webhook: 1,
        webhook_url: "https://hooks.example.com/x",
        quiet_from: null,
        quiet_to: null,
        digest: 0,
        updated_at: at,
      })
      .execute();
    for (const p of await store.db.selectFrom("plant").select("uid").execute())
      await store.db
        .insertInto("plant_contact")
        .values({ plant_uid: p.uid, role: "owner", member_id: "admin", updated_at: at, updated_by: "admin" })
        .execute();
    const logged: string[] = [];
    const sim = new GatewayEmulator(store, new IngestService(store, wallClock), wallClock, {
      historyDays: 5,
      log: (m) => logged.push(m),
    });
    await sim.load();
    const started = Date.now();
    await sim.catchUp();
    const took = Date.now() - started;
    const now = wallClock.now();
    const alarms = await store.db.selectFrom("alarm").selectAll().execute();
    console.log(logged.filter((m) => /derived/.test(m)).join());
    const released = alarms.filter((a) => a.released_at !== null);
    const days = new Set(released.map((a) => seoulDayIndex(Number(a.raised_at))));
    console.log(
      `replay of 5 days: ${took} ms; ${alarms.length} alarms (${released.length} released) over ${days.size} days; ` +
        `codes ${JSON.stringify(Object.fromEntries([...new Set(alarms.map((a) => a.code))].map((c) => [c, alarms.filter((a) => a.code === c).length])))}`,
    );
    // Released alarms on every past day of the replay, not only today.
    expect(released.length).toBeGreaterThan(50);
    expect(days.size).toBeGreaterThanOrEqual(5);
    expect(Math.min(...released.map((a) => Number(a.raised_at)))).toBeLessThan(now - 3 * 86_400_000);
    // The faults the simulator injects are among them: inverter trips, silent devices, offline RTUs.
    const codes = new Set(alarms.map((a) => Number(a.code)));
    for (const c of [ALARM_CODE.inverterFault, ALARM_CODE.communicationFault, ALARM_CODE.internetDisconnected])
      expect(codes).toContain(c);
    // Each alarm's lifecycle: raised at its raised time; a released one cleared at its released time.
    const events = await store.db.selectFrom("alarm_event").selectAll().execute();
    const bySeq = new Map<number, typeof events>();
    for (const e of events) bySeq.set(Number(e.alarm_seq), [...(bySeq.get(Number(e.alarm_seq)) ?? []), e]);
    for (const a of alarms) {
      const steps = (bySeq.get(Number(a.seq)) ?? []).sort((x, y) => Number(x.at) - Number(y.at));
      expect(steps[0]).toMatchObject({ kind: "raised", at: a.raised_at });
      if (a.released_at !== null) expect(steps.at(-1)).toMatchObject({ kind: "cleared", at: a.released_at });
      expect(Number(a.released_at ?? now)).toBeGreaterThan(Number(a.raised_at));
    }
    // The past is not alerted.
    expect(await store.db.selectFrom("outbox").select("seq").execute()).toEqual([]);
    expect(logged.some((m) => /alarms of the history derived/.test(m))).toBe(true);
  }, 180_000);
});
