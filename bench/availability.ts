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
import { writeHourlyRollups } from "./seed-fleet";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const PLANTS = Number(process.env.BENCH_PLANTS ?? 20);
const HOUR = 3_600_000;
const HOURS = 366 * 24;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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
  const resetAt = g.inverters.map(() => Math.floor(rand() * HOURS));
  await writeHourlyRollups(store, g, {
    from,
    hours: HOURS,
    poa,
    inverterWh: (g0) => 100 * g0 * 0.85, // 100 kW at 85 %
    counterStart: 50_000_000,
    resetAt: (i) => resetAt[i],
    missing: () => rand() < 0.02, // 2 % of the hours
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
