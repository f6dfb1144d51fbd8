/**
 * Several servers behind a real load balancer: HAProxy (deploy/haproxy.cfg) + 3 server processes on one
 * PostgreSQL database + Mosquitto. Gateways send readings over HTTP (through the balancer) and MQTT
 * (shared subscription) while servers are SIGKILLed and started again one after another, and wallboards
 * poll the plant status screen through the balancer. Then: every acknowledged reading is stored exactly
 * once, every alarm condition was raised once and cleared once, every rollup hour matches its raw rows,
 * the singleton owner changed (and the log says so), and the wallboards saw no 5xx beyond the requests in
 * flight on a killed server and no value going back in time.
 *
 * The second suite runs on a private PostgreSQL instance (never the machine's shared one) and restarts
 * it in the middle: the portal answers a plain 503 page while it is away and everything resumes by itself.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedFoundation } from "../../api/store/seed";
import { getSettings, putSettings } from "../../api/store/settings";
import { openStore, type Store } from "../../api/store/db";
import {
  createDatabaseOn,
  postgresBinDir,
  privatePostgres,
  startCluster,
  type Cluster,
  type PrivatePostgres,
} from "../helpers/cluster";
import { uniqueId } from "../helpers/fixtures";
import { STORES, apiClient } from "../helpers/http";
import { ADMIN_PASSWORD, REPO_ROOT, createPgDatabase } from "../helpers/server";
import { createGatewayFixture, gatewayAuth, type GatewayFixture } from "../helpers/telemetry";
import { pace, waitFor } from "../helpers/wait";

const BROKER = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";
/** SIGKILLs in the first suite (the issue asks for at least 20) and the pause before each. */
const KILLS = Number(process.env.CLUSTER_KILLS ?? 20);
const KILL_EVERY_MS = Number(process.env.CLUSTER_KILL_EVERY_MS ?? 2_000);
/** Killing goes on until at least this many fault windows were sent (on a fast machine 20 kills take 45 s). */
const MIN_FAULT_WINDOWS = Number(process.env.CLUSTER_FAULT_WINDOWS ?? 3);
const FAULT = 0x0004;
const WALLBOARDS = 4;
const STEP = 600_000;
/** Fault windows: the first inverter of two gateways reports a fault for this long, then none as long. */
const WINDOW_MS = 10_000;

interface Traffic {
  /**
   * No fault window begins any more; resolves once the alarm gateway has had a batch of the calm acknowledged (its
   * newest reading then carries no fault, so every fault alarm must clear).
   */
  calm(): Promise<void>;
  /** A server is about to be killed: counts the wallboard polls in flight now (on any server). */
  killing(): void;
  stop(): Promise<void>;
  report(): TrafficReport;
}
interface TrafficReport {
  httpAcked: Array<{ device: string; ts: number }>;
  mqttPublished: Array<{ device: string; ts: number }>;
  faultDevices: string[];
  /** Per fault device: the fault windows (index) whose readings were acknowledged. */
  faultWindows: Map<string, Set<number>>;
  polls: number;
  /** Polls in flight at the moments of the kills (an upper bound of those on the killed servers). */
  inFlightAtKills: number;
  poll5xx: number;
  /** What the failed polls met: status codes and network errors, with how often. */
  pollFailures: Record<string, number>;
  pollOther: number;
  pollNetErrors: number;
  backwards: string[];
  ingestRetries: number;
  /** The alarm gateway ran out of fresh slots (the run lasted longer than its 142 batches). */
  alarmSlotsExhausted: boolean;
}

const watts = (v: { value: string; unit: string }) =>
  Number(v.value) * ({ W: 1, kW: 1e3, MW: 1e6, GW: 1e9 } as Record<string, number>)[v.unit]!;

