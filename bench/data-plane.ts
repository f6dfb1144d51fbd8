/**
 * Data-plane benchmarks (issue "Data plane"): prints figures and records them in bench/README.md.
 *   npx tsx bench/data-plane.ts            full run (~4 min)
 *   npx tsx bench/data-plane.ts --quick    fewer rounds
 * Medians of several rounds, measured side by side in one run on this machine. Not a test: nothing passes or fails.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mqtt from "mqtt";
import { hashGatewaySecret, newGatewaySecret } from "../api/auth/gateway-credential";
import { openStore, type Store } from "../api/store/db";
import { plantStatusRows } from "../api/store/plant-status";
import { createPgDatabase, startServer, type StoreKind, type TestServer } from "../tests/helpers/server";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 2 : 3;
const MQTT_URL = process.env.BENCH_MQTT_URL ?? "mqtt://127.0.0.1:1883";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

interface Gateway {
  plant: string;
  rtu: string;
  secret: string;
  devices: string[];
}

/** Gateways of 20 inverters and a sensor each, inserted directly. */
async function seedGateways(store: Store, count: number): Promise<Gateway[]> {
  const now = Date.now();
  const root =
    (await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirst()) ??
    (await store.db
      .insertInto("node")
      .values({ parent_seq: null, name: "bench", sort_order: 0, created_at: now })
      .returning("seq")
      .executeTakeFirstOrThrow());
  const out: Gateway[] = [];
  for (let g = 0; g < count; g++) {
    const tag = `${randomBytes(3).toString("hex")}${g}`.toUpperCase();
    const secret = newGatewaySecret();
    await store.db
      .insertInto("plant")
      .values({
        uid: `BP${tag}`,
        name: `bench ${tag}`,
        alias: null,
        capa: 100_000,
        locality: null,
        address: null,
        lat: 35,
        lng: 127,
        node_seq: root.seq,
        package_seq: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await store.db
      .insertInto("rtu")
      .values({
        uid: `BR${tag}`,
        alias: null,
        name: `bench ${tag}`,
        mac: null,
        kind: 1,
        plant_uid: `BP${tag}`,
        node_seq: root.seq,
        package_seq: null,
        config: 0,
        credential_hash: hashGatewaySecret(secret),
        use_yn: 1,
        created_at: now,
        updated_at: now,
        last_seen_at: null,
      })
      .execute();
    const devices = Array.from({ length: 20 }, (_, i) => `BD${tag}I${i}`);
    await store.db
      .insertInto("device")
      .values(
        devices.map((uid) => ({
          uid,
          rtu_uid: `BR${tag}`,
          plant_uid: `BP${tag}`,
          kind: 1,
          name: uid,
          address: null,
          capa: 5_000,
          use_yn: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    out.push({ plant: `BP${tag}`, rtu: `BR${tag}`, secret, devices });
  }
  return out;
}

/** 1,000 readings: 20 inverters × 50 consecutive 10-minute slots, ending `offset` slots back. */
function batch(g: Gateway, offset: number) {
  const base = Date.now() - (Date.now() % 600_000) - offset * 600_000;
  const readings = [];
  for (let s = 0; s < 50; s++) {
    for (const device of g.devices) {
      readings.push({
        device,
        ts: base - s * 600_000,
        values: {
          dc_v: 610,
          dc_a: 40,
          dc_w: 24_000,
          ac_v: 380,
          ac_a: 36,
          iw: 23_400,
          pf: 0.99,
          hz: 60,
          today_wh: 100_000 + s,
          total_wh: 9e7 + s,
          fault_code: 0,
        },
      });
    }
  }
  return readings;
}

async function httpIngest(server: TestServer, gateways: Gateway[], round: number): Promise<number> {
  const perGateway = quick ? 2 : 3;
  const jobs = gateways.flatMap((g) =>
    Array.from({ length: perGateway }, (_, k) => ({ g, offset: (round * perGateway + k) * 50 })),
  );
  const bodies = jobs.map((j) => ({
    auth: `Basic ${Buffer.from(`${j.g.rtu}:${j.g.secret}`).toString("base64")}`,
    body: JSON.stringify({ readings: batch(j.g, j.offset) }),
  }));
  let next = 0;
  let rows = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < bodies.length) {
        const b = bodies[next++]!;
        const res = await fetch(`${server.baseUrl}/api/ingest`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: b.auth },
          body: b.body,
        });
        const json = (await res.json()) as { accepted: number };
        rows += json.accepted;
      }
    }),
  );
  return rows / ((performance.now() - t) / 1000);
}

