/**
 * The database tier without a single point of failure (issue 30, point 4): PostgreSQL with a synchronous streaming
 * replica managed by Patroni (etcd its store), HAProxy routing to the leader by Patroni's REST check — the
 * repository's own deploy/patroni.yml and deploy/haproxy-postgres.cfg — and two portal servers whose DATABASE_URL
 * names that balancer, behind the portal's own HAProxy (deploy/haproxy.cfg). Gateways post readings and wallboards
 * poll the plant status screen without pause while the leader's postmaster is SIGKILLed. Then: every reading whose
 * POST was acknowledged is on the new primary (0 lost), the servers write again within 30 s of the kill, no poll
 * met 5xx for longer than that, ingest answered 503 (never 500) while it could not commit, and the singleton leases
 * were taken again on the new primary. The figures are printed.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../api/store/db";
import { seedFoundation } from "../../api/store/seed";
import { createDatabaseOn, startCluster, type Cluster } from "../helpers/cluster";
import { STORES, apiClient } from "../helpers/http";
import { patroniMissing, startPatroniCluster, type PatroniCluster } from "../helpers/patroni";
import { ADMIN_PASSWORD, REPO_ROOT } from "../helpers/server";
import { createGatewayFixture, gatewayAuth, type GatewayFixture } from "../helpers/telemetry";
import { pace, waitFor } from "../helpers/wait";

/** The issue's target: writing again, and no page failing, within this long of the primary's death. */
const TARGET_MS = 30_000;
const STEP = 600_000;

const skipWhy = !STORES.includes("postgres")
  ? "TEST_STORES leaves PostgreSQL out"
  : process.env.CLUSTER_TESTS === "0"
    ? "CLUSTER_TESTS=0"
    : spawnSync("haproxy", ["-v"]).error
      ? "haproxy is not installed (apt-get install haproxy)"
      : patroniMissing();
if (skipWhy) console.warn(`cluster suite with a Patroni failover skipped: ${skipWhy}`);

interface Attempt {
  start: number;
  end: number;
  /** HTTP status, or 0 when no answer came. */
  status: number;
}

