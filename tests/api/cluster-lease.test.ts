/**
 * Singleton election (api/cluster/singletons.ts) on a real PostgreSQL: one owner at a time, takeover
 * when the owner's connection ends, fencing of a former owner's checkpoint, and on SQLite every job runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeaseLost, Singletons, type SingletonContext, type SingletonJob } from "../../api/cluster/singletons";
import { commandRelay } from "../../api/cluster/command-relay";
import { ClusterSignals } from "../../api/cluster/signals";
import { wallClock } from "../../api/clock";
import { GatewayEmulator } from "../../api/sim/gateway-emulator";
import { SIMULATED_RTU_KIND, seedDemoFleet } from "../../api/sim/fleet";
import { openStore, type Store } from "../../api/store/db";
import { seedFoundation } from "../../api/store/seed";
import { CommandService } from "../../api/telemetry/commands";
import { IngestService } from "../../api/telemetry/ingest";
import { createPgDatabase } from "../helpers/server";
import { waitFor } from "../helpers/wait";

function recordingJob(name: string) {
  const events: string[] = [];
  let ctx: SingletonContext | null = null;
  const job: SingletonJob & { events: string[]; ctx(): SingletonContext | null } = {
    name,
    events,
    ctx: () => ctx,
    start(c) {
      ctx = c;
      events.push(`start ${c.token}`);
    },
    stop() {
      events.push("stop");
    },
  };
  return job;
}

describe("singleton election on PostgreSQL", () => {
  let db: { url: string; drop(): Promise<void> };
  let store: Store;
  beforeAll(async () => {
    db = await createPgDatabase();
    store = await openStore(db.url);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it("runs a job on one server at a time, hands it over when the owner's connection ends, and fences the former owner", async () => {
    const a = new Singletons(store, { serverId: "a", databaseUrl: db.url, pollMs: 100, log: () => undefined });
    const b = new Singletons(store, { serverId: "b", databaseUrl: db.url, pollMs: 100, log: () => undefined });
    const ja = recordingJob("probe");
    const jb = recordingJob("probe");
    a.register(ja);
    b.register(jb);
    await a.start();
    await b.start();
    try {
      expect(a.owns("probe")).toBe(true);
      // b keeps trying and never gets it.
      const tried = b.attempts;
      await waitFor(() => b.attempts >= tried + 3);
      expect(b.owns("probe")).toBe(false);
      expect(jb.events).toEqual([]);
      const first = ja.ctx()!;
      await store.db.transaction().execute((trx) => first.saveCheckpoint(trx, "10"));

      // The owner's lease connection dies (as when its process is killed): the lock goes with it.
      const pids = await store.pgPool!.query("select pid from pg_stat_activity where application_name = 'solar-lease a'");
      for (const row of pids.rows) await store.pgPool!.query("select pg_terminate_backend($1)", [row.pid]);
      await waitFor(() => b.owns("probe"), { ms: 10_000 });
      expect(ja.events).toEqual(["start 1", "stop"]);
      expect(jb.events).toEqual(["start 2"]);
      const second = jb.ctx()!;
      expect(await second.checkpoint()).toBe("10");
      expect(first.held()).toBe(false);
      // The former owner's late commit is refused and rolled back; the new owner's goes through.
      await expect(store.db.transaction().execute((trx) => first.saveCheckpoint(trx, "11"))).rejects.toBeInstanceOf(LeaseLost);
      await store.db.transaction().execute((trx) => second.saveCheckpoint(trx, "12"));
      const row = await store.db.selectFrom("cluster_lease").selectAll().where("name", "=", "probe").executeTakeFirstOrThrow();
      expect(row).toMatchObject({ owner: "b", token: 2, checkpoint: "12" });
      // a is back on its feet and competes again, but b keeps the job.
      const retried = a.attempts;
      await waitFor(() => a.attempts >= retried + 3);
      expect(a.owns("probe")).toBe(false);

      // A graceful stop gives the job up at once.
      await b.stop();
      await waitFor(() => a.owns("probe"), { ms: 10_000 });
      expect(ja.events).toEqual(["start 1", "stop", "start 3"]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("splits a group's jobs between the live servers, gives the surplus to a newcomer, and takes a dead server's share", async () => {
    const SHARDS = 8;
    const servers = ["x", "y", "z"].map((id) => {
      const s = new Singletons(store, { serverId: id, databaseUrl: db.url, pollMs: 100, log: () => undefined });
      const jobs = Array.from({ length: SHARDS }, (_, k) => ({ ...recordingJob(`shard/${k}`), group: "shard" }));
      for (const j of jobs) s.register(j);
      return { id, s, jobs };
    });
    const [x, y, z] = servers as [(typeof servers)[0], (typeof servers)[0], (typeof servers)[0]];
    const heldBy = (t: typeof x) => t.s.held().filter((n) => n.startsWith("shard/")).length;
    /** Every shard held by exactly one server (the leases are advisory locks: two can never hold one). */
    const owners = () => Array.from({ length: SHARDS }, (_, k) => servers.filter((t) => t.s.owns(`shard/${k}`)).map((t) => t.id));
    try {
      await x.s.start();
      expect(heldBy(x)).toBe(SHARDS);
      await y.s.start();
      await waitFor(() => heldBy(x) === 4 && heldBy(y) === 4, { ms: 10_000 });
      await z.s.start();
      // ceil(8 / 3) = 3 at the most each: 3 + 3 + 2.
      await waitFor(() => servers.every((t) => heldBy(t) <= 3) && owners().every((o) => o.length === 1), { ms: 10_000 });
      expect(servers.map(heldBy).sort()).toEqual([2, 3, 3]);
      // A shard given back was stopped before another server started it.
      for (const t of servers) for (const j of t.jobs) expect(j.events.filter((e) => e === "stop").length).toBeLessThanOrEqual(1);

      // y dies (its lease connection ends): x and z take its shards within a few polls, 4 each.
      const yShards = y.s.held();
      const pids = await store.pgPool!.query("select pid from pg_stat_activity where application_name = 'solar-lease y'");
      for (const row of pids.rows) await store.pgPool!.query("select pg_terminate_backend($1)", [row.pid]);
      await y.s.stop();
      await waitFor(() => heldBy(x) + heldBy(z) === SHARDS && owners().every((o) => o.length === 1), { ms: 10_000 });
      expect([heldBy(x), heldBy(z)]).toEqual([4, 4]);
      const leases = await store.db.selectFrom("cluster_lease").select(["name", "owner"]).where("name", "in", yShards).execute();
      expect(leases.every((l) => l.owner === "x" || l.owner === "z")).toBe(true);
    } finally {
      for (const t of servers) await t.s.stop();
    }
  });
});

