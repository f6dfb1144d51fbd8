/**
 * Availability per plant for a year (issue 28 §2–3): prints figures (record them in bench/README.md by hand).
 *   npx tsx bench/availability.ts              SQLite; BENCH_STORE=postgres for PostgreSQL; BENCH_PLANTS (default 20)
 * A server is started only to create the database and run its migrations; then, in this process, each plant gets a
 * year of hourly rollups (3 inverters of 100 kW and a sensor; 2 % of the inverters' hours missing, one counter reset
 * each) written straight into rollup_hourly, and each plant's availability is computed as POST /diagnose/generate does
 * for a unit of an hour or a day: api/store/diagnose.ts availabilityGrid (the read) + domain/analytics/availability.ts
 * plantAvailability (the figures). Printed: the median ms per plant of the read, the figures and both.
 * Not a test: nothing passes or fails.
 */
import { openStore, type Store } from "../api/store/db";
import { availabilityGrid } from "../api/store/diagnose";
import { plantAvailability } from "../domain/analytics/availability";
import { mulberry32 } from "../domain/random";
import { startServer, type StoreKind } from "../tests/helpers/server";
import { createGatewayFixture } from "../tests/helpers/telemetry";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const PLANTS = Number(process.env.BENCH_PLANTS ?? 20);
const HOUR = 3_600_000;
const HOURS = 366 * 24;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Row = Record<string, number | string | null>;

/** Plane-of-array irradiance of an hour (a clear-sky bell from 6 to 19 h Seoul, thinned by weather), W/m². */
function poa(h: number): number {
  const local = (h + 9) % 24;
  const day = Math.floor(h / 24);
  if (local < 6 || local > 19) return 0;
  return 950 * Math.sin((Math.PI * (local - 6)) / 13) * (0.55 + 0.45 * Math.abs(Math.sin(day / 4)));
}

async function seedPlant(store: Store, from: number, seed: number) {
  const g = await createGatewayFixture(store, { inverters: 3, capaKw: 300 });
  const rand = mulberry32(seed);
  const rows: Row[] = [];
  const counters = g.inverters.map(() => 50_000_000);
  const resetAt = g.inverters.map(() => Math.floor(rand() * HOURS));
  for (let h = 0; h < HOURS; h++) {
    const t = from + h * HOUR;
    const g0 = poa(h);
    const base = { hour_ts: t, samples: 6, avg_w: null, his_wh: null, avg_sts: null, avg_ats: null, max_today_wh: null };
    rows.push({
      ...base,
      device_uid: g.env,
      kind: 4,
      energy_wh: null,
      max_w: null,
      iis_wh: g0,
      iis_sts_wh: g0 * 35,
      max_total_wh: null,
      sun_samples: g0 > 100 ? 6 : 0,
      lit_samples: g0 > 20 ? 6 : 0,
      run_samples: null,
    });
    g.inverters.forEach((uid, i) => {
      const wh = 100 * g0 * 0.85; // 100 kW at 85 %
      counters[i]! += wh;
      if (h === resetAt[i]) counters[i] = wh;
      if (rand() < 0.02) return; // a missing hour
      rows.push({
        ...base,
        device_uid: uid,
        kind: 1,
        energy_wh: wh,
        max_w: wh,
        iis_wh: null,
        iis_sts_wh: null,
        max_total_wh: Math.round(counters[i]!),
        sun_samples: null,
        lit_samples: null,
        run_samples: wh > 0 ? 6 : 0,
      });
    });
  }
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 300)
      await trx
        .insertInto("rollup_hourly")
        .values(rows.slice(i, i + 300) as never)
        .execute();
  });
  return g;
}

async function main() {
  const server = await startServer({ store: STORE, env: { SIMULATE: "0", PORTAL_WORKERS: "0" }, timeoutMs: 180_000 });
  const store = await openStore(server.databaseUrl);
  try {
    const now = Date.now();
    const to = now - (now % HOUR);
    const from = to - HOURS * HOUR;
    const t0 = performance.now();
    const plants = [];
    for (let p = 0; p < PLANTS; p++) plants.push(await seedPlant(store, from, 1000 + p));
    console.log(
      `seeded ${PLANTS} plants × a year of hourly rollups in ${((performance.now() - t0) / 1000).toFixed(1)} s (${STORE})`,
    );
    const read: number[] = [];
    const compute: number[] = [];
    const total: number[] = [];
    let anomalies = 0;
    let coverage = 0;
    for (const g of plants) {
      const inverters = g.inverters.map((uid) => ({ uid, capacityKw: 100 }));
      const a = performance.now();
      const grid = await availabilityGrid(store.db, g.plantUid, inverters, from, to, 60);
      const b = performance.now();
      const r = plantAvailability(grid);
      const c = performance.now();
      read.push(b - a);
      compute.push(c - b);
      total.push(c - a);
      anomalies += r.counterAnomalies.length;
      coverage += r.time.coverage ?? 0;
    }
    console.log(
      `per plant (3 inverters, ${HOURS} hourly steps): median read ${median(read).toFixed(1)} ms, figures ${median(compute).toFixed(1)} ms, both ${median(total).toFixed(1)} ms`,
    );
    console.log(
      `check: ${anomalies} counter resets found (${PLANTS * 3} seeded), mean time coverage ${(coverage / PLANTS).toFixed(3)} (≈0.98 seeded)`,
    );
  } finally {
    await store.close();
    await server.stop();
  }
}

void main();
