/**
 * The history replay (GatewayEmulator.catchUp) on a real SQLite store: its rollups, rebuilt at the end a plant and
 * ten days at a time with the event loop let go in between, are the same as one rebuild of the whole range in one
 * transaction; its progress rises to the end and is gone after it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { wallClock } from "../clock";
import { openStore, type Store } from "../store/db";
import { seedFoundation } from "../store/seed";
import { IngestService } from "../telemetry/ingest";
import { rebuildRollupsIn } from "../telemetry/writer";
import { seedDemoFleet } from "./fleet";
import { GatewayEmulator } from "./gateway-emulator";

const TABLES = ["rollup_hourly", "rollup_daily", "rollup_plant_daily", "rollup_plant_stat_daily"] as const;

async function snapshot(store: Store) {
  const out: Record<string, string[]> = {};
  for (const t of TABLES) out[t] = (await store.db.selectFrom(t).selectAll().execute()).map((r) => JSON.stringify(r)).sort();
  return out;
}

describe("history replay", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "replay-test-"));
  let store: Store;
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("rebuilds the same rollups in slices as in one transaction, and says how far it is", async () => {
    store = await openStore(`file:${path.join(dir, "portal.db")}`);
    await seedFoundation(store, { adminPassword: "admin1234!" });
    await seedDemoFleet(store);
    const logged: string[] = [];
    const sim = new GatewayEmulator(store, new IngestService(store, wallClock), wallClock, {
      historyDays: 4,
      log: (m) => logged.push(m),
    });
    await sim.load();
    const seen: number[] = [];
    const watch = setInterval(() => seen.push(sim.replayProgress()?.percent ?? -1), 1);
    const sent = await sim.catchUp();
    clearInterval(watch);
    expect(sent).toBeGreaterThan(5_000);
    expect(sim.replayProgress()).toBeNull();
    // It was watched while it ran (the loop was let go) and only ever went forward.
    const during = seen.filter((p) => p >= 0);
    expect(during.length).toBeGreaterThan(5);
    expect(during).toEqual([...during].sort((a, b) => a - b));
    expect(logged.some((m) => /history, [1-9]0 %/.test(m))).toBe(true);

    const sliced = await snapshot(store);
    expect(sliced.rollup_hourly!.length).toBeGreaterThan(1_000);
    expect(sliced.rollup_plant_daily!.length).toBeGreaterThan(36 * 3);
    const newest = (await store.db
      .selectFrom("rollup_hourly")
      .select((e) => e.fn.max("hour_ts").as("h"))
      .executeTakeFirst())!.h as number;
    await store.db.transaction().execute((trx) => rebuildRollupsIn(trx, 0, newest + 3_600_000));
    expect(await snapshot(store)).toEqual(sliced);
  }, 120_000);
});
