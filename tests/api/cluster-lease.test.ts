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
