/**
 * Event-loop delay of every server process (issue 31): while the demo's history is played in after start, and
 * briefly under load afterwards. Prints one row per process and phase: p99 and max of Node's event-loop delay
 * histogram (monitorEventLoopDelay, 10 ms resolution, preloaded by bench/event-loop-probe.mjs into the primary and
 * the portal processes), and the answer times of an API probe asked every 200 ms during the replay.
 *   npx tsx bench/event-loop.ts                        SQLite, 90 days of history
 *   BENCH_STORE=postgres npx tsx bench/event-loop.ts   the same on PostgreSQL
 *   HISTORY_DAYS=30 LOAD_SECONDS=5 npx tsx bench/event-loop.ts
 * Target: p99 ≤ 50 ms and max ≤ 200 ms in every process, during the replay and under load.
 * Not a test: nothing passes or fails.
 */
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient } from "../tests/helpers/http";
import { ADMIN_PASSWORD, startServer, type StoreKind } from "../tests/helpers/server";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const HISTORY_DAYS = process.env.HISTORY_DAYS ?? "90";
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "event-loop-probe.mjs");

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

const t0 = Date.now();
const server = await startServer({
  store: STORE,
  env: { SIMULATE: "1", HISTORY_DAYS, LOG_REQUESTS: "0" },
  nodeArgs: ["--import", PROBE],
  timeoutMs: 180_000,
});
const startS = (Date.now() - t0) / 1000;
const pids = () => [
  server.pid,
  ...execFileSync("pgrep", ["-P", String(server.pid)], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map(Number),
];
/** Ends a phase: every process prints its histogram since the last call and starts a new one. */
async function phase(): Promise<Map<number, string>> {
  const from = server.output().length;
  const all = pids();
  for (const pid of all) process.kill(pid, "SIGUSR2");
  const rows = new Map<number, string>();
  const deadline = Date.now() + 10_000;
  while (rows.size < all.length && Date.now() < deadline) {
    await new Promise((r) => setImmediate(r));
    for (const m of server
      .output()
      .slice(from)
      .matchAll(/^\[eld\] pid=(\d+) (.*)$/gm))
      rows.set(Number(m[1]), m[2]!);
    if (rows.size < all.length) await new Promise((r) => setTimeout(r, 50));
  }
  return rows;
}

const rowsOf = (name: string, rows: Map<number, string>) =>
  [...rows].map(([pid, r]) => {
    const f = Object.fromEntries([...r.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    return `| ${name} | ${f.role} ${pid} | ${f.p99} | ${f.max} | ${f.n} |`;
  });

try {
  await phase(); // start-up (migrations, seed) is not the serving path: the replay phase begins now
  const client = apiClient(server.baseUrl);
  const probes: number[] = [];
  const replayDone = () => /history played in ([\d.]+) s/.exec(server.output());
  const replayT0 = Date.now();
  while (!replayDone()) {
    const t = performance.now();
    await client.isAuth();
    probes.push(performance.now() - t);
    if (Date.now() - replayT0 > 20 * 60_000) throw new Error(`replay did not end in 20 min:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const replay = await phase();
  const { accessToken } = await client.session("admin", ADMIN_PASSWORD);
  const load = await autocannon({
    url: server.baseUrl,
    connections: 10,
    duration: LOAD_SECONDS,
    requests: [
      { method: "GET", path: "/api/monitor", headers: { authorization: `Bearer ${accessToken}`, "x-forwarded-for": client.ip } },
      { method: "GET", path: "/login" },
    ],
  });
  const loaded = await phase();
  const lines = [
    `Event-loop delay (bench/event-loop.ts, ${STORE}, HISTORY_DAYS=${HISTORY_DAYS}, ${new Date().toISOString().slice(0, 10)}, ` +
      `${os.cpus().length} cores, load average at end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")})`,
    `server ready (startServer returned) in ${startS.toFixed(1)} s; ${replayDone()![0]}`,
    `API probe during the replay (GET /api/member/isAuth every 200 ms, n=${probes.length}): ` +
      `p50 ${pct(probes, 50).toFixed(0)} ms, p99 ${pct(probes, 99).toFixed(0)} ms, max ${Math.max(...probes).toFixed(0)} ms`,
    `load: autocannon -c 10 ${LOAD_SECONDS} s on /api/monitor + /login: ${load.requests.average.toFixed(0)} req/s, ` +
      `p99 ${load.latency.p99} ms, errors ${load.errors}, non-2xx ${load.non2xx}`,
    "",
    "| phase | process | p99 delay (ms) | max delay (ms) | samples |",
    "|---|---|---|---|---|",
    ...rowsOf("replay", replay),
    ...rowsOf("load", loaded),
  ];
  console.log(lines.join("\n"));
} finally {
  await server.stop();
}