describe("commands to the simulated fleet from a server that does not run it", () => {
  let db: { url: string; drop(): Promise<void> };
  let store: Store;
  beforeAll(async () => {
    db = await createPgDatabase();
    store = await openStore(db.url);
    await seedFoundation(store, { adminPassword: "admin1234!" });
    await seedDemoFleet(store);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it("are passed on to the simulator's server, carried out once, and answered to the asking server", async () => {
    const log = () => undefined;
    // Server A runs the simulator; server B only relays.
    const emulator = new GatewayEmulator(store, new IngestService(store, wallClock), wallClock, { historyDays: 0 });
    await emulator.load();
    const signalsA = new ClusterSignals(store, { serverId: "a", databaseUrl: db.url });
    const signalsB = new ClusterSignals(store, { serverId: "b", databaseUrl: db.url });
    const simulated = new Set(
      (await store.db.selectFrom("rtu").select("uid").where("kind", "=", SIMULATED_RTU_KIND).execute()).map((r) => r.uid),
    );
    const none = { reaches: () => false, deliver: () => Promise.reject(new Error("unreachable")) };
    commandRelay(store, signalsA, emulator, { relayed: (r) => simulated.has(r), log });
    const commandsB = new CommandService(store, wallClock);
    commandsB.addLink(commandRelay(store, signalsB, none, { relayed: (r) => simulated.has(r), log }));
    await signalsA.start();
    await signalsB.start();
    try {
      const vcb = await store.db
        .selectFrom("device")
        .select(["uid", "rtu_uid"])
        .where("kind", "=", 7)
        .where("rtu_uid", "in", [...simulated])
        .executeTakeFirstOrThrow();
      const answer = await commandsB.send({
        rtuUid: vcb.rtu_uid!,
        deviceUid: vcb.uid,
        deviceType: 7,
        ch: 1,
        hexOn: null,
        hexOff: "0105000000",
        by: "admin",
      });
      expect(answer).toMatchObject({ status: "done", ok: true, state: 0 });
      const row = await store.db.selectFrom("command").selectAll().where("seq", "=", answer.seq).executeTakeFirstOrThrow();
      expect(row.status).toBe("done");
      expect(JSON.parse(row.result!)).toMatchObject({ ok: true, state: 0 });
    } finally {
      await signalsA.stop();
      await signalsB.stop();
    }
  });
});

describe("singletons on SQLite", () => {
  it("simply runs every job", async () => {
    const store = await openStore("file::memory:");
    try {
      const s = new Singletons(store, { serverId: "only", log: () => undefined });
      const j1 = recordingJob("one");
      const j2 = recordingJob("two");
      s.register(j1);
      s.register(j2);
      await s.start();
      expect(s.held().sort()).toEqual(["one", "two"]);
      expect(j1.events).toEqual(["start 1"]);
      await s.stop();
      expect(j2.events).toEqual(["start 1", "stop"]);
    } finally {
      await store.close();
    }
  });
});
