/**
 * Crash safety: SIGKILL the server during sustained ingest, start it again on the same store,
 * and check that every reading the server acknowledged is there, exactly once.
 */
import { describe, expect, it } from "vitest";
import { openTestStore } from "../helpers/fixtures";
import { STORES } from "../helpers/http";
import { startServer } from "../helpers/server";
import { createGatewayFixture, postReadings, slot } from "../helpers/telemetry";
import { waitFor } from "../helpers/wait";

describe.each(STORES)("crash during ingest on %s", (kind) => {
  it("keeps every acknowledged reading, none twice", async () => {
    const first = await startServer({ store: kind });
    const setup = await openTestStore(first.databaseUrl);
    const g = await createGatewayFixture(setup, { inverters: 4 });
    await setup.close();
    const devices = [g.env, ...g.inverters];
    const acked: Array<{ device: string; ts: number }> = [];
    let sent = 0;
    let rejected = 0;
    let stop = false;
    const worker = async (w: number) => {
      // Two workers per device, each on its own 200 days of slots (all within the 400 days ingest accepts).
      for (let batch = 0; !stop && batch < 280; batch++) {
        const device = devices[w % devices.length]!;
        const base = Math.floor(w / devices.length) * 28_800 + batch * 100;
        const readings = Array.from({ length: 100 }, (_, i) => ({
          device,
          ts: slot(base + i + 1),
          values:
            device === g.env ? { his: i, iis: i + 1, sts: 20, ats: 10 } : { iw: 1000 + i, today_wh: i * 10, total_wh: 1e6 + i },
        }));
        sent += readings.length;
        let res: Awaited<ReturnType<typeof postReadings>>;
        try {
          res = await postReadings(first.baseUrl, g, readings);
        } catch {
          return; // the server is gone mid-request: that batch was never acknowledged
        }
        if (res.status !== 200) continue;
        rejected += res.body.rejected.length;
        // Accepted and duplicates are both "stored": the acknowledgement covers all of them.
        for (const r of readings) acked.push({ device: r.device, ts: r.ts });
      }
    };
    const workers = Array.from({ length: 10 }, (_, w) => worker(w));
    // Killed in the middle of the traffic, once a good part of it has been acknowledged.
    await waitFor(() => acked.length > 1_000, { ms: 60_000 });
    await first.kill("SIGKILL");
    stop = true;
    await Promise.all(workers);
    expect(acked.length).toBeGreaterThan(1_000);
    expect(rejected).toBe(0);

    const second = await startServer({ store: kind, reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
    const store = await openTestStore(second.databaseUrl);
    try {
      const env = await store.db.selectFrom("m_env").select(["device_uid", "ts"]).where("device_uid", "=", g.env).execute();
      const inv = await store.db
        .selectFrom("m_inverter")
        .select(["device_uid", "ts"])
        .where("device_uid", "in", g.inverters)
        .execute();
      const stored = new Map<string, number>();
      for (const r of [...env, ...inv]) {
        const key = `${r.device_uid}@${r.ts}`;
        stored.set(key, (stored.get(key) ?? 0) + 1);
      }
      const missing = acked.filter((a) => !stored.has(`${a.device}@${a.ts}`));
      expect(missing).toEqual([]);
      expect([...stored.values()].every((n) => n === 1)).toBe(true);
      expect(stored.size).toBeLessThanOrEqual(sent);
      // The server works normally after the crash: the same readings are duplicates now.
      const again = await postReadings(second.baseUrl, g, [
        { device: acked[0]!.device, ts: acked[0]!.ts, values: acked[0]!.device === g.env ? { his: 1 } : { iw: 1 } },
      ]);
      expect(again.body).toMatchObject({ accepted: 0, duplicates: 1 });
    } finally {
      await store.close();
      await second.stop();
    }
  }, 120_000);
});
