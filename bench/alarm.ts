/**
 * Alarm benchmarks (issue 14): prints figures (record them in bench/README.md by hand).
 *   npx tsx bench/alarm.ts                 SQLite; BENCH_STORE=postgres for PostgreSQL
 * Against one real server process (server.ts from build/), with 1,000 plants (2 inverters each) and a year of
 * alarm history (ALARMS, default 200,000, spread over the year; the last day's alarms partly still open and
 * partly acknowledged), written straight into the alarm table as the engine would have left it:
 *   1. GET /api/alarm for a month over the whole fleet (the first page of 50, with the per-level counts):
 *      one call's median, against the cheapest authenticated call measured in the same run; and the scope
 *      picker's name search (GET /api/alarm/scope?q=…, what the /alarm page asks instead of listing every plant);
 *   2. the /alarm document (today, whole fleet) at 20 connections (autocannon): req/s and p99;
 *   3. the /alarm document for a month at 20 connections.
 * BENCH_HOLD=1 skips the measurements and keeps the seeded server running (its URLs and an admin token printed)
 * until Ctrl-C, for profiling queries with EXPLAIN on the seeded store.
 * BENCH_CPU_PROF=<dir> runs the server under `node --cpu-prof` (its portal worker inherits the flag): each process
 * writes a .cpuprofile into <dir> when the bench stops it (open in Chrome DevTools, or summarise with
 * `npx tsx bench/cpuprofile-top.ts <file>`).
 * Beside each document run, the CPU time its processes spent per page (/proc, user + system): the portal worker that
 * renders and the primary that answers /api. On a shared machine req/s and latency follow the load; CPU per page
 * much less so, which makes it the figure to compare before and after.
 * Not a test: nothing passes or fails.
 */
import autocannon from "autocannon";
import { sql } from "kysely";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { openStore } from "../api/store/db";
import { formatSeoul, seoulDayStart } from "../domain/seoul-time";
import { ADMIN_PASSWORD, startServer, type StoreKind } from "../tests/helpers/server";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PLANTS = 1_000;
const ALARMS = Number(process.env.ALARMS ?? 200_000);
const DAY = 86_400_000;
const TAG = randomBytes(2).toString("hex").toUpperCase();
const CODES = [1000001, 1000003, 1000004, 1000006] as const;
const LEVEL: Record<number, number> = { 1000001: 3, 1000003: 4, 1000004: 2, 1000006: 1 };

