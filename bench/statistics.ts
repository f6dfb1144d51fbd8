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
 * Not a test: nothing passes or fails. BENCH_SECONDS (default 10) per autocannon run; BENCH_XLSX=0 skips part 2.
 */
import autocannon from "autocannon";
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
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

const fmt = (n: number, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });

async function seed(store: Store, yearStart: number, days: number) {
  const now = Date.now();
  const tag = randomBytes(2).toString("hex").toUpperCase();
  const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).orderBy("seq").executeTakeFirstOrThrow();
  const inverters: string[] = [];
  const sensors: string[] = [];
  for (let p = 0; p < PLANTS; p++) {
    const plant = `SP${tag}${p}`;
    await store.db.insertInto("plant").values({
      uid: plant, name: `통계 벤치 발전소 ${p + 1}호`, alias: null, capa: PER_PLANT * 10_000, locality: "전라남도 해남군", address: null,
      lat: 34.57, lng: 126.6, node_seq: root.seq, package_seq: null, created_at: now, updated_at: now,
    }).execute();
    const devs = Array.from({ length: PER_PLANT }, (_, k) => ({
      uid: `SD${tag}${p}I${k}`, rtu_uid: null, plant_uid: plant, kind: 1, name: `인버터 ${k + 1}`, address: k + 1, capa: 10_000, use_yn: 1, created_at: now, updated_at: now,
    }));
    const sensor = { uid: `SD${tag}${p}E`, rtu_uid: null, plant_uid: plant, kind: 4, name: "기상", address: 99, capa: null, use_yn: 1, created_at: now, updated_at: now };
    await store.db.insertInto("device").values([...devs, sensor]).execute();
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
          device_uid: uid, hour_ts: day + h * HOUR, kind: inverter ? 1 : 4, samples: 6,
          energy_wh: inverter ? w : null, avg_w: inverter ? w : null, max_w: inverter ? w * 1.05 : null,
          his_wh: inverter ? null : 800 * sun, iis_wh: inverter ? null : 900 * sun, avg_sts: inverter ? null : 25, avg_ats: inverter ? null : 15,
          max_today_wh: null, max_total_wh: null,
        });
      }
      daily.push({
        device_uid: uid, day_ts: day, kind: inverter ? 1 : 4, samples: 144, energy_wh: inverter ? e : null, max_w: inverter ? 84_000 : null,
        his_wh: inverter ? null : iis * 0.9, iis_wh: inverter ? null : iis, avg_sts: inverter ? null : 25, avg_ats: inverter ? null : 15, total_wh: null,
      });
    }
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < hourly.length; i += 500) await trx.insertInto("rollup_hourly").values(hourly.slice(i, i + 500) as never).execute();
      await trx.insertInto("rollup_daily").values(daily as never).execute();
    });
  }
}

async function main() {
  console.log(`statistics bench on ${STORE} — ${PLANTS} plants × ${PER_PLANT} inverters, a year of rollups`);
  const server = await startServer({ store: STORE, env: { PORTAL_WORKERS: "1" }, timeoutMs: 180_000 });
  const store = await openStore(server.databaseUrl);
  try {
    const today = seoulDayStart(Date.now());
    const yearStart = today - 365 * DAY;
    const t0 = performance.now();
    await seed(store, yearStart, 365);
    console.log(`seeded 876,000 hourly and 40,150 daily rollup rows in ${fmt((performance.now() - t0) / 1000, 1)} s`);
    const start = formatSeoul(yearStart, "YYYY-MM-DD");
    const end = formatSeoul(today - DAY, "YYYY-MM-DD");

    const login = await fetch(`${server.baseUrl}/api/member/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "admin", password: ADMIN_PASSWORD }) });
    const tokens = (await login.json()) as { accessToken: string; refreshToken: string; sessionId: string };
    const apiUrl = `${server.baseUrl}/api/rpi/statistics/group/plant?unit=day&start=${start}&end=${end}`;
    const one: number[] = [];
    let size = 0;
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      const res = await fetch(apiUrl, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      const body = await res.text();
      one.push(performance.now() - t);
      size = body.length;
      if (res.status !== 200) throw new Error(`report ${res.status} ${body.slice(0, 200)}`);
    }
    one.shift(); // the first call warms the caches
    console.log(`1. one-year daily integrated report, one call: median ${fmt(one.sort((a, b) => a - b)[2]!, 1)} ms (${fmt(size / 1024)} KB JSON, 3,650 rows)`);

    const apiRun = await autocannon({ url: apiUrl, connections: 20, duration: SECONDS, timeout: 30, headers: { authorization: `Bearer ${tokens.accessToken}` } });
    console.log(`   API at 20 connections: ${fmt(apiRun.requests.average, 1)} req/s, p50 ${apiRun.latency.p50} ms, p99 ${apiRun.latency.p99} ms, ${apiRun.requests.total} done, errors ${apiRun.errors}, timeouts ${apiRun.timeouts}, non-2xx ${apiRun.non2xx}`);
    const cookie = `accessToken=${tokens.accessToken}; refreshToken=${tokens.refreshToken}; sessionId=${tokens.sessionId}; NewAppOpenPop=1`;
    const pageUrl = `${server.baseUrl}/statistics?period=custom&start=${start}&end=${end}&unit=day`;
    const docOne: number[] = [];
    let docSize = 0;
    for (let i = 0; i < 4; i++) {
      const t = performance.now();
      const res = await fetch(pageUrl, { headers: { cookie } });
      const body = await res.text();
      docOne.push(performance.now() - t);
      docSize = body.length;
      if (res.status !== 200) throw new Error(`document ${res.status} ${body.slice(0, 200)}`);
    }
    docOne.shift();
    console.log(`   document, one request: median ${fmt(docOne.sort((a, b) => a - b)[1]!, 1)} ms (${fmt(docSize / 1024)} KB HTML)`);
    const docRun = await autocannon({ url: pageUrl, connections: 20, duration: SECONDS, timeout: 30, headers: { cookie, "accept-encoding": "br, gzip" } });
    console.log(`   document at 20 connections: ${fmt(docRun.requests.average, 1)} req/s, p50 ${docRun.latency.p50} ms, p99 ${docRun.latency.p99} ms, ${docRun.requests.total} done, errors ${docRun.errors}, timeouts ${docRun.timeouts}, non-2xx ${docRun.non2xx}`);
    if (process.env.BENCH_XLSX === "0") return;

    // 2. XLSX of a year at unit 60 for the 100 inverters, through the export code, into a byte counter.
    const claims = { id: "admin", service: 0, scope: undefined } as unknown as AccessClaims;
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const before = process.memoryUsage().rss;
    const t1 = performance.now();
    const p = await prepareReport(store.db, claims, "inverter", { unit: "60", start, end, sunRise: false }, Date.now(), "fleet");
    let bytes = 0;
    const sink = new Writable({ write(chunk: Buffer, _e, cb) { bytes += chunk.length; cb(); } });
    await writeXlsx(store.db, p, "ko", sink, "admin", Date.now());
    const secs = (performance.now() - t1) / 1000;
    clearInterval(sampler);
    console.log(`2. XLSX export, a year at unit 60, 100 inverters (876,000 rows): ${fmt(secs, 1)} s, ${fmt(bytes / 1e6, 1)} MB, peak RSS ${fmt(peak / 1e6)} MB (${fmt((peak - before) / 1e6)} MB above the start)`);
  } finally {
    await store.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
