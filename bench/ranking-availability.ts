/**
 * The fleet ranking's availability (GET /diagnose/ranking; api/store/diagnose.ts fleetAvailability: the one definition,
 * domain/analytics/availability.ts, on each plant's hourly grid) for the demo fleet's shape: api/sim/fleet.ts
 * demoFleet(36) — 36 plants of 1–10 inverters and a sensor — with a month (31 days) of hourly rollups written straight
 * into rollup_hourly. Prints the median of 5 runs of fleetAvailability in this process and of the whole GET
 * /diagnose/ranking over HTTP (admin: every plant). Not a test: nothing passes or fails.
 *   npx tsx bench/ranking-availability.ts          SQLite; BENCH_STORE=postgres for PostgreSQL; BENCH_DAYS (default 31)
 */
import { openStore, type Store } from "../api/store/db";
import { availabilityGrid, fleetAvailability } from "../api/store/diagnose";
import { plantAvailability } from "../domain/analytics/availability";
import { demoFleet } from "../api/sim/fleet";
import { formatSeoul } from "../domain/seoul-time";
import { apiClient } from "../tests/helpers/http";
import { ADMIN_PASSWORD, startServer, type StoreKind } from "../tests/helpers/server";
import { createGatewayFixture } from "../tests/helpers/telemetry";
import { writeHourlyRollups } from "./seed-fleet";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const DAYS = Number(process.env.BENCH_DAYS ?? 31);
const HOUR = 3_600_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function poa(h: number): number {
  const local = (h + 9) % 24;
  if (local < 6 || local > 19) return 0;
  return 900 * Math.sin((Math.PI * (local - 6)) / 13);
}

async function seed(store: Store, inverters: number, kw: number, from: number) {
  const g = await createGatewayFixture(store, { inverters, capaKw: kw });
  await writeHourlyRollups(store, g, {
    from,
    hours: DAYS * 24,
    poa,
    inverterWh: (g0) => (kw / inverters) * g0 * 0.85,
    counterStart: 1e6,
    missing: (h, i) => (h * 7 + i) % 50 === 0, // a missing hour now and then
  });
  return g.plantUid;
}

async function main() {
  const server = await startServer({ store: STORE, env: { SIMULATE: "0", PORTAL_WORKERS: "0" }, timeoutMs: 180_000 });
  const store = await openStore(server.databaseUrl);
  try {
    const now = Date.now();
    const to = now - (now % HOUR);
    const from = to - DAYS * 24 * HOUR;
    const fleet = demoFleet(36);
    const uids: string[] = [];
    for (const p of fleet) uids.push(await seed(store, p.inverterKw.length, p.capaKw, from));
    const inverters = fleet.reduce((a, p) => a + p.inverterKw.length, 0);
    const direct: number[] = [];
    for (let i = 0; i < 5; i++) {
      const a = performance.now();
      const m = await fleetAvailability(store.db, uids, from, to);
      direct.push(performance.now() - a);
      if (m.size !== uids.length) throw new Error(`availability for ${m.size} of ${uids.length} plants`);
    }
    // Where the time goes: the grid's read and the figures, per plant.
    let readMs = 0;
    let figuresMs = 0;
    for (const [i, p] of fleet.entries()) {
      const invs = await store.db
        .selectFrom("device")
        .select(["uid"])
        .where("plant_uid", "=", uids[i]!)
        .where("kind", "=", 1)
        .execute();
      const a = performance.now();
      const grid = await availabilityGrid(
        store.db,
        uids[i]!,
        invs.map((d) => ({ uid: d.uid, capacityKw: p.capaKw / invs.length })),
        from,
        to,
        60,
      );
      const b = performance.now();
      plantAvailability(grid);
      figuresMs += performance.now() - b;
      readMs += b - a;
    }
    console.log(`split over the fleet: read ${readMs.toFixed(0)} ms, figures ${figuresMs.toFixed(0)} ms`);
    const token = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
    const q = new URLSearchParams({
      start: formatSeoul(from, "YYYY-MM-DD HH:mm:ss"),
      end: formatSeoul(to, "YYYY-MM-DD HH:mm:ss"),
    });
    const http: number[] = [];
    let plants = 0;
    for (let i = 0; i < 5; i++) {
      const a = performance.now();
      const res = await apiClient(server.baseUrl).call("GET", `/diagnose/ranking?${q}`, { token });
      http.push(performance.now() - a);
      plants = res.body.plants.length;
    }
    console.log(`${STORE}: ${fleet.length} plants, ${inverters} inverters, ${DAYS} days of hourly rollups`);
    console.log(
      `fleetAvailability: median ${median(direct).toFixed(0)} ms (${(median(direct) / fleet.length).toFixed(1)} ms per plant)`,
    );
    console.log(`GET /diagnose/ranking (${plants} plants in the answer): median ${median(http).toFixed(0)} ms`);
  } finally {
    await store.close();
    await server.stop();
  }
}

void main();
