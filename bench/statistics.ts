/**
 * Statistics report benchmarks (issue 16): prints figures (record them in bench/README.md by hand).
 *   npx tsx bench/statistics.ts            SQLite; BENCH_STORE=postgres for PostgreSQL
 * What it measures, against one real server process (server.ts from build/), with a year of rollups of
 * 100 inverters (10 plants × 10 inverters + a sensor each) written straight into rollup_hourly/rollup_daily:
 *   1. the one-year daily integrated report (GET /api/rpi/statistics/group/plant?unit=day): one call's time,
 *      then autocannon at 20 connections on the API call and on the whole /statistics document;
 *   2. the XLSX export of a year at unit 60 for the 100 inverters (876,000 steps × 8 columns ≈ 7 M cells
 *      — the "≈ 876,000 cells" counts steps), in this process through the same code as the API
 *      (api/statistics/export.ts) into a byte counter: seconds, bytes, and the peak RSS of this process.
 *   3. the same export through the API (GET /api/statistics/export), XLSX and CSV, with the API process's CPU
 *      seconds and RSS read from /proc.
 * The one-call figures are also given for the call the page makes (offset/limit: one page of rows, and the
 * chart's series). Not a test: nothing passes or fails. BENCH_SECONDS (default 10) per autocannon run;
 * BENCH_XLSX=0 skips the exports; BENCH_DATA_DIR=<dir> (SQLite) keeps the seeded database there and reuses it;
 * BENCH_ONLY=exports runs section 2 alone (the server at rest: no document or API runs before the exports);
 * BENCH_ONLY=document runs the document's runs of section 1 alone (one request, then 20 connections).
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server's processes there (`node --cpu-prof`; profile the
 * in-process export by running this file with `node --cpu-prof --import tsx bench/statistics.ts`).
 */
import autocannon from "autocannon";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { openStore, type Store } from "../api/store/db";
import { prepareReport } from "../api/statistics/report";
import { writeXlsx } from "../api/statistics/export";
import { seoulDayStart, formatSeoul } from "../domain/seoul-time";
import type { AccessClaims } from "../domain/contract/auth";
import { ADMIN_PASSWORD, startServer, type StoreKind } from "../tests/helpers/server";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const PLANTS = 10;
const PER_PLANT = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Calls before a one-call measure is taken. */
const WARM = 5;

const fmt = (n: number, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });

export async function seed(store: Store, yearStart: number, days: number) {
  const now = Date.now();
  const tag = randomBytes(2).toString("hex").toUpperCase();
  const root = await store.db
    .selectFrom("node")
    .select("seq")
    .where("parent_seq", "is", null)
    .orderBy("seq")
    .executeTakeFirstOrThrow();
  const inverters: string[] = [];
  const sensors: string[] = [];
  for (let p = 0; p < PLANTS; p++) {
    const plant = `SP${tag}${p}`;
    await store.db
      .insertInto("plant")
      .values({
        uid: plant,
        name: `통계 벤치 발전소 ${p + 1}호`,
        alias: null,
        capa: PER_PLANT * 10_000,
        locality: "전라남도 해남군",
        address: null,
        lat: 34.57,
        lng: 126.6,
        node_seq: root.seq,
        package_seq: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const devs = Array.from({ length: PER_PLANT }, (_, k) => ({
      uid: `SD${tag}${p}I${k}`,
      rtu_uid: null,
      plant_uid: plant,
      kind: 1,
      name: `인버터 ${k + 1}`,
      address: k + 1,
      capa: 10_000,
      use_yn: 1,
      created_at: now,
      updated_at: now,
    }));
    const sensor = {
      uid: `SD${tag}${p}E`,
      rtu_uid: null,
      plant_uid: plant,
      kind: 4,
      name: "기상",
      address: 99,
      capa: null,
      use_yn: 1,
      created_at: now,
      updated_at: now,
    };
    await store.db
      .insertInto("device")
      .values([...devs, sensor])
      .execute();
    inverters.push(...devs.map((d) => d.uid));
    sensors.push(sensor.uid);
  }
  // A year of hourly and daily rollups, as ingest would have left them.
  const sunAt = (h: number) => Math.max(0, Math.sin(((h - 6) / 13) * Math.PI));
  for (let d = 0; d < days; d++) {
    const day = yearStart + d * DAY;
    const hourly: Array<Record<string, number | string | null>> = [];
    const daily: Array<Record<string, number | string | null>> = [];
    for (const uid of [...inverters, ...sensors]) {
      const inverter = !uid.endsWith("E");
      let e = 0;
      let iis = 0;
      for (let h = 0; h < 24; h++) {
        const sun = sunAt(h) * (0.7 + 0.3 * Math.sin(d / 7));
        const w = 100_000 * 0.8 * sun;
        e += inverter ? w : 0;
        iis += inverter ? 0 : 900 * sun;
        hourly.push({
          device_uid: uid,
          hour_ts: day + h * HOUR,
          kind: inverter ? 1 : 4,
          samples: 6,
          energy_wh: inverter ? w : null,
          avg_w: inverter ? w : null,
          max_w: inverter ? w * 1.05 : null,
          his_wh: inverter ? null : 800 * sun,
          iis_wh: inverter ? null : 900 * sun,
          avg_sts: inverter ? null : 25,
          avg_ats: inverter ? null : 15,
          max_today_wh: null,
          max_total_wh: null,
        });
      }
      daily.push({
        device_uid: uid,
        day_ts: day,
        kind: inverter ? 1 : 4,
        samples: 144,
        energy_wh: inverter ? e : null,
        max_w: inverter ? 84_000 : null,
        his_wh: inverter ? null : iis * 0.9,
        iis_wh: inverter ? null : iis,
        avg_sts: inverter ? null : 25,
        avg_ats: inverter ? null : 15,
        total_wh: null,
      });
    }
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < hourly.length; i += 500)
        await trx
          .insertInto("rollup_hourly")
          .values(hourly.slice(i, i + 500) as never)
          .execute();
      await trx
        .insertInto("rollup_daily")
        .values(daily as never)
        .execute();
    });
  }
}

