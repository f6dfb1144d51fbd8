/**
 * Measurement and diagnosis benchmarks (issue 15): prints figures (record them in bench/README.md by hand).
 *   npx tsx bench/diagnose.ts              SQLite; BENCH_STORE=postgres for PostgreSQL
 * Against one real server process (server.ts from build/), with rollups written straight into the store as
 * ingest would have left them:
 *   1. POST /api/diagnose/generate: a year at unit day for one plant of 100 inverters (and its sensor) —
 *      the temperature-corrected reference, IEC 61724-1 figures and loss breakdown; one call's median.
 *   2. GET /api/diagnose/ranking: the fleet EPI ranking over 1,000 plants (2 inverters and a sensor each)
 *      for a month; one call's median.
 *      2b. the same once right after an inverter's rating was edited (its plant's days recomputed first).
 *   3. The /measurement document of the 100-inverter plant (every inverter's newest values) at 20
 *      connections (autocannon): req/s and latency.
 * BENCH_CPU_PROF=<dir> runs the server under `node --cpu-prof` (summarise with bench/cpuprofile-top.ts);
 * BENCH_HOLD=1 seeds, prints the server's URL, database, the big plant's inverters and an admin token, and keeps it
 * running until interrupted (for EXPLAIN and one-off timings). BENCH_SKIP_PAGE=1 leaves out step 3 (for a profile of the API calls alone).
 * Not a test: nothing passes or fails.
 */
import autocannon from "autocannon";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { openStore, type Store } from "../api/store/db";
import { rebuildPlantDaily } from "../api/telemetry/writer";
import { formatSeoul, seoulDayStart } from "../domain/seoul-time";
import { ADMIN_PASSWORD, startServer, type StoreKind } from "../tests/helpers/server";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// Calls per measure (the first one a warm-up); more for a CPU profile.
const CALLS = Number(process.env.BENCH_CALLS ?? 8);
const BIG_PLANT_INVERTERS = 100;
const FLEET_PLANTS = 1_000;
const DAY = 86_400_000;
const TAG = randomBytes(2).toString("hex").toUpperCase();

const fmt = (n: number, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Row = Record<string, number | string | null>;

/** One day of daily rollups for an inverter (capacity kW) or a sensor, shaped like api/telemetry/rollups.ts's. */
function dailyRow(uid: string, kind: 1 | 4, day: number, d: number, capacityKw: number, derate: number): Row {
  const weather = 0.6 + 0.4 * Math.abs(Math.sin(d / 5));
  const iis = 5_200 * weather; // Wh/m² in the plane of the array
  const base = { device_uid: uid, day_ts: day, kind, samples: 144, total_wh: null, sun_samples: 60, lit_samples: 72 };
  if (kind === 4) {
    return {
      ...base,
      energy_wh: null,
      max_w: null,
      his_wh: iis * 0.85,
      iis_wh: iis,
      avg_sts: 32,
      avg_ats: 14,
      iis_sts_wh: iis * 38,
      run_samples: null,
    };
  }
  const energy = capacityKw * (iis / 1000) * 0.84 * derate * 1000; // Wh
  return {
    ...base,
    energy_wh: energy,
    max_w: capacityKw * 800 * weather,
    his_wh: null,
    iis_wh: null,
    avg_sts: null,
    avg_ats: null,
    iis_sts_wh: null,
    run_samples: 60,
  };
}

async function insertRows(store: Store, table: "rollup_daily" | "device_latest", rows: Row[]) {
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 400)
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + 400) as never)
        .execute();
  });
}