/** Gateways (HTTP through the balancer, MQTT through the broker) and wallboards (through the balancer). */
async function startTraffic(
  cluster: Cluster,
  gateways: { http: GatewayFixture[]; mqtt: GatewayFixture[] },
  prefix: string,
  wallboards: number,
): Promise<Traffic> {
  let stopping = false;
  let calmFrom = Infinity;
  const t0 = Date.now();
  const windowNow = () => Math.floor((Date.now() - t0) / WINDOW_MS);
  const slot0 = t0 - (t0 % STEP);
  const httpAcked: TrafficReport["httpAcked"] = [];
  const mqttPublished: TrafficReport["mqttPublished"] = [];
  // The alarm gateway's first inverter carries the fault windows.
  const alarmGateway = gateways.http[0]!;
  const faultDevices = [alarmGateway.inverters[0]!];
  const faultWindows = new Map<string, Set<number>>(faultDevices.map((d) => [d, new Set()]));
  let ingestRetries = 0;
  let alarmSlotsExhausted = false;
  /** The alarm gateway's newest acknowledged batch is of the calm (no fault window begins after it). */
  let calmAcked = false;
  const batch = (g: GatewayFixture, k: number) => {
    // A reading is one 10-minute slot. The alarm gateway reports forward from 23.5 hours ago (still "now"
    // for the alarm rules with 144 intervals), one slot per batch; the others go back in time from two days
    // ago, so that every batch is a new (device, slot) whatever the pace.
    // The alarm gateway has 142 fresh slots (≈ 6 minutes at its pace); its last one carries no fault, so that
    // a run longer than that ends with every alarm cleared and no fault window counted that nothing could show.
    const ts = g === alarmGateway ? Math.min(slot0 - 143 * STEP + k * STEP, slot0 - STEP) : slot0 - 288 * STEP - k * STEP;
    if (g === alarmGateway && k >= 142) alarmSlotsExhausted = true;
    const window = windowNow();
    const faulty = window % 2 === 1 && window < calmFrom && !(g === alarmGateway && k >= 142);
    return {
      window,
      faulty,
      readings: g.inverters.map((device, i) => ({
        device,
        ts,
        values: {
          iw: 1000 + k * 10,
          today_wh: k,
          total_wh: 1e6 + k,
          fault_code: i === 0 && faulty && faultDevices.includes(device) ? FAULT : 0,
        },
      })),
    };
  };
  const note = (b: ReturnType<typeof batch>, into: TrafficReport["httpAcked"]) => {
    for (const r of b.readings) {
      into.push({ device: r.device, ts: r.ts });
      if (r.values.fault_code) faultWindows.get(r.device)?.add(b.window);
    }
  };
  const httpGateway = async (g: GatewayFixture) => {
    for (let k = 0; !stopping; k++) {
      const b = batch(g, k);
      for (;;) {
        try {
          const res = await fetch(`${cluster.url}/api/ingest`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: gatewayAuth(g) },
            body: JSON.stringify({ batchId: `${g.rtuUid}-${k}`, readings: b.readings }),
            // Long: a batch is sent again only once the earlier attempt has surely ended.
            signal: AbortSignal.timeout(90_000),
          });
          const body = (await res.json().catch(() => null)) as { rejected?: unknown[] } | null;
          if (res.status === 200 && body?.rejected?.length === 0) {
            note(b, httpAcked);
            if (g === alarmGateway && b.window >= calmFrom) calmAcked = true;
            break;
          }
        } catch {
          // no answer: not acknowledged, sent again
        }
        ingestRetries++;
        await pace(200);
      }
      await pace(g === alarmGateway ? 2_500 : 400);
    }
  };
  const mqttGateway = async (g: GatewayFixture) => {
    const client = await mqtt.connectAsync(BROKER, { protocolVersion: 5, clientId: uniqueId("gw") });
    try {
      for (let k = 0; !stopping; k++) {
        const b = batch(g, k);
        // The broker's PUBACK is the gateway's acknowledgement: from here on the portal must store it.
        await client.publishAsync(
          `${prefix}/${g.rtuUid}/telemetry`,
          JSON.stringify({ secret: g.secret, batchId: `m${k}`, readings: b.readings }),
          { qos: 1 },
        );
        note(b, mqttPublished);
        await pace(400);
      }
    } finally {
      await client.endAsync();
    }
  };
  // Wallboards: the plant status screen's own poll, alternating between servers (round robin).
  const admin = await apiClient(cluster.url).session("admin", ADMIN_PASSWORD);
  const cookie = `accessToken=${admin.accessToken}; refreshToken=${admin.refreshToken}; sessionId=${admin.sessionId}; NewAppOpenPop=1`;
  let polls = 0;
  let inFlight = 0;
  let inFlightAtKills = 0;
  const pollFailures: Record<string, number> = {};
  const failed = (what: string) => (pollFailures[what] = (pollFailures[what] ?? 0) + 1);
  let poll5xx = 0;
  let pollOther = 0;
  let pollNetErrors = 0;
  const backwards: string[] = [];
  const wallboard = async () => {
    const seen = new Map<string, number>();
    while (!stopping) {
      inFlight++;
      try {
        // A generous timeout: on a loaded machine a poll can take seconds, and a slow answer is not a failure.
        const res = await fetch(`${cluster.url}/pvstatus?_data=${encodeURIComponent("routes/_app.pvstatus")}`, {
          headers: { cookie },
          signal: AbortSignal.timeout(60_000),
        });
        polls++;
        if (res.status !== 200) failed(`HTTP ${res.status}`);
        if (res.status >= 500) poll5xx++;
        else if (res.status !== 200) pollOther++;
        else {
          const body = (await res.json()) as {
            list: { list: Array<{ name: string; genData: { iw: { value: string; unit: string } } }> };
          };
          for (const card of body.list.list) {
            const w = watts(card.genData.iw);
            const before = seen.get(card.name);
            if (before !== undefined && w < before) backwards.push(`${card.name}: ${before} W then ${w} W`);
            seen.set(card.name, Math.max(before ?? 0, w));
          }
        }
      } catch (error) {
        pollNetErrors++;
        const e = error as Error & { cause?: { code?: string; message?: string } };
        failed(e.cause?.code ?? e.cause?.message ?? e.name);
      } finally {
        inFlight--;
      }
      await pace(1_000);
    }
  };
  const running = [
    ...gateways.http.map(httpGateway),
    ...gateways.mqtt.map(mqttGateway),
    ...Array.from({ length: wallboards }, wallboard),
  ];
  return {
    async calm() {
      const w = windowNow();
      calmFrom = w % 2 === 1 ? w + 1 : w;
      // The fault schedule is by the clock's windows: the calm begins at a window's start, and it has reached the
      // store once a batch of it is acknowledged (a fixed wait was not enough on a loaded machine: the last batch
      // acknowledged could still be a faulty one, its alarm then rightly open).
      await waitFor(() => calmAcked, {
        ms: 120_000,
        every: 200,
        failure: () => "no batch of the calm was acknowledged for the alarm gateway",
      });
    },
    killing() {
      inFlightAtKills += inFlight;
    },
    async stop() {
      stopping = true;
      await Promise.all(running);
    },
    report: () => ({
      httpAcked,
      mqttPublished,
      faultDevices,
      faultWindows,
      polls,
      inFlightAtKills,
      poll5xx,
      pollFailures,
      pollOther,
      pollNetErrors,
      backwards,
      ingestRetries,
      alarmSlotsExhausted,
    }),
  };
}