/** Resident memory and CPU time (user + system) of a process, from /proc (Linux). */
function procStats(pid: number): { rss: number; cpu: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    return { rss, cpu: ticks / 100 };
  } catch {
    return null;
  }
}

/** CPU seconds of the server: the API process and its portal worker(s) (its child processes). */
function serverCpu(pid: number): { api: number; portal: number } {
  let portal = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      if (Number(fields[1]) === pid) portal += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return { api: procStats(pid)?.cpu ?? NaN, portal };
}

/** CPU milliseconds per request of an autocannon run, in the API process and in the portal process. */
async function cannon(opts: Parameters<typeof autocannon>[0], pid: number) {
  // Warm-up (not measured), as bench/alarm.ts: V8 optimises a function only after many calls, and a portal serves
  // for days; the figure is of processes that have answered a thousand of these requests.
  const { duration: _measured, ...warm } = opts;
  await autocannon({ ...warm, amount: 1_000 });
  const before = serverCpu(pid);
  const run = await autocannon(opts);
  const after = serverCpu(pid);
  const n = Math.max(1, run.requests.total);
  const per = `CPU per request: API ${fmt(((after.api - before.api) * 1000) / n, 1)} ms, portal ${fmt(((after.portal - before.portal) * 1000) / n, 1)} ms`;
  return { run, per };
}