async function mqttIngest(prefix: string, gateways: Gateway[], round: number): Promise<number> {
  const client = await mqtt.connectAsync(MQTT_URL, { clientId: `bench-gw-${randomBytes(3).toString("hex")}` });
  await client.subscribeAsync(`${prefix}/+/ack`, { qos: 1 });
  const perGateway = quick ? 2 : 3;
  const total = gateways.length * perGateway;
  let acked = 0;
  let rows = 0;
  const done = new Promise<void>((resolve) =>
    client.on("message", (_t, p) => {
      rows += JSON.parse(p.toString()).accepted ?? 0;
      if (++acked === total) resolve();
    }),
  );
  const payloads = gateways.flatMap((g) =>
    Array.from({ length: perGateway }, (_, k) => ({
      topic: `${prefix}/${g.rtu}/telemetry`,
      body: JSON.stringify({ secret: g.secret, readings: batch(g, 10_000 + (round * perGateway + k) * 50) }),
    })),
  );
  const t = performance.now();
  await Promise.all(payloads.map((p) => client.publishAsync(p.topic, p.body, { qos: 1 })));
  await done;
  const rate = rows / ((performance.now() - t) / 1000);
  await client.endAsync();
  return rate;
}

async function queryBench(
  kind: StoreKind,
): Promise<{ latestMs: number; perPlantMs: number; statusMs: number; reportMs: number }> {
  let url: string;
  let cleanup: () => Promise<void>;
  if (kind === "postgres") {
    const db = await createPgDatabase();
    url = db.url;
    cleanup = db.drop;
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "bench-q-"));
    url = `file:${path.join(dir, "q.db")}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const store = await openStore(url);
  try {
    const gateways = await seedGateways(store, 250); // 5,000 inverters
    const now = Date.now();
    const all = gateways.flatMap((g) => g.devices);
    for (let i = 0; i < all.length; i += 500) {
      await store.db
        .insertInto("device_latest")
        .values(
          all.slice(i, i + 500).map((uid, k) => ({
            device_uid: uid,
            kind: 1,
            ts: now,
            received_at: now,
            iw: 1000 + k,
            today_wh: 5000,
            total_wh: 1e7,
            fault_code: 0,
            his: null,
            iis: null,
            sts: null,
            ats: null,
            state: null,
            values_json: "{}",
          })),
        )
        .execute();
    }
    const latest = async () =>
      store.db
        .selectFrom("device_latest")
        .innerJoin("device", "device.uid", "device_latest.device_uid")
        .select([
          "device.uid",
          "device.plant_uid",
          "device_latest.ts",
          "device_latest.iw",
          "device_latest.today_wh",
          "device_latest.fault_code",
        ])
        .where("device.use_yn", "=", 1)
        .execute();
    // What the status screens read: the latest values of 5,000 devices summed per plant (250 rows).
    const perPlant = async () =>
      store.db
        .selectFrom("device_latest")
        .innerJoin("device", "device.uid", "device_latest.device_uid")
        .select((eb) => [
          "device.plant_uid",
          eb.fn.sum<number>("device_latest.iw").as("iw"),
          eb.fn.sum<number>("device_latest.today_wh").as("today"),
          eb.fn.max<number>("device_latest.ts").as("ts"),
        ])
        .where("device.use_yn", "=", 1)
        .groupBy("device.plant_uid")
        .execute();
    // A year of daily rollups for 100 inverters.
    const hundred = all.slice(0, 100);
    const day0 = now - (now % 86_400_000) - 365 * 86_400_000;
    const rows = hundred.flatMap((uid) =>
      Array.from({ length: 365 }, (_, d) => ({
        device_uid: uid,
        day_ts: day0 + d * 86_400_000,
        kind: 1,
        samples: 80,
        energy_wh: 200_000 + d,
        max_w: 45_000,
        his_wh: null,
        iis_wh: null,
        avg_sts: null,
        avg_ats: null,
        total_wh: 1e7 + d,
      })),
    );
    for (let i = 0; i < rows.length; i += 1000)
      await store.db
        .insertInto("rollup_daily")
        .values(rows.slice(i, i + 1000))
        .execute();
    const report = async () =>
      store.db
        .selectFrom("rollup_daily")
        .select((eb) => ["day_ts", eb.fn.sum<number>("energy_wh").as("energy"), eb.fn.max<number>("max_w").as("peak")])
        .where("device_uid", "in", hundred)
        .where("day_ts", ">=", day0)
        .groupBy("day_ts")
        .orderBy("day_ts")
        .execute();
    const time = async (fn: () => Promise<unknown[]>, expect: number) => {
      const xs: number[] = [];
      for (let i = 0; i < 25; i++) {
        const t = performance.now();
        const r = await fn();
        xs.push(performance.now() - t);
        if (r.length !== expect) throw new Error(`expected ${expect} rows, got ${r.length}`);
      }
      return median(xs.slice(5));
    };
    // The product's own read: the status rows of those 250 plants as /api/pvstatus builds them (plants,
    // live sums from device_latest, open alarms; past month/year totals from its 10-minute cache).
    const plantUids = gateways.map((g) => g.plant);
    const status = async () => plantStatusRows(store.db, plantUids, Date.now());
    return {
      latestMs: await time(latest, 5000),
      perPlantMs: await time(perPlant, 250),
      statusMs: await time(status, 250),
      reportMs: await time(report, 365),
    };
  } finally {
    await store.close();
    await cleanup();
  }
}

async function backfill(): Promise<{ seconds: number; readings: number }> {
  const server = await startServer({ store: "sqlite", env: { SIMULATE: "1", HISTORY_DAYS: "90" }, timeoutMs: 120_000 });
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const m = /Simulator: ([\d,]+) readings of history played in ([\d.]+) s/.exec(server.output());
      if (m) return { readings: Number(m[1]!.replace(/,/g, "")), seconds: Number(m[2]) };
      if (Date.now() > deadline) throw new Error(`backfill did not finish:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await server.stop();
  }
}

