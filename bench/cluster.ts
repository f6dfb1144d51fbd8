/**
 * Cluster benchmark (issue 18): one server against three behind HAProxy (deploy/haproxy.cfg), side by side
 * in one run on the same PostgreSQL, and the takeover time of the singleton work after a SIGKILL of its owner.
 *   npx tsx bench/cluster.ts                 (BENCH_WALLBOARDS=2000 BENCH_KILLS=10 BENCH_SECONDS=10 override)
 * For each setup (1 server, 3 servers; one process each, PORTAL_WORKERS=0, both behind HAProxy):
 *   1. HTTP ingest: 8 concurrent senders posting batches of 500 readings (2 inverters × 250 ten-minute slots, each
 *      batch a new gateway and new slots) through the balancer: rows/s stored.
 *   2. /pvstatus documents under autocannon (10 connections, signed in by cookie): documents/s, p99.
 *   3. Wallboards: the page's own poll (a Remix data request), each board every 6 s: p50/p99, errors.
 * Then, on the 3-server cluster: SIGKILL the alarm engine's owner BENCH_KILLS times (each victim is started
 * again) and time from the kill until another server's lease row says it owns the job (median, max).
 * Not a test: prints figures, nothing passes or fails.
 */
import os from "node:os";
import autocannon from "autocannon";
import { openStore, type Store } from "../api/store/db";
import { seedFoundation } from "../api/store/seed";
import { startCluster, type Cluster } from "../tests/helpers/cluster";
import { apiClient } from "../tests/helpers/http";
import { ADMIN_PASSWORD, createPgDatabase } from "../tests/helpers/server";
import { createGatewayFixture, gatewayAuth, type GatewayFixture } from "../tests/helpers/telemetry";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WALLBOARDS = Number(process.env.BENCH_WALLBOARDS ?? 2000);
const KILLS = Number(process.env.BENCH_KILLS ?? 10);
const GATEWAYS = 8;
const PLANTS = 200;

const fmt = (n: number, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function ingestRate(cluster: Cluster, gateways: GatewayFixture[], round: number): Promise<number> {
  let rows = 0;
  const until = Date.now() + SECONDS * 1000;
  // Readings sit on the 10-minute grid (the portal floors ts onto it), so a batch of 250 per inverter covers
  // 250 slots. Each batch goes to the next gateway in turn, and a gateway's k-th use in a round gets slots of
  // its own: every reading of the run is a new (device, slot), all of them in the past year.
  const start = Date.now() - 390 * 86_400_000;
  const base = start - (start % 600_000);
  let next = 0;
  await Promise.all(
    Array.from({ length: GATEWAYS }, async () => {
      while (Date.now() < until) {
        const n = next++;
        const g = gateways[n % gateways.length]!;
        const use = Math.floor(n / gateways.length);
        if (use >= 100) break;
        const first = (round * 100 + use) * 250;
        const readings = g.inverters.flatMap((device) =>
          Array.from({ length: 250 }, (_, i) => ({
            device,
            ts: base + (first + i) * 600_000,
            values: { iw: 1000 + i, today_wh: i, total_wh: 1e6 + i },
          })),
        );
        const res = await fetch(`${cluster.url}/api/ingest`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: gatewayAuth(g) },
          body: JSON.stringify({ readings }),
        });
        const body = (await res.json().catch(() => ({}))) as { accepted?: number };
        if (res.status === 200) rows += body.accepted ?? 0;
      }
    }),
  );
  return rows / SECONDS;
}

async function documents(cluster: Cluster, cookie: string) {
  const r = await autocannon({
    url: `${cluster.url}/pvstatus`,
    connections: 10,
    duration: SECONDS,
    headers: { cookie, "accept-encoding": "gzip" },
  });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function wallboards(cluster: Cluster, cookie: string) {
  const times: number[] = [];
  let errors = 0;
  const causes: Record<string, number> = {};
  const failed = (what: string) => ((causes[what] = (causes[what] ?? 0) + 1), errors++);
  const until = Date.now() + Math.max(SECONDS, 12) * 1000;
  const url = `${cluster.url}/pvstatus?_data=${encodeURIComponent("routes/_app.pvstatus")}`;
  await Promise.all(
    Array.from({ length: WALLBOARDS }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * 6_000) / WALLBOARDS));
      while (Date.now() < until) {
        const t = performance.now();
        try {
          const res = await fetch(url, { headers: { cookie, "accept-encoding": "gzip" } });
          await res.arrayBuffer();
          if (res.status === 200) times.push(performance.now() - t);
          else failed(`HTTP ${res.status}`);
        } catch (error) {
          const e = error as Error & { cause?: { code?: string; message?: string } };
          failed(e.cause?.code ?? e.cause?.message ?? e.name);
        }
        await new Promise((r) => setTimeout(r, 6_000));
      }
    }),
  );
  return { polls: times.length, p50: pct(times, 50), p99: pct(times, 99), errors, causes };
}