async function fixtures(databaseUrl: string) {
  const store = await openStore(databaseUrl);
  await seedFoundation(store, { adminPassword: ADMIN_PASSWORD });
  const make = async () => {
    const g = await createGatewayFixture(store, { inverters: 2 });
    // Only the inverters report here: the other devices are out of use (no "device silent" alarms).
    await store.db.updateTable("device").set({ use_yn: 0 }).where("rtu_uid", "=", g.rtuUid).where("kind", "!=", 1).execute();
    return g;
  };
  const http = [await make(), await make()];
  // Readings up to a day old count as "now" for the alarm rules (the alarm gateway's are 23.5 h old at first).
  const alarm = (await getSettings(store.db)).alarm;
  await putSettings(store.db, "alarm", { ...alarm, rtuSilentIntervals: 144, deviceSilentIntervals: 144 }, "test");
  const mq = [await make(), await make()];
  await store.close();
  return { http, mqtt: mq };
}

/** Every server's output (all incarnations) and HAProxy's, kept in tests/.artifacts for a failed run. */
function saveLog(cluster: Cluster | undefined, name: string) {
  if (!cluster) return;
  const dir = path.join(REPO_ROOT, "tests/.artifacts");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), cluster.log());
}

/** What must hold after the run, checked in the store. */
async function verify(store: Store, r: TrafficReport, opts: { everyWindow: boolean }) {
  // Every reading acknowledged (HTTP 200, or the broker's PUBACK of an MQTT message) is stored, once.
  const expected = [...r.httpAcked, ...r.mqttPublished];
  const devices = [...new Set(expected.map((e) => e.device))];
  const key = (d: string, ts: number) => `${d}@${ts}`;
  let stored = new Set<string>();
  await waitFor(
    async () => {
      const rows = await store.db
        .selectFrom("m_inverter")
        .select(["device_uid", "ts"])
        .where("device_uid", "in", devices)
        .execute();
      stored = new Set(rows.map((x) => key(x.device_uid, Number(x.ts))));
      expect(stored.size).toBe(rows.length); // (device, ts) is the key: a row twice is impossible
      return expected.every((e) => stored.has(key(e.device, e.ts)));
    },
    {
      ms: 90_000,
      every: 1_000,
      failure: () => {
        const missing = (list: Array<{ device: string; ts: number }>) => list.filter((e) => !stored.has(key(e.device, e.ts)));
        const http = missing(r.httpAcked);
        const mq = missing(r.mqttPublished);
        const sample = [...http, ...mq].slice(0, 6).map((e) => `${e.device}@${new Date(e.ts).toISOString()}`);
        return `missing: ${http.length + mq.length} of ${expected.length} (${http.length} acknowledged over HTTP, ${mq.length} published over MQTT), e.g. ${sample.join(", ")}`;
      },
    },
  );

  // Every fault window raised one alarm, and each was cleared once (the run ends without a fault).
  await waitFor(
    async () => {
      const open = await store.db
        .selectFrom("alarm")
        .select("seq")
        .where("device_uid", "in", r.faultDevices)
        .where("released_at", "is", null)
        .execute();
      return open.length === 0;
    },
    { ms: 30_000, every: 500, failure: () => "a fault alarm was not cleared" },
  );
  for (const device of r.faultDevices) {
    const alarms = await store.db
      .selectFrom("alarm")
      .selectAll()
      .where("device_uid", "=", device)
      .where("code", "=", 1000006)
      .orderBy("raised_at")
      .execute();
    expect(alarms.every((a) => a.released_at !== null)).toBe(true);
    for (let i = 1; i < alarms.length; i++) expect(alarms[i]!.raised_at).toBeGreaterThanOrEqual(alarms[i - 1]!.released_at!);
    // A condition back within the reopen window (an hour) reopens its alarm rather than adding a row, so
    // the conditions are counted in the alarm's lifecycle: one "raised" or "reactivated" step per fault
    // window and one "cleared" after it, strictly alternating.
    const steps = alarms.length
      ? await store.db
          .selectFrom("alarm_event")
          .select(["kind"])
          .where(
            "alarm_seq",
            "in",
            alarms.map((a) => a.seq),
          )
          .orderBy("seq")
          .execute()
      : [];
    const kinds = steps.map((e) => (e.kind === "cleared" ? "clear" : "raise"));
    expect(
      kinds.every((k, i) => k === (i % 2 === 0 ? "raise" : "clear")),
      `steps of ${device}: ${kinds.join(" ")}`,
    ).toBe(true);
    const raised = kinds.filter((k) => k === "raise").length;
    // While the database is away a whole window can pass unseen (its readings arrive after it, behind newer
    // ones): then fewer, never more.
    if (opts.everyWindow) expect(raised, `fault conditions of ${device} raised`).toBe(r.faultWindows.get(device)!.size);
    else expect(raised, `fault conditions of ${device} raised`).toBeLessThanOrEqual(r.faultWindows.get(device)!.size);
    expect(kinds.length, `fault conditions of ${device} cleared`).toBe(2 * raised);
  }
  // No alarm of any kind raised twice for one condition at the same time.
  const all = await store.db.selectFrom("alarm").selectAll().execute();
  const byKey = new Map<string, typeof all>();
  for (const a of all)
    byKey.set(`${a.code}:${a.plant_uid}:${a.device_uid ?? a.rtu_uid}`, [
      ...(byKey.get(`${a.code}:${a.plant_uid}:${a.device_uid ?? a.rtu_uid}`) ?? []),
      a,
    ]);
  for (const list of byKey.values()) {
    list.sort((a, b) => a.raised_at - b.raised_at);
    for (let i = 1; i < list.length; i++) expect(list[i]!.raised_at).toBeGreaterThanOrEqual(list[i - 1]!.released_at ?? Infinity);
  }

  // Every hour's rollup counts exactly the raw rows of that hour (nothing missed, nothing lost to a race).
  const raw = await store.db.selectFrom("m_inverter").select(["device_uid", "ts"]).where("device_uid", "in", devices).execute();
  const perHour = new Map<string, number>();
  for (const x of raw) {
    const k = `${x.device_uid}@${Number(x.ts) - (Number(x.ts) % 3_600_000)}`;
    perHour.set(k, (perHour.get(k) ?? 0) + 1);
  }
  const rollups = await store.db
    .selectFrom("rollup_hourly")
    .select(["device_uid", "hour_ts", "samples"])
    .where("device_uid", "in", devices)
    .execute();
  expect(new Map(rollups.map((x) => [`${x.device_uid}@${Number(x.hour_ts)}`, Number(x.samples)]))).toEqual(perHour);

  // The wallboards never saw a value go back in time.
  expect(r.backwards).toEqual([]);
  return { stored: stored.size };
}