const fmt = (n: number, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });
/** CPU time (user + system, ms) a process has used, from /proc (Linux; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15)
}
/** Pids of a process's children (the portal workers of the primary). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  console.log(`alarm bench on ${STORE}: ${fmt(PLANTS)} plants, ${fmt(ALARMS)} alarms over a year`);
  const prof = process.env.BENCH_CPU_PROF;
  const server = await startServer({
    store: STORE,
    env: { PORTAL_WORKERS: "1" },
    timeoutMs: 180_000,
    nodeArgs: prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [],
  });
  const store = await openStore(server.databaseUrl);
  try {
    const t0 = performance.now();
    const now = Date.now();
    const root = await store.db
      .selectFrom("node")
      .select("seq")
      .where("parent_seq", "is", null)
      .orderBy("seq")
      .executeTakeFirstOrThrow();
    const plants = Array.from({ length: PLANTS }, (_, p) => ({
      uid: `AB${TAG}${p}`,
      name: `알람 벤치 발전소 ${p + 1}호`,
      alias: null,
      capa: 10_000,
      locality: "경상북도 상주시",
      address: null,
      lat: 36.4,
      lng: 128.1,
      node_seq: root.seq,
      package_seq: null,
      created_at: now,
      updated_at: now,
    }));
    const devices = plants.flatMap((p) =>
      [1, 2].map((k) => ({
        uid: `${p.uid}I${k}`,
        rtu_uid: null,
        plant_uid: p.uid,
        kind: 1,
        name: `인버터 ${k}`,
        address: k,
        capa: 5_000,
        use_yn: 1,
        created_at: now,
        updated_at: now,
      })),
    );
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < plants.length; i += 200)
        await trx
          .insertInto("plant")
          .values(plants.slice(i, i + 200))
          .execute();
      for (let i = 0; i < devices.length; i += 200)
        await trx
          .insertInto("device")
          .values(devices.slice(i, i + 200))
          .execute();
    });
    // A year of alarms, evenly spread; an alarm lasts 10 min – 3 h; the newest 0.5 % are still open, a third of
    // those acknowledged with a note.
    const span = 365 * DAY;
    const rows = Array.from({ length: ALARMS }, (_, i) => {
      const raised = now - span + Math.floor((i / ALARMS) * span);
      const code = CODES[i % CODES.length]!;
      const d = devices[(i * 7919) % devices.length]!;
      const open = i >= ALARMS * 0.995;
      const acked = open && i % 3 === 0;
      return {
        plant_uid: d.plant_uid,
        rtu_uid: null,
        device_uid: d.uid,
        code,
        level: LEVEL[code]!,
        fault_code: code === 1000006 ? 2 : null,
        message: "bench",
        raised_at: raised,
        released_at: open ? null : raised + 600_000 + (i % 18) * 600_000,
        ack_by: acked ? "admin" : null,
        ack_at: acked ? raised + 60_000 : null,
        ack_note: acked ? "점검 예정" : null,
      };
    });
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto("alarm")
          .values(rows.slice(i, i + 500))
          .execute();
    });
    // A table in service has been vacuumed and analysed by autovacuum (which starts on such a load within a
    // minute): do it now rather than measure plans made without statistics and index-only scans that must still
    // visit every heap page. SQLite keeps no statistics (the portal never runs ANALYZE there).
    if (STORE === "postgres") await sql`vacuum (analyze) plant, device, alarm`.execute(store.db);
    console.log(
      `seeded ${fmt(PLANTS)} plants, ${fmt(devices.length)} devices and ${fmt(ALARMS)} alarms in ${fmt((performance.now() - t0) / 1000, 1)} s`,
    );

    const login = await fetch(`${server.baseUrl}/api/member/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "admin", password: ADMIN_PASSWORD }),
    });
    const tokens = (await login.json()) as { accessToken: string; refreshToken: string; sessionId: string };
    const auth = { authorization: `Bearer ${tokens.accessToken}` };
    if (process.env.BENCH_HOLD === "1") {
      console.log(
        `holding: ${server.baseUrl} ${server.databaseUrl}\ntoken ${tokens.accessToken}\ncookie accessToken=${tokens.accessToken}; refreshToken=${tokens.refreshToken}; sessionId=${tokens.sessionId}; NewAppOpenPop=1`,
      );
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      return;
    }
    const timed = async (what: string, url: string, note: (body: any) => string) => {
      const times: number[] = [];
      let last = "";
      for (let i = 0; i < 12; i++) {
        const t = performance.now();
        const res = await fetch(url, { headers: auth });
        const text = await res.text();
        times.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
        last = note(JSON.parse(text));
      }
      times.shift(); // the first call warms the caches
      console.log(`${what}: median ${fmt(median(times), 1)} ms of ${times.length} calls (${last})`);
    };
    const today = seoulDayStart(now);
    const monthStart = formatSeoul(today - 30 * DAY, "YYYY-MM-DD");
    const todayText = formatSeoul(today, "YYYY-MM-DD");
    await timed("0. baseline: GET /api/member", `${server.baseUrl}/api/member`, () => "for scale");
    await timed(
      "1. GET /api/alarm, a month over the whole fleet (page 1 of 50)",
      `${server.baseUrl}/api/alarm?start=${monthStart}&end=${todayText}&size=50`,
      (b) => `${fmt(b.total ?? 0)} alarms in the month, ${b.alarmList.length} on the page`,
    );
    await timed(
      "1b. GET /api/alarm/scope, plants and groups named like '벤치 발전소 12'",
      `${server.baseUrl}/api/alarm/scope?q=${encodeURIComponent("벤치 발전소 12")}`,
      (b) => `${b.matches.plants.length} plants${b.matches.more ? " and more" : ""}`,
    );

    let cookie = `accessToken=${tokens.accessToken}; refreshToken=${tokens.refreshToken}; sessionId=${tokens.sessionId}; NewAppOpenPop=1`;
    // Keep what the first page sets (the CSRF cookie), as a browser does: otherwise every page would mint and sign a
    // new token, which no browser makes the portal do.
    const first = await fetch(`${server.baseUrl}/alarm`, { headers: { cookie } });
    await first.arrayBuffer();
    for (const set of first.headers.getSetCookie()) cookie += `; ${set.split(";")[0]}`;
    for (const [label, url] of [
      ["2. /alarm document, today, whole fleet", `${server.baseUrl}/alarm`],
      ["3. /alarm document, a month, whole fleet", `${server.baseUrl}/alarm?start=${monthStart}&end=${todayText}`],
    ] as const) {
      const probe = await fetch(url, { headers: { cookie } });
      const html = await probe.text();
      if (probe.status !== 200) throw new Error(`${label}: ${probe.status}`);
      // Warm-up (not measured): the first pages of a process pay for compiling the code they run, and V8 optimises
      // a function only after many calls — 40 pages left the first measured run paying for it (its p99 ~40 ms above
      // the next run's). A portal process serves for days; the figure is of one that has served a thousand pages.
      await autocannon({ url, connections: 20, amount: 1_000, headers: { cookie, "accept-encoding": "br, gzip" } });
      const workers = childrenOf(server.pid);
      const cpu0 = { primary: cpuMs(server.pid), portal: workers.reduce((sum, pid) => sum + cpuMs(pid), 0) };
      const run = await autocannon({
        url,
        connections: 20,
        duration: SECONDS,
        headers: { cookie, "accept-encoding": "br, gzip" },
      });
      console.log(
        `${label} at 20 connections: ${fmt(run.requests.average)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, errors ${run.errors}, non-2xx ${run.non2xx} (${fmt(html.length / 1024)} KB HTML)`,
      );
      const pages = run.requests.total;
      const portalMs = workers.reduce((sum, pid) => sum + cpuMs(pid), 0) - cpu0.portal;
      console.log(
        `   CPU per page: portal worker ${fmt(portalMs / pages, 1)} ms, primary (/api) ${fmt((cpuMs(server.pid) - cpu0.primary) / pages, 1)} ms (${fmt(pages)} pages)`,
      );
    }
  } finally {
    await store.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