/** What the figures mean (written by hand; the table above them is this run's). */
const NOTES = `Notes (2026-11-23):
- This is a shared 2-vCPU virtual machine and the load generator runs on it too. Its speed depends on the host it
  lands on: this run (fourth session, 18:00 UTC, quiet machine) measured about twice the third session's run on
  2026-11-22 with the same ingest and query code (then: HTTP ingest into SQLite 40,902 rows/s through a portal
  process and 48,330 in one process, PostgreSQL 30,549 / 33,874, MQTT 41,654; per-plant latest status 4.92 ms
  SQLite, 7.71 ms PostgreSQL; one-year report 21.2 / 16.9 ms; backfill 34.6 s), and within one session the same
  code measured an hour apart differed by up to 1.8x. Compare rows of one run, not runs.
- "Latest status of 5,000 devices" is read two ways: summed per plant, as the status screens need it (they read
  it at most once per 5-s snapshot, api/store/pvstatus-snapshot.ts), and as 5,000 rows, which is bounded by
  building 5,000 row objects in JavaScript (better-sqlite3 alone: 5.4 ms raw arrays, 9 ms objects without the
  join; third session's machine). On PostgreSQL the per-plant query plans in 0.7-0.9 ms (EXPLAIN ANALYZE); a named (prepared) statement
  measured 5.74 ms against 5.98 ms unnamed, medians of 20 interleaved rounds: within this machine's noise, so
  Kysely's unnamed statements stay. Without the join (plant_uid kept in device_latest) it read in 3.2-3.8 ms.
- Where ingest time goes (third session's machine, /proc CPU and --cpu-prof): the primary spends ~23 us of CPU per
  row over HTTP, which capped it near 43,000 rows/s on one core there; in process (no HTTP) a row costs 17-19 us: ~13 the SQLite
  insert, 2-4 the hourly and daily rollup recomputation, ~2 JSON parse and validation. Each portal process on the
  hop spends ~2.4 us per row passing the batch on, CPU taken from the same two cores.
- Gateways reach /api through a portal process since the portal runs one process per core (server.ts); the
  PORTAL_WORKERS=0 rows show that hop's cost side by side, rounds interleaved.`;