/** Downloads an export through the API into a byte counter, sampling the API process's memory meanwhile. */
async function httpExport(url: string, token: string, pid: number) {
  const before = procStats(pid);
  let peak = before?.rss ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, procStats(pid)?.rss ?? 0)), 20);
  const t = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`export ${res.status} ${(await res.text()).slice(0, 200)}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const secs = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const after = procStats(pid);
  return { secs, bytes, peak, before: before?.rss ?? 0, cpu: after && before ? after.cpu - before.cpu : NaN };
}

async function main() {
  console.log(
    `statistics bench on ${STORE} — ${PLANTS} plants × ${PER_PLANT} inverters, a year of rollups; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  // BENCH_DATA_DIR (SQLite): keep the seeded database there and reuse it on the next run (no 20-s seeding).
  const keep = STORE === "sqlite" ? process.env.BENCH_DATA_DIR : undefined;
  const reuse = Boolean(keep && existsSync(path.join(keep, "portal.db")));
  if (keep) mkdirSync(keep, { recursive: true });
  const server = await startServer({
    store: STORE,
    env: { PORTAL_WORKERS: "1" },
    timeoutMs: 180_000,
    ...(process.env.BENCH_CPU_PROF
      ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] }
      : {}),
    ...(keep ? { reuse: { dataDir: keep, databaseUrl: `file:${path.join(keep, "portal.db")}` } } : {}),
  });
  const store = await openStore(server.databaseUrl);
  try {
    const today = seoulDayStart(Date.now());
    // A kept database is reused only when it holds the seeded year (a failed server start removes its data directory).
    const seeded = reuse
      ? await store.db
          .selectFrom("rollup_daily")
          .select(({ fn }) => [fn.min("day_ts").as("first"), fn.countAll().as("n")])
          .executeTakeFirst()
      : undefined;
    const fresh = !seeded || Number(seeded.n) < 40_150;
    const yearStart = fresh ? today - 365 * DAY : Number(seeded!.first);
    if (fresh) {
      const t0 = performance.now();
      await seed(store, yearStart, 365);
      console.log(`seeded 876,000 hourly and 40,150 daily rollup rows in ${fmt((performance.now() - t0) / 1000, 1)} s`);
    } else console.log(`reusing the seeded database in ${keep}`);
    const start = formatSeoul(yearStart, "YYYY-MM-DD");
    const end = formatSeoul(yearStart + 364 * DAY, "YYYY-MM-DD");

    const login = await fetch(`${server.baseUrl}/api/member/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "admin", password: ADMIN_PASSWORD }),
    });
    const tokens = (await login.json()) as { accessToken: string; refreshToken: string; sessionId: string };
    const auth = { authorization: `Bearer ${tokens.accessToken}` };
    const apiUrl = `${server.baseUrl}/api/rpi/statistics/group/plant?unit=day&start=${start}&end=${end}`;
    // BENCH_ONLY=exports: the exports alone, on a server at rest after the seeding (section 1 grows its heap).
    if (process.env.BENCH_ONLY !== "exports") {
      const oneCall = async (urlOf: (i: number) => string, headers: Record<string, string>, n: number) => {
        const times: number[] = [];
        let size = 0;
        // The first calls warm the caches and the JIT (on a loaded machine one is not enough).
        let cpu0 = serverCpu(server.pid);
        for (let i = 0; i < n + WARM; i++) {
          if (i === WARM) cpu0 = serverCpu(server.pid);
          const url = urlOf(i);
          const t = performance.now();
          const res = await fetch(url, { headers });
          const body = await res.text();
          times.push(performance.now() - t);
          size = body.length;
          if (res.status !== 200) throw new Error(`${url} ${res.status} ${body.slice(0, 200)}`);
        }
        const cpu1 = serverCpu(server.pid);
        times.splice(0, WARM);
        // CPU per call of the API process and the portal (a loaded machine inflates wall time, much less CPU time).
        const cpu = `CPU/call API ${fmt(((cpu1.api - cpu0.api) * 1000) / n, 1)} ms, portal ${fmt(((cpu1.portal - cpu0.portal) * 1000) / n, 1)} ms`;
        return { median: times.sort((a, b) => a - b)[Math.floor(n / 2)]!, size, cpu };
      };
      // Computed, not answered from the report cache: every call a period of its own (the year ending 1…10 days
      // earlier: the same work, 3,640 rows or so). A server without the cache computes every call anyway.
      const missUrl = (i: number) =>
        `${server.baseUrl}/api/rpi/statistics/group/plant?unit=day&start=${formatSeoul(yearStart - (i + 1) * DAY, "YYYY-MM-DD")}&end=${formatSeoul(yearStart + (363 - i) * DAY, "YYYY-MM-DD")}`;
      const docOnly = process.env.BENCH_ONLY === "document";
      if (!docOnly) {
        const miss = await oneCall(missUrl, auth, 5);
        console.log(
          `1. one-year daily integrated report, one call computed (a period of its own each call): median of 5 after ${WARM} warm-up calls ${fmt(miss.median, 1)} ms (${fmt(miss.size / 1024)} KB JSON); ${miss.cpu}`,
        );
        const one = await oneCall(() => apiUrl, auth, 5);
        console.log(
          `   the same period asked again: median of 5 after ${WARM} warm-up calls ${fmt(one.median, 1)} ms (${fmt(one.size / 1024)} KB JSON, 3,650 rows); ${one.cpu}`,
        );
        const pageMiss = await oneCall((i) => `${missUrl(i + 20)}&offset=0&limit=100&series=1`, auth, 5);
        const pageApi = await oneCall(() => `${apiUrl}&offset=0&limit=100&series=1`, auth, 5);
        console.log(
          `   as the page asks for it (offset=0&limit=100&series=1): computed ${fmt(pageMiss.median, 1)} ms (${pageMiss.cpu}), asked again ${fmt(pageApi.median, 1)} ms (${pageApi.cpu}; ${fmt(pageApi.size / 1024)} KB JSON)`,
        );

        const { run: apiRun, per: apiPer } = await cannon(
          { url: apiUrl, connections: 20, duration: SECONDS, timeout: 30, headers: auth },
          server.pid,
        );
        console.log(
          `   API at 20 connections: ${fmt(apiRun.requests.average, 1)} req/s, p50 ${apiRun.latency.p50} ms, p99 ${apiRun.latency.p99} ms, ${apiRun.requests.total} done, errors ${apiRun.errors}, timeouts ${apiRun.timeouts}, non-2xx ${apiRun.non2xx}; ${apiPer}`,
        );
      }
      let cookie = `accessToken=${tokens.accessToken}; refreshToken=${tokens.refreshToken}; sessionId=${tokens.sessionId}; NewAppOpenPop=1`;
      // Keep what the first page sets (the CSRF cookie), as a browser does (and bench/alarm.ts): otherwise every page
      // would mint and sign a new token, which no browser makes the portal do.
      const first = await fetch(`${server.baseUrl}/statistics`, { headers: { cookie } });
      await first.arrayBuffer();
      for (const set of first.headers.getSetCookie()) cookie += `; ${set.split(";")[0]}`;
      const pageUrl = `${server.baseUrl}/statistics?period=custom&start=${start}&end=${end}&unit=day`;
      const docMiss = await oneCall(
        (i) =>
          `${server.baseUrl}/statistics?period=custom&start=${formatSeoul(yearStart - (i + 40) * DAY, "YYYY-MM-DD")}&end=${formatSeoul(yearStart + (324 - i) * DAY, "YYYY-MM-DD")}&unit=day`,
        { cookie },
        3,
      );
      const doc = await oneCall(() => pageUrl, { cookie }, 3);
      console.log(
        `   document, one request: median of 3 after ${WARM} warm-up requests: report computed ${fmt(docMiss.median, 1)} ms (${docMiss.cpu}), asked again ${fmt(doc.median, 1)} ms (${doc.cpu}; ${fmt(doc.size / 1024)} KB HTML)`,
      );
      const { run: docRun, per: docPer } = await cannon(
        { url: pageUrl, connections: 20, duration: SECONDS, timeout: 30, headers: { cookie, "accept-encoding": "br, gzip" } },
        server.pid,
      );
      console.log(
        `   document at 20 connections: ${fmt(docRun.requests.average, 1)} req/s, p50 ${docRun.latency.p50} ms, p99 ${docRun.latency.p99} ms, ${docRun.requests.total} done, errors ${docRun.errors}, timeouts ${docRun.timeouts}, non-2xx ${docRun.non2xx}; ${docPer}`,
      );
      console.log(
        `   load average now ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
    }
    if (process.env.BENCH_XLSX === "0") return;

    // 2. A year at unit 60 for the 100 inverters (876,000 steps × 8 columns).
    //    a. XLSX in this process through the export code (api/statistics/export.ts) into a byte counter: seconds,
    //       bytes, CPU seconds of this process, its peak RSS and the rise above the RSS before the export.
    const claims = { id: "admin", service: 0, scope: undefined } as unknown as AccessClaims;
    global.gc?.();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const before = process.memoryUsage().rss;
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    const p = await prepareReport(store.db, claims, "inverter", { unit: "60", start, end, sunRise: false }, Date.now(), "fleet");
    let bytes = 0;
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        bytes += chunk.length;
        cb();
      },
    });
    await writeXlsx(store.db, p, "ko", sink, "admin", Date.now());
    const secs = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    console.log(
      `2a. XLSX export in the bench process, a year at unit 60, 100 inverters (876,000 rows): ${fmt(secs, 1)} s (CPU ${fmt((cpu.user + cpu.system) / 1e6, 1)} s), ${fmt(bytes / 1e6, 1)} MB, peak RSS ${fmt(peak / 1e6)} MB (${fmt((peak - before) / 1e6)} MB above the start)`,
    );

    //    b. The same through the API (GET /api/statistics/export), downloaded by fetch: seconds, bytes, and the
    //       API process's CPU seconds and RSS (before, and the peak while exporting).
    for (const format of ["xlsx", "csv"] as const) {
      const url = `${server.baseUrl}/api/statistics/export?report=inverter&format=${format}&unit=60&start=${start}&end=${end}`;
      const r = await httpExport(url, tokens.accessToken, server.pid);
      console.log(
        `2b. ${format.toUpperCase()} export through the API: ${fmt(r.secs, 1)} s (API process CPU ${fmt(r.cpu, 1)} s), ${fmt(r.bytes / 1e6, 1)} MB, API process RSS ${fmt(r.before / 1e6)} MB before, peak ${fmt(r.peak / 1e6)} MB`,
      );
    }
    console.log(
      `   load average now ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    await store.close();
    await server.stop(keep ? { keepData: true } : {});
  }
}

// Run as a script (not when bench/ scripts import `seed`).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