async function takeovers(cluster: Cluster, store: Store): Promise<number[]> {
  const times: number[] = [];
  const restarts: Promise<void>[] = [];
  for (let k = 0; k < KILLS; k++) {
    while (cluster.up().length < 2) await new Promise((r) => setTimeout(r, 200));
    const before = await store.db
      .selectFrom("cluster_lease")
      .selectAll()
      .where("name", "=", "alarm-engine/0")
      .executeTakeFirstOrThrow();
    const victim = cluster.nodes.find((n) => n.id === before.owner && n.server);
    if (!victim) {
      await new Promise((r) => setTimeout(r, 500));
      k--;
      continue;
    }
    const t = performance.now();
    await cluster.kill(victim);
    for (;;) {
      const now = await store.db
        .selectFrom("cluster_lease")
        .selectAll()
        .where("name", "=", "alarm-engine/0")
        .executeTakeFirstOrThrow();
      if (now.token > before.token && now.owner !== victim.id) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    times.push(performance.now() - t);
    console.log(`  kill ${k + 1}: ${victim.id} → taken over in ${fmt(times.at(-1)!)} ms`);
    restarts.push(cluster.restart(victim));
  }
  await Promise.all(restarts);
  return times;
}

const db = await createPgDatabase();
const setup = await openStore(db.url);
await seedFoundation(setup, { adminPassword: ADMIN_PASSWORD });
const gateways: GatewayFixture[] = [];
for (let i = 0; i < PLANTS; i++) gateways.push(await createGatewayFixture(setup, { inverters: 2 }));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(
  `cluster bench: ${PLANTS} plants, ${GATEWAYS} ingesting senders, ${WALLBOARDS} wallboards, ${SECONDS} s per figure; ${os.cpus().length} cores, load average ${load()}`,
);
const results: Array<{
  servers: number;
  ingest: number;
  docs: Awaited<ReturnType<typeof documents>>;
  walls: Awaited<ReturnType<typeof wallboards>>;
}> = [];
let takeoverTimes: number[] = [];
try {
  for (const [round, servers] of [1, 3].entries()) {
    const cluster = await startCluster({ databaseUrl: db.url, servers, env: { ALARM_INTERVAL_MS: "30000" } });
    try {
      const t = await apiClient(cluster.url).session("admin", ADMIN_PASSWORD);
      const cookie = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1`;
      const ingest = await ingestRate(cluster, gateways, round);
      const docs = await documents(cluster, cookie);
      const walls = await wallboards(cluster, cookie);
      results.push({ servers, ingest, docs, walls });
      console.log(
        `${servers} server(s) [load ${load()}]: ingest ${fmt(ingest)} rows/s; /pvstatus ${fmt(docs.rps, 1)} documents/s (p99 ${docs.p99} ms, ${docs.errors} errors); ${WALLBOARDS} wallboards p50 ${fmt(walls.p50)} ms p99 ${fmt(walls.p99)} ms over ${walls.polls} polls, ${walls.errors} errors ${JSON.stringify(walls.causes)}`,
      );
      if (servers === 3) takeoverTimes = await takeovers(cluster, setup);
    } finally {
      await cluster.stop();
    }
  }
} finally {
  await setup.close();
  await db.drop();
}
const sorted = [...takeoverTimes].sort((a, b) => a - b);
console.log(
  `takeover after SIGKILL of the alarm engine's owner: median ${fmt(pct(sorted, 50))} ms, max ${fmt(sorted.at(-1) ?? NaN)} ms over ${sorted.length} kills; load average at the end ${load()}`,
);