const results: Record<string, string> = {};
for (const kind of ["sqlite", "postgres"] as const) {
  const prefix = `bench/${randomBytes(3).toString("hex")}`;
  const server = await startServer({
    store: kind,
    env: kind === "sqlite" ? { MQTT_URL, MQTT_TOPIC_PREFIX: prefix, MQTT_CLIENT_ID: `bench-${prefix.slice(6)}` } : {},
  });
  const store = await openStore(server.databaseUrl);
  const gateways = await seedGateways(store, 20);
  await store.close();
  // Side by side, rounds interleaved: the default layout (gateways reach /api through a portal process,
  // server.ts) and everything in one process (PORTAL_WORKERS=0), so the cost of that hop shows.
  const single = await startServer({ store: kind, env: { PORTAL_WORKERS: "0" } });
  const singleStore = await openStore(single.databaseUrl);
  const singleGateways = await seedGateways(singleStore, 20);
  await singleStore.close();
  const http: number[] = [];
  const httpSingle: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    http.push(await httpIngest(server, gateways, r));
    httpSingle.push(await httpIngest(single, singleGateways, r));
  }
  await single.stop();
  results[`HTTP ingest into ${kind} (rows/s, batches of 1,000, 4 concurrent)`] =
    `${fmt(median(http))} (rounds: ${http.map(fmt).join(", ")})`;
  results[`HTTP ingest into ${kind} with PORTAL_WORKERS=0 (no hop through a portal process), rounds interleaved with the above`] =
    `${fmt(median(httpSingle))} (rounds: ${httpSingle.map(fmt).join(", ")})`;
  if (kind === "sqlite") {
    const viaMqtt: number[] = [];
    for (let r = 0; r < ROUNDS; r++) viaMqtt.push(await mqttIngest(prefix, gateways, r));
    results["MQTT ingest into sqlite (rows/s, QoS 1, batches of 1,000)"] =
      `${fmt(median(viaMqtt))} (rounds: ${viaMqtt.map(fmt).join(", ")})`;
  }
  await server.stop();
  const q = await queryBench(kind);
  results[`Latest status of 5,000 devices summed per plant (250 rows), ${kind} (ms, median)`] = q.perPlantMs.toFixed(2);
  results[`Status rows of those 250 plants as the status screens read them (plantStatusRows), ${kind} (ms, median)`] =
    q.statusMs.toFixed(2);
  results[`Latest values of 5,000 devices, one row each, ${kind} (ms, median)`] = q.latestMs.toFixed(2);
  results[`One-year daily report over 100 inverters from rollups, ${kind} (ms, median)`] = q.reportMs.toFixed(2);
}
const b = await backfill();
results["Demo fleet backfill, 90 days, sqlite (s)"] =
  `${b.seconds.toFixed(1)} (${fmt(b.readings)} readings, ${fmt(b.readings / b.seconds)} readings/s incl. physics)`;

const lines = Object.entries(results).map(([k, v]) => `| ${k} | ${v} |`);
const table = ["| measure | figure |", "|---|---|", ...lines].join("\n");
console.log(table);
const file = path.join(path.dirname(new URL(import.meta.url).pathname), "README.md");
const section = `<!-- data-plane -->\n## Data plane (\`npx tsx bench/data-plane.ts\`, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores)\n\n${table}\n\nTargets: HTTP ingest ≥ 50,000 rows/s SQLite, ≥ 20,000 rows/s PostgreSQL; latest status of 5,000 devices ≤ 5 ms; one-year daily report ≤ 50 ms; 90-day backfill < 60 s.\n\n${NOTES}\n<!-- /data-plane -->`;
let readme = existsSync(file)
  ? readFileSync(file, "utf8")
  : "# Benchmarks\n\nScripts that print figures; nothing here passes or fails.\n";
readme = /<!-- data-plane -->[\s\S]*<!-- \/data-plane -->/.test(readme)
  ? readme.replace(/<!-- data-plane -->[\s\S]*<!-- \/data-plane -->/, section)
  : `${readme.trimEnd()}\n\n${section}\n`;
writeFileSync(file, readme);
process.exit(0);