describe.skipIf(skipWhy !== null)("cluster: the PostgreSQL primary SIGKILLed under ingest (Patroni + etcd + HAProxy)", () => {
  let db: PatroniCluster | undefined;
  let cluster: Cluster | undefined;
  afterAll(async () => {
    await cluster?.stop();
    if (db) {
      const dir = path.join(REPO_ROOT, "tests/.artifacts");
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "cluster-failover.log"), `${cluster?.log() ?? ""}\n${db.log()}`);
    }
    await db?.stop();
  });

  it("loses no acknowledged reading, writes again within 30 s, no page fails for longer", async () => {
    db = await startPatroniCluster();
    const url = await createDatabaseOn(db.adminUrl);
    const store = await openStore(url);
    let gateways: GatewayFixture[];
    try {
      await seedFoundation(store, { adminPassword: ADMIN_PASSWORD });
      const make = async () => {
        const g = await createGatewayFixture(store, { inverters: 2 });
        // Only the inverters report (no "device silent" alarms for the rest).
        await store.db.updateTable("device").set({ use_yn: 0 }).where("rtu_uid", "=", g.rtuUid).where("kind", "!=", 1).execute();
        return g;
      };
      gateways = [await make(), await make()];
    } finally {
      await store.close();
    }
    cluster = await startCluster({ databaseUrl: url, servers: 2, env: { ALARM_INTERVAL_MS: "500" } });
    const admin = await apiClient(cluster.url).session("admin", ADMIN_PASSWORD);
    const cookie = `accessToken=${admin.accessToken}; refreshToken=${admin.refreshToken}; sessionId=${admin.sessionId}; NewAppOpenPop=1`;

    // Traffic: each gateway sends one batch after another (a batch not acknowledged is sent again, as a gateway
    // does), each wallboard polls the plant status screen. Every attempt is kept with its times.
    let stopping = false;
    const slot0 = Date.now() - (Date.now() % STEP);
    const acked: Array<{ device: string; ts: number }> = [];
    const ingest: Attempt[] = [];
    const polls: Attempt[][] = [[], []];
    const gateway = async (g: GatewayFixture) => {
      for (let k = 0; !stopping; k++) {
        // Every batch a new 10-minute slot, going back from two days ago.
        const ts = slot0 - 288 * STEP - k * STEP;
        const readings = g.inverters.map((device) => ({ device, ts, values: { iw: 1000 + k, today_wh: k, total_wh: 1e6 + k } }));
        for (;;) {
          const start = Date.now();
          let status = 0;
          let ok = false;
          try {
            const res = await fetch(`${cluster!.url}/api/ingest`, {
              method: "POST",
              headers: { "content-type": "application/json", authorization: gatewayAuth(g) },
              body: JSON.stringify({ batchId: `${g.rtuUid}-${k}`, readings }),
              signal: AbortSignal.timeout(60_000),
            });
            status = res.status;
            const body = (await res.json().catch(() => null)) as { rejected?: unknown[] } | null;
            ok = res.status === 200 && body?.rejected?.length === 0;
          } catch {
            // no answer: not acknowledged
          }
          ingest.push({ start, end: Date.now(), status });
          if (ok) {
            acked.push(...readings.map((r) => ({ device: r.device, ts: r.ts })));
            break;
          }
          if (stopping) return;
          await pace(200);
        }
        await pace(100);
      }
    };
    const wallboard = async (into: Attempt[]) => {
      while (!stopping) {
        const start = Date.now();
        let status = 0;
        try {
          const res = await fetch(`${cluster!.url}/pvstatus?_data=${encodeURIComponent("routes/_app.pvstatus")}`, {
            headers: { cookie },
            signal: AbortSignal.timeout(60_000),
          });
          status = res.status;
          await res.arrayBuffer();
        } catch {
          // no answer
        }
        into.push({ start, end: Date.now(), status });
        await pace(250);
      }
    };
    const running = [...gateways.map(gateway), ...polls.map(wallboard)];

    // The leader is killed once ingest flows (the standby is synchronous: startPatroniCluster waited for it).
    await waitFor(() => acked.length >= 40, { ms: 60_000, every: 100, failure: () => "ingest did not flow before the kill" });
    const { leader: oldLeader, standby } = await db.synchronous();
    const pid = db.postmasterPid(oldLeader);
    expect(pid, "the leader's postmaster PID").toBeTruthy();
    // Each singleton job's fencing token now: every one must be elected again on the new primary (a higher token).
    const leases = async () => {
      const s = await openStore(url);
      try {
        const rows = await s.db.selectFrom("cluster_lease").select(["name", "owner", "token"]).execute();
        return new Map(rows.map((l) => [l.name, { owner: l.owner, token: Number(l.token) }]));
      } finally {
        await s.close();
      }
    };
    const leasesBefore = await leases();
    const ackedBefore = acked.length;
    const killedAt = Date.now();
    process.kill(pid!, "SIGKILL");

    const newLeader = await waitFor(
      async () => {
        const m = await db!.members();
        return m.find((x) => x.role === "leader" && x.state === "running" && x.name !== oldLeader.name);
      },
      { ms: 60_000, every: 200, failure: () => `no other node took the lead:\n${db!.log().slice(-6_000)}` },
    );
    const promotedAt = Date.now();
    // Writes again: a batch sent after the last failed one is acknowledged.
    await waitFor(
      () => {
        const after = ingest.filter((a) => a.start >= killedAt);
        const last = Math.max(killedAt, ...after.filter((a) => a.status !== 200).map((a) => a.end));
        return after.some((a) => a.status === 200 && a.start >= last) && Date.now() - last > 3_000;
      },
      { ms: 90_000, every: 100, failure: () => `ingest did not recover:\n${cluster!.log().slice(-6_000)}` },
    );
    // The singleton work is elected again on the new primary (the lease connections went down with the old one).
    let leasesAfter = leasesBefore;
    await waitFor(
      async () => {
        leasesAfter = (await leases().catch(() => null)) ?? leasesAfter;
        return [...leasesBefore].every(([name, l]) => (leasesAfter.get(name)?.token ?? 0) > l.token);
      },
      {
        ms: 30_000,
        every: 500,
        failure: () =>
          `not every lease was taken again: before ${JSON.stringify([...leasesBefore])}, now ${JSON.stringify([...leasesAfter])}\n${cluster!.log().slice(-6_000)}`,
      },
    );
    const leasesAt = Date.now();
    // A little more traffic on the new primary, then stop.
    const ackedAtRecovery = acked.length;
    await waitFor(() => acked.length >= ackedAtRecovery + 20, { ms: 30_000, every: 100 });
    stopping = true;
    await Promise.all(running);

    // The figures.
    const after = ingest.filter((a) => a.end >= killedAt);
    const failures = after.filter((a) => a.status !== 200);
    const lastFail = Math.max(killedAt, ...failures.map((a) => a.end));
    const firstWrite = Math.min(...after.filter((a) => a.status === 200 && a.start >= lastFail).map((a) => a.end));
    const ingestStatuses: Record<string, number> = {};
    for (const a of failures) ingestStatuses[a.status || "no answer"] = (ingestStatuses[a.status || "no answer"] ?? 0) + 1;
    // A wallboard's 5xx stretch: from its first 5xx (or unanswered) poll to the end of the next good one.
    let poll5xx = 0;
    let longest5xx = 0;
    const pollStatuses: Record<string, number> = {};
    for (const list of polls) {
      let from: number | null = null;
      for (const a of list) {
        if (a.status !== 200) pollStatuses[a.status || "no answer"] = (pollStatuses[a.status || "no answer"] ?? 0) + 1;
        if (a.status >= 500 || a.status === 0) {
          poll5xx++;
          from ??= a.start;
        } else if (from !== null) {
          longest5xx = Math.max(longest5xx, a.end - from);
          from = null;
        }
      }
      if (from !== null) longest5xx = Math.max(longest5xx, list.at(-1)!.end - from);
    }

    // 0 acknowledged readings lost: every one is on the new primary (through the balancer, which now leads there).
    const check = await openStore(url);
    let stored = 0;
    try {
      const key = (d: string, ts: number) => `${d}@${ts}`;
      const rows = await check.db
        .selectFrom("m_inverter")
        .select(["device_uid", "ts"])
        .where(
          "device_uid",
          "in",
          gateways.flatMap((g) => g.inverters),
        )
        .execute();
      const have = new Set(rows.map((r) => key(r.device_uid, Number(r.ts))));
      stored = have.size;
      const missing = acked.filter((a) => !have.has(key(a.device, a.ts)));
      const members = await db.members();
      console.log(
        `failover: leader ${oldLeader.name} (postmaster ${pid}) SIGKILLed; ${newLeader.name} led after ${promotedAt - killedAt} ms ` +
          `(the synchronous standby was ${standby.name}); first write refused ${failures.length ? Math.min(...failures.map((a) => a.end)) - killedAt : "-"} ms after the kill, ` +
          `writes acknowledged again ${firstWrite - killedAt} ms after it; ${failures.length} ingest attempts not acknowledged ${JSON.stringify(ingestStatuses)}; ` +
          `wallboards: ${polls[0]!.length + polls[1]!.length} polls, ${poll5xx} answered 5xx or nothing ${JSON.stringify(pollStatuses)}, longest 5xx stretch ${longest5xx} ms; ` +
          `${leasesBefore.size} leases elected again within ${leasesAt - killedAt} ms; readings acknowledged ${acked.length} (${ackedBefore} before the kill), stored ${stored}, lost ${missing.length}; ` +
          `members now ${members.map((m) => `${m.name}=${m.role}/${m.state}`).join(", ")}`,
      );
      expect(missing, "acknowledged readings missing on the new primary").toEqual([]);
    } finally {
      await check.close();
    }
    expect(newLeader.name).toBe(standby.name);
    expect(firstWrite - killedAt, "ms from the kill to writes acknowledged again").toBeLessThanOrEqual(TARGET_MS);
    expect(longest5xx, "longest stretch of failing polls (ms)").toBeLessThanOrEqual(TARGET_MS);
    // While it could not commit, ingest said so with 503 (the gateway keeps its batch): never a 500.
    expect(Object.keys(ingestStatuses).filter((s) => s !== "503")).toEqual([]);
  }, 240_000);
});