async function addPlant(store: Store, rootSeq: number, uid: string, name: string, inverters: number, kwEach: number) {
  const now = Date.now();
  await store.db
    .insertInto("plant")
    .values({
      uid,
      name,
      alias: null,
      capa: Math.round((inverters * kwEach * 1000) / 10),
      locality: "전라남도 해남군",
      address: null,
      lat: 34.57,
      lng: 126.6,
      node_seq: rootSeq,
      package_seq: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const devices = Array.from({ length: inverters }, (_, k) => ({
    uid: `${uid}I${k}`,
    rtu_uid: null,
    plant_uid: uid,
    kind: 1,
    name: `인버터 ${k + 1}`,
    address: k + 1,
    capa: kwEach * 100,
    use_yn: 1,
    created_at: now,
    updated_at: now,
  }));
  const sensor = {
    uid: `${uid}E`,
    rtu_uid: null,
    plant_uid: uid,
    kind: 4,
    name: "기상",
    address: 200,
    capa: null,
    use_yn: 1,
    created_at: now,
    updated_at: now,
  };
  for (let i = 0; i < devices.length; i += 200)
    await store.db
      .insertInto("device")
      .values(devices.slice(i, i + 200))
      .execute();
  await store.db.insertInto("device").values(sensor).execute();
  return { inverters: devices.map((d) => d.uid), sensor: sensor.uid };
}

async function main() {
  console.log(
    `diagnose bench on ${STORE}: one plant of ${BIG_PLANT_INVERTERS} inverters with a year of daily rollups; ${fmt(FLEET_PLANTS)} plants with a month`,
  );
  const prof = process.env.BENCH_CPU_PROF;
  const server = await startServer({
    store: STORE,
    env: { PORTAL_WORKERS: "1" },
    timeoutMs: 180_000,
    nodeArgs: prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [],
  });
  const store = await openStore(server.databaseUrl);
  try {
    const root = await store.db
      .selectFrom("node")
      .select("seq")
      .where("parent_seq", "is", null)
      .orderBy("seq")
      .executeTakeFirstOrThrow();
    const today = seoulDayStart(Date.now());
    const t0 = performance.now();

    // The big plant: a year; inverter 7 loses 30 % (a failing inverter the producer ranking finds).
    const big = `DB${TAG}`;
    const b = await addPlant(store, root.seq, big, "진단 벤치 100인버터 발전소", BIG_PLANT_INVERTERS, 50);
    const yearRows: Row[] = [];
    for (let d = 0; d < 365; d++) {
      const day = today - (365 - d) * DAY;
      b.inverters.forEach((uid, k) => yearRows.push(dailyRow(uid, 1, day, d, 50, k === 7 ? 0.7 : 1)));
      yearRows.push(dailyRow(b.sensor, 4, day, d, 0, 1));
    }
    await insertRows(store, "rollup_daily", yearRows);
    const latest: Row[] = b.inverters.map((uid, k) => {
      const v = {
        iw: 32_000 + k * 10,
        today_wh: 150_000,
        total_wh: 90_000_000,
        ac_v: 380,
        ac_a: 48,
        hz: 60,
        pf: 0.99,
        dc_v: 620,
        dc_a: 53,
        dc_w: 33_000,
        fault_code: 0,
      };
      return {
        device_uid: uid,
        kind: 1,
        ts: Date.now(),
        received_at: Date.now(),
        iw: v.iw,
        today_wh: v.today_wh,
        total_wh: v.total_wh,
        fault_code: 0,
        his: null,
        iis: null,
        sts: null,
        ats: null,
        state: null,
        values_json: JSON.stringify(v),
      };
    });
    await insertRows(store, "device_latest", latest);

    // The fleet: 1,000 plants of 2 × 50 kW, a month of daily rollups; every 50th plant underperforms.
    const monthRows: Row[] = [];
    for (let p = 0; p < FLEET_PLANTS; p++) {
      const f = await addPlant(store, root.seq, `DF${TAG}${p}`, `진단 벤치 발전소 ${p + 1}호`, 2, 50);
      for (let d = 0; d < 30; d++) {
        const day = today - (30 - d) * DAY;
        for (const uid of f.inverters) monthRows.push(dailyRow(uid, 1, day, d, 50, p % 50 === 0 ? 0.8 : 1));
        monthRows.push(dailyRow(f.sensor, 4, day, d, 0, 1));
      }
    }
    await insertRows(store, "rollup_daily", monthRows);
    // What the rollup writer leaves beside the device rows: the per-plant daily rollup (migration 0013). PostgreSQL
    // then gets the statistics and visibility map autovacuum would have left on a table in service (VACUUM: without
    // it no scan of rollup_daily is index-only).
    await store.db.transaction().execute((trx) => rebuildPlantDaily(trx, today - 400 * DAY, today));
    if (STORE === "postgres") await sql`vacuum (analyze)`.execute(store.db);
    console.log(
      `seeded ${fmt(yearRows.length + monthRows.length)} daily rollup rows and ${fmt(latest.length)} latest rows in ${fmt((performance.now() - t0) / 1000, 1)} s`,
    );

    const login = await fetch(`${server.baseUrl}/api/member/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "admin", password: ADMIN_PASSWORD }),
    });
    const tokens = (await login.json()) as { accessToken: string; refreshToken: string; sessionId: string };
    const auth = { authorization: `Bearer ${tokens.accessToken}`, "content-type": "application/json" };
    if (process.env.BENCH_HOLD === "1") {
      console.log(
        `holding: ${server.baseUrl} ${server.databaseUrl}\nplant ${big} inverters ${b.inverters[0]}…\ntoken ${tokens.accessToken}`,
      );
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      return;
    }
    const timed = async (what: string, call: () => Promise<Response>, check: (body: any) => string) => {
      const times: number[] = [];
      let note = "";
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        const res = await call();
        const text = await res.text();
        times.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
        note = check(JSON.parse(text));
      }
      times.shift(); // the first call warms the caches
      console.log(`${what}: median ${fmt(median(times), 1)} ms of ${times.length} calls (${note})`);
    };

    await timed(
      "0. baseline: GET /api/member (the member's own profile)",
      () => fetch(`${server.baseUrl}/api/member`, { headers: auth }),
      () => "for scale",
    );
    const yearStart = `${formatSeoul(today - 365 * DAY, "YYYY-MM-DD")} 00:00:00`;
    const yesterdayEnd = formatSeoul(today - 1, "YYYY-MM-DD HH:mm:ss");
    await timed(
      "1. generate: a year at unit day, 100 inverters",
      () =>
        fetch(`${server.baseUrl}/api/diagnose/generate`, {
          method: "POST",
          headers: auth,
          body: JSON.stringify({ deviceUids: b.inverters, unit: 1440, start: yearStart, end: yesterdayEnd, periodType: "year" }),
        }),
      (body) =>
        `${body.times.length} steps, PR ${body.figures.performanceRatio?.toFixed(6)}, EPI ${body.figures.energyPerformanceIndex?.toFixed(6)}, availability ${body.figures.availability?.toFixed(6)}, downtime ${body.figures.losses.downtimeKwh.toFixed(3)} kWh, Σ generation ${body.generation.reduce((a: number, x: number) => a + x, 0).toFixed(1)} kWh`,
    );
    const monthStart = `${formatSeoul(today - 30 * DAY, "YYYY-MM-DD")} 00:00:00`;
    await timed(
      "2. ranking: 1,000 plants, a month",
      () =>
        fetch(
          `${server.baseUrl}/api/diagnose/ranking?start=${encodeURIComponent(monthStart)}&end=${encodeURIComponent(yesterdayEnd)}`,
          { headers: auth },
        ),
      (body) => `${body.plants.length} plants ranked, lowest EPI ${body.plants[0]?.epi?.toFixed(3)} (${body.plants[0]?.name})`,
    );

    // A rating corrected: the ranking first recomputes that plant's rows (every day it has) with the new rating.
    await store.db.updateTable("device").set({ capa: 4_000 }).where("uid", "=", `DF${TAG}7I0`).execute();
    const edit = performance.now();
    const edited = await fetch(
      `${server.baseUrl}/api/diagnose/ranking?start=${encodeURIComponent(monthStart)}&end=${encodeURIComponent(yesterdayEnd)}`,
      { headers: auth },
    );
    await edited.text();
    console.log(`2b. ranking right after one inverter's rating was edited: ${fmt(performance.now() - edit, 1)} ms (one call)`);

    if (process.env.BENCH_SKIP_PAGE === "1") return;
    const cookie = `accessToken=${tokens.accessToken}; refreshToken=${tokens.refreshToken}; sessionId=${tokens.sessionId}; NewAppOpenPop=1`;
    const pageUrl = `${server.baseUrl}/measurement?plant=${big}&kind=1`;
    const probe = await fetch(pageUrl, { headers: { cookie } });
    const html = await probe.text();
    if (probe.status !== 200 || !html.includes("인버터 100"))
      throw new Error(`/measurement answered ${probe.status} without the plant's inverters`);
    const run = await autocannon({
      url: pageUrl,
      connections: 20,
      duration: SECONDS,
      headers: { cookie, "accept-encoding": "br, gzip" },
    });
    console.log(
      `3. /measurement document (100 inverters) at 20 connections: ${fmt(run.requests.average)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, errors ${run.errors}, non-2xx ${run.non2xx} (${fmt(html.length / 1024)} KB HTML)`,
    );
  } finally {
    await store.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