// Runs whenever PostgreSQL is among the stores and HAProxy is installed (.ci/run installs it); CLUSTER_TESTS=0
// leaves it out of a quick local run. A skip says why, so a machine without haproxy is not mistaken for green.
const skipWhy = !STORES.includes("postgres")
  ? "TEST_STORES leaves PostgreSQL out"
  : process.env.CLUSTER_TESTS === "0"
    ? "CLUSTER_TESTS=0"
    : spawnSync("haproxy", ["-v"]).error
      ? "haproxy is not installed (apt-get install haproxy)"
      : null;
if (skipWhy) console.warn(`cluster suites skipped: ${skipWhy}`);
else if (!postgresBinDir())
  console.warn("cluster suite with a PostgreSQL restart skipped: no PostgreSQL binaries under /usr/lib/postgresql/*/bin");
const pgEnabled = !skipWhy;

describe.skipIf(!pgEnabled)("cluster: HAProxy + 3 servers + PostgreSQL + Mosquitto, servers killed one after another", () => {
  let db: { url: string; drop(): Promise<void> };
  let cluster: Cluster | undefined;
  const prefix = `test/${uniqueId("cl")}`;
  beforeAll(async () => {
    db = await createPgDatabase();
  });
  afterAll(async () => {
    await cluster?.stop();
    saveLog(cluster, "cluster-kills.log");
    await db?.drop();
  });

  it(`keeps every reading once, every alarm once, through ${KILLS} SIGKILLs`, async () => {
    const gateways = await fixtures(db.url);
    cluster = await startCluster({
      databaseUrl: db.url,
      env: {
        MQTT_URL: BROKER,
        MQTT_TOPIC_PREFIX: prefix,
        MQTT_SHARE_GROUP: uniqueId("share"),
        MQTT_CLIENT_ID: uniqueId("portal"),
        MQTT_SESSION_EXPIRY: "600",
        ALARM_INTERVAL_MS: "500",
      },
    });
    const store = await openStore(db.url);
    try {
      const traffic = await startTraffic(cluster, gateways, prefix, WALLBOARDS);
      const owners: string[] = [];
      const restarts: Promise<void>[] = [];
      const started = Date.now();
      const windowsSent = () => Math.min(...[...traffic.report().faultWindows.values()].map((w) => w.size));
      let kills = 0;
      for (let kill = 0; kill < KILLS || (windowsSent() < MIN_FAULT_WINDOWS && kill < 5 * KILLS); kill++, kills++) {
        await pace(KILL_EVERY_MS);
        // Another server keeps serving: at least two are up and counted UP by HAProxy itself (a restarted
        // server is UP for HAProxy only after two health checks), and one of them is the victim.
        let ready: typeof cluster.nodes = [];
        await waitFor(
          async () => {
            const lb = new Set(await cluster!.balancerUp().catch(() => [] as string[]));
            ready = cluster!.up().filter((n) => lb.has(n.id));
            return ready.length >= 2;
          },
          { ms: 240_000, every: 200, failure: () => `fewer than two servers up for HAProxy:\n${cluster!.log().slice(-4_000)}` },
        );
        // Every other kill hits the holder of the alarm engine's shard 0 (every server holds some shards).
        const owner = (
          await store.db.selectFrom("cluster_lease").select("owner").where("name", "=", "alarm-engine/0").executeTakeFirst()
        )?.owner;
        owners.push(owner ?? "?");
        const victim = (kill % 2 === 0 && ready.find((n) => n.id === owner)) || ready[kill % ready.length]!;
        traffic.killing();
        await cluster.kill(victim);
        restarts.push(cluster.restart(victim));
      }
      const killSeconds = Math.round((Date.now() - started) / 1000);
      expect(windowsSent(), "fault windows sent while killing").toBeGreaterThanOrEqual(MIN_FAULT_WINDOWS);
      await Promise.all(restarts);
      await traffic.calm();
      await traffic.stop();
      const report = traffic.report();
      const result = await verify(store, report, { everyWindow: true });

      const log = cluster.log();
      const takeovers = log.match(/singleton alarm-engine\/\d+: owned by s\d \(token \d+, taken over from s\d\)/g) ?? [];
      const lease = await store.db.selectFrom("cluster_lease").selectAll().execute();
      console.log(
        `cluster: ${kills} kills in ${killSeconds} s; ${result.stored} readings stored (${report.httpAcked.length} acknowledged over HTTP, ${report.mqttPublished.length} over MQTT; ${report.ingestRetries} HTTP batches sent again); ` +
          `alarm windows ${[...report.faultWindows.values()].map((s) => s.size).join(" + ")}; alarm-engine taken over ${takeovers.length} times; ` +
          `wallboards: ${report.polls} polls, ${report.inFlightAtKills} in flight at the kills, ${report.poll5xx} answered 5xx, ${report.pollNetErrors} without answer, ${report.pollOther} other non-200 ${JSON.stringify(report.pollFailures)}; ` +
          `leases: ${lease.map((l) => `${l.name}=${l.owner}#${l.token}`).join(", ")}`,
      );
      expect(takeovers.length).toBeGreaterThan(0);
      expect(lease.find((l) => l.name === "alarm-engine/0")!.token).toBeGreaterThan(1);
      // The shards are split: at the end every live server holds some, none more than its fair share.
      const shardOwners = lease.filter((l) => l.name.startsWith("alarm-engine/")).map((l) => l.owner);
      expect(shardOwners).toHaveLength(8);
      expect(new Set(shardOwners).size).toBeGreaterThan(1);
      // No failed poll beyond the requests in flight when a server was killed (HAProxy retries most of them).
      expect(report.poll5xx + report.pollNetErrors, JSON.stringify(report.pollFailures)).toBeLessThanOrEqual(
        report.inFlightAtKills,
      );
      expect(report.pollOther).toBe(0);
    } finally {
      await store.close();
    }
  }, 900_000);
});

describe.skipIf(!pgEnabled || !postgresBinDir())(
  "cluster: the database restarted in the middle (a private PostgreSQL instance)",
  () => {
    let pgi: PrivatePostgres | undefined;
    let cluster: Cluster | undefined;
    const prefix = `test/${uniqueId("pgr")}`;
    afterAll(async () => {
      await cluster?.stop();
      saveLog(cluster, "cluster-pg-restart.log");
      await pgi?.destroy();
    });

    it("answers a plain 503 page while it is away, reconnects by itself, loses nothing acknowledged", async () => {
      pgi = await privatePostgres();
      const url = await createDatabaseOn(pgi.adminUrl);
      const gateways = await fixtures(url);
      cluster = await startCluster({
        databaseUrl: url,
        env: {
          MQTT_URL: BROKER,
          MQTT_TOPIC_PREFIX: prefix,
          MQTT_SHARE_GROUP: uniqueId("share"),
          MQTT_CLIENT_ID: uniqueId("portal"),
          MQTT_SESSION_EXPIRY: "600",
          ALARM_INTERVAL_MS: "500",
        },
      });
      const traffic = await startTraffic(cluster, gateways, prefix, 3);
      const admin = await apiClient(cluster.url).session("admin", ADMIN_PASSWORD);
      const cookie = `accessToken=${admin.accessToken}; refreshToken=${admin.refreshToken}; sessionId=${admin.sessionId}; NewAppOpenPop=1`;
      // The database goes away once the traffic is flowing and a fault window has been sent.
      await waitFor(
        () => {
          const r = traffic.report();
          return r.httpAcked.length > 0 && r.mqttPublished.length > 0 && [...r.faultWindows.values()].every((w) => w.size > 0);
        },
        { ms: 60_000, every: 200 },
      );

      await pgi.stopImmediate();
      // While it is away: a page is a plain 503 page (no stack trace), the API says so in JSON, health is up.
      const page = await waitFor(
        async () => {
          const res = await fetch(`${cluster!.url}/pvstatus`, { headers: { cookie } }).catch(() => null);
          const html = await res?.text().catch(() => null);
          return res?.status === 503 ? html : null;
        },
        { ms: 20_000, every: 300 },
      );
      expect(page).toContain("잠시 서비스를 이용할 수 없습니다");
      expect(page).not.toMatch(/at [\w.]+ \(|node_modules|Error:/);
      const ingest = await fetch(`${cluster.url}/api/ingest`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: gatewayAuth(gateways.http[0]!) },
        body: JSON.stringify({
          readings: [{ device: gateways.http[0]!.inverters[0], ts: Date.now() - 1_000, values: { iw: 1 } }],
        }),
      });
      expect(ingest.status).toBe(503);
      expect(await ingest.json()).toEqual({ message: "database_unavailable" });
      const health = await fetch(`${cluster.url}/api/health`);
      expect(health.status).toBe(200);
      expect((await health.json()).database).toBe("unavailable");
      // Every HTTP gateway is refused while it is away (and keeps its batch to send again).
      const retriesAway = traffic.report().ingestRetries;
      await waitFor(() => traffic.report().ingestRetries >= retriesAway + gateways.http.length, { ms: 30_000, every: 200 });

      await pgi.start();
      // Back by themselves: pages, and the singleton work (re-elected once the lease connections return).
      // (A connection the balancer closed while the probe was idle fails the fetch: that is "not yet", not a failure.)
      await waitFor(
        async () => (await fetch(`${cluster!.url}/pvstatus`, { headers: { cookie } }).catch(() => null))?.status === 200,
        { ms: 30_000, every: 500 },
      );
      await waitFor(() => /singleton alarm-engine\/\d+: owned by s\d \(token [2-9]/.test(cluster!.log()), {
        ms: 30_000,
        every: 500,
      });
      // Traffic flows again: every HTTP gateway has had batches acknowledged since.
      const ackedBack = traffic.report().httpAcked.length;
      await waitFor(() => traffic.report().httpAcked.length >= ackedBack + 2 * gateways.http.length, { ms: 60_000, every: 200 });
      await traffic.calm();
      await traffic.stop();
      const store = await openStore(url);
      try {
        const report = traffic.report();
        const result = await verify(store, report, { everyWindow: false });
        expect(cluster.log()).toMatch(/singleton alarm-engine\/\d+: released by s\d \(lease connection lost/);
        console.log(
          `database restart: ${result.stored} readings stored, ${report.ingestRetries} HTTP batches sent again; wallboards ${report.polls} polls, ${report.poll5xx} answered 5xx (the database was away), ${report.pollNetErrors} without answer`,
        );
      } finally {
        await store.close();
      }
    }, 600_000);
  },
);
