/**
 * Singleton work in a cluster: jobs (the alarm engine, rollup and partition maintenance, the simulator,
 * the mail outbox, the report scheduler, …) that must run on exactly one server at a time.
 *
 * On PostgreSQL every server keeps one dedicated connection (not from the pool) and tries, every
 * `pollMs`, to take a session advisory lock per job with `pg_try_advisory_lock`. The server whose
 * connection holds a job's lock runs it; PostgreSQL releases the lock the moment that connection ends —
 * a process that is SIGKILLed closes its socket, so another server takes over at its next poll (about a
 * second); a machine that vanishes without closing its socket is found out by TCP keepalives set on the
 * connection (about 20 s). A server that loses its connection (PostgreSQL restarted, network cut) stops
 * its jobs at once and competes again when it is back.
 *
 * Each takeover raises the job's fencing token in `cluster_lease` (migration 0009), which also says who
 * owns what since when (`select * from cluster_lease`). A job that must continue exactly where the last
 * owner stopped keeps a checkpoint there and commits it with `ctx.saveCheckpoint(trx, …)` in the same
 * transaction as its work: the write succeeds only while the token is still the current one, so a former
 * owner that has not yet noticed its loss cannot commit over its successor.
 *
 * On SQLite (one server) every job simply runs.
 */
import { sql, type Kysely } from "kysely";
import pg from "pg";
import type { Store } from "../store/db";
import type { Database } from "../store/schema";
import { fairShare } from "../../domain/shard";

export interface SingletonContext {
  /** Fencing token of this tenure (raised at every takeover). */
  readonly token: number;
  /** Whether this server still holds the job. */
  held(): boolean;
  /** The checkpoint last committed by any owner of this job (null before the first). */
  checkpoint(): Promise<string | null>;
  /**
   * Writes the checkpoint inside the caller's transaction, only while this tenure is the current one;
   * throws LeaseLost otherwise (the caller's transaction then rolls back).
   */
  saveCheckpoint(trx: Kysely<Database>, value: string): Promise<void>;
}

export interface SingletonJob {
  name: string;
  /**
   * Jobs of one group (the alarm engine's shards) are split between the live servers: a server holds at most its
   * fair share (domain/shard.ts fairShare) and gives the surplus back when another server joins. Ungrouped jobs go to
   * whoever takes them first.
   */
  group?: string;
  start(ctx: SingletonContext): void | Promise<void>;
  stop(): void | Promise<void>;
}

export class LeaseLost extends Error {
  constructor(name: string) {
    super(`lease of ${name} lost`);
  }
}

export interface SingletonOptions {
  /** This server's name in the lease table and the log (SERVER_ID; default host name and pid). */
  serverId: string;
  /** How often a server tries to take the jobs it does not hold, and refreshes its heartbeat. */
  pollMs?: number;
  log?: (message: string) => void;
  /** PostgreSQL connection string for the dedicated lease connection (required on PostgreSQL). */
  databaseUrl?: string;
}

/** First key of every advisory lock taken here (the second is hashtext(job name)); "SOL" in ASCII. */
export const LOCK_CLASS = 0x534f4c;
/** Second key of the start-up lock (seeding, partitions made at start): no job name hashes to this use. */
const STARTUP_KEY = 0;

interface Entry {
  job: SingletonJob;
  token: number | null;
  /** A grouped job this server gave back is left to the others until then. */
  notBefore: number;
  /** Start or stop in progress: transitions of one job never overlap. */
  transition: Promise<void>;
}

export class Singletons {
  private entries = new Map<string, Entry>();
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private connectFailures = 0;
  /** After losing its lease connection this server lets the others try first until this time. */
  private rejoinAt = 0;
  private tries = 0;
  private readonly pollMs: number;
  private readonly log: (m: string) => void;

  constructor(
    private store: Store,
    private opts: SingletonOptions,
  ) {
    this.pollMs = opts.pollMs ?? 1_000;
    this.log = opts.log ?? ((m) => console.log(m));
    if (store.dialect === "postgres" && !opts.databaseUrl) throw new Error("Singletons: databaseUrl is required on PostgreSQL");
  }

  get serverId(): string {
    return this.opts.serverId;
  }

  register(job: SingletonJob): void {
    if (this.entries.has(job.name)) throw new Error(`singleton ${job.name} registered twice`);
    this.entries.set(job.name, { job, token: null, notBefore: 0, transition: Promise.resolve() });
  }

  /** Whether this server runs the job now. */
  owns(name: string): boolean {
    return this.entries.get(name)?.token != null;
  }

  /** How many times this server has tried to take a job it did not hold (each poll, each job). */
  get attempts(): number {
    return this.tries;
  }

  /** Names of the jobs this server runs now. */
  held(): string[] {
    return [...this.entries.values()].filter((e) => e.token != null).map((e) => e.job.name);
  }

  async start(): Promise<void> {
    if (this.store.dialect !== "postgres") {
      for (const entry of this.entries.values()) await this.begin(entry, this.store.db);
      return;
    }
    await this.tick();
    const loop = () => {
      if (this.stopped) return;
      this.timer = setTimeout(
        () => void (this.ticking = this.tick()).finally(() => ((this.ticking = null), loop())),
        this.pollMs,
      );
    };
    loop();
  }

  /** Stops every job this server runs and gives up its leases, so another server takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    for (const entry of this.entries.values()) await this.end(entry, "this server stops");
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query("select pg_advisory_unlock_all()").catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Runs fn while holding the cluster's start-up lock (PostgreSQL), so that servers starting together
   * do not seed or create partitions over each other. On SQLite it just runs fn.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.store.dialect !== "postgres") return fn();
    const client = new pg.Client({
      connectionString: this.opts.databaseUrl,
      application_name: `solar-startup ${this.opts.serverId}`,
    });
    await client.connect();
    try {
      await client.query("select pg_advisory_lock($1, $2)", [LOCK_CLASS, STARTUP_KEY]);
      return await fn();
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async connect(): Promise<pg.Client | null> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.opts.databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      application_name: `solar-lease ${this.opts.serverId}`,
      connectionTimeoutMillis: 5_000,
    });
    const lost = (why: string) => void this.lost(client, why);
    client.on("error", (e) => lost(e.message));
    client.on("end", () => lost("connection ended"));
    try {
      await client.connect();
      // The server side finds a vanished peer (a machine gone without closing its socket) in ~20 s,
      // and so releases its locks within the 30 s promised for a takeover.
      await client.query("set tcp_keepalives_idle = 5; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3");
    } catch (error) {
      if (this.connectFailures++ === 0)
        this.log(`singletons: cannot reach PostgreSQL for the lease connection (${(error as Error).message}); retrying`);
      client.removeAllListeners("end");
      await client.end().catch(() => undefined);
      return null;
    }
    if (this.connectFailures) this.log(`singletons: lease connection to PostgreSQL restored`);
    this.connectFailures = 0;
    this.client = client;
    return client;
  }

  /** The lease connection ended: PostgreSQL has released its locks, so every job here stops now. */
  private async lost(client: pg.Client, why: string): Promise<void> {
    if (this.client !== client) return;
    this.client = null;
    // A server whose connection broke (and not the database) gives a peer the first chance at its jobs:
    // competing at once, it would often take them straight back and a flaky server would keep them.
    this.rejoinAt = Date.now() + 3 * this.pollMs;
    client.end().catch(() => undefined);
    for (const entry of this.entries.values()) await this.end(entry, `lease connection lost: ${why}`);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const client = await this.connect();
    if (!client) return;
    try {
      const held = this.held();
      if (held.length) {
        await client.query("update cluster_lease set heartbeat_at = $1 where name = any($2) and owner = $3", [
          Date.now(),
          held,
          this.opts.serverId,
        ]);
      }
      if (Date.now() < this.rejoinAt) return;
      const shares = await this.fairShares(client);
      for (const entry of this.entries.values()) {
        if (entry.token != null || this.stopped) continue;
        const group = entry.job.group;
        if (group && (Date.now() < entry.notBefore || this.heldIn(group) >= shares.get(group)!)) continue;
        this.tries++;
        const got = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1, hashtext($2)) as ok", [
          LOCK_CLASS,
          entry.job.name,
        ]);
        if (!got.rows[0]?.ok) continue;
        await this.begin(entry, null, client);
        // A job that could not start gives its lock back, so another server may try.
        if (entry.token == null) await client.query("select pg_advisory_unlock($1, hashtext($2))", [LOCK_CLASS, entry.job.name]);
      }
    } catch (error) {
      // A failed query on the lease connection: treat as lost (the locks may be gone with it).
      await this.lost(client, (error as Error).message);
    }
  }

  /** How many jobs of a group this server holds. */
  private heldIn(group: string): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.job.group === group && e.token != null) n++;
    return n;
  }

  /**
   * Each group's fair share for this server, counting the live servers by their lease connections (one per server,
   * named `solar-lease <id>`, on this database); a surplus above it is given back here, the last jobs by name first,
   * and left to the others for three polls.
   */
  private async fairShares(client: pg.Client): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for (const e of this.entries.values()) if (e.job.group) sizes.set(e.job.group, (sizes.get(e.job.group) ?? 0) + 1);
    const shares = new Map<string, number>();
    if (!sizes.size) return shares;
    const live = await client.query<{ n: number }>(
      `select count(distinct application_name)::int as n from pg_stat_activity
        where datname = current_database() and application_name like 'solar-lease %'`,
    );
    const servers = Math.max(1, live.rows[0]?.n ?? 1);
    for (const [group, size] of sizes) {
      const share = fairShare(size, servers);
      shares.set(group, share);
      const held = [...this.entries.values()]
        .filter((e) => e.job.group === group && e.token != null)
        .sort((a, b) => a.job.name.localeCompare(b.job.name, "en", { numeric: true }));
      for (const entry of held.slice(share)) {
        await this.end(entry, `its fair share is ${share} of ${size} with ${servers} servers`);
        entry.notBefore = Date.now() + 3 * this.pollMs;
        await client.query("select pg_advisory_unlock($1, hashtext($2))", [LOCK_CLASS, entry.job.name]);
      }
    }
    return shares;
  }

  /** Takes the lease row (raising the token) and starts the job. */
  private begin(entry: Entry, db: Kysely<Database> | null, client?: pg.Client): Promise<void> {
    // A failed query rejects this call (the caller treats the connection as lost) but not the chain.
    const run = entry.transition.then(async () => {
      const name = entry.job.name;
      const now = Date.now();
      let previous: string | null = null;
      let token: number;
      if (client) {
        const prev = await client.query<{ owner: string }>("select owner from cluster_lease where name = $1", [name]);
        previous = prev.rows[0]?.owner ?? null;
        const row = await client.query<{ token: string }>(
          `insert into cluster_lease (name, owner, token, acquired_at, heartbeat_at) values ($1, $2, 1, $3, $3)
           on conflict (name) do update set owner = excluded.owner, token = cluster_lease.token + 1,
             acquired_at = excluded.acquired_at, heartbeat_at = excluded.heartbeat_at
           returning token`,
          [name, this.opts.serverId, now],
        );
        token = Number(row.rows[0]!.token);
      } else {
        const row = await db!
          .insertInto("cluster_lease")
          .values({ name, owner: this.opts.serverId, token: 1, acquired_at: now, heartbeat_at: now, checkpoint: null })
          .onConflict((oc) =>
            oc.column("name").doUpdateSet({
              owner: this.opts.serverId,
              token: sql`cluster_lease.token + 1`,
              acquired_at: now,
              heartbeat_at: now,
            }),
          )
          .returning("token")
          .executeTakeFirstOrThrow();
        token = Number(row.token);
      }
      entry.token = token;
      const ctx = this.context(entry, token);
      try {
        await entry.job.start(ctx);
      } catch (error) {
        entry.token = null;
        this.log(`singleton ${name}: failed to start on ${this.opts.serverId}: ${(error as Error).message}`);
        return;
      }
      if (this.store.dialect === "postgres") {
        this.log(
          `singleton ${name}: owned by ${this.opts.serverId} (token ${token}${previous && previous !== this.opts.serverId ? `, taken over from ${previous}` : previous ? ", again" : ""})`,
        );
      }
    });
    entry.transition = run.catch(() => undefined);
    return run;
  }

  private end(entry: Entry, why: string): Promise<void> {
    entry.transition = entry.transition.then(async () => {
      if (entry.token == null) return;
      entry.token = null;
      try {
        await entry.job.stop();
      } catch (error) {
        this.log(`singleton ${entry.job.name}: stop failed: ${(error as Error).message}`);
      }
      if (this.store.dialect === "postgres") this.log(`singleton ${entry.job.name}: released by ${this.opts.serverId} (${why})`);
    });
    return entry.transition;
  }

  private context(entry: Entry, token: number): SingletonContext {
    const name = entry.job.name;
    const db = this.store.db;
    return {
      token,
      held: () => entry.token === token,
      checkpoint: async () =>
        (await db.selectFrom("cluster_lease").select("checkpoint").where("name", "=", name).executeTakeFirst())?.checkpoint ??
        null,
      saveCheckpoint: async (trx, value) => {
        const r = await trx
          .updateTable("cluster_lease")
          .set({ checkpoint: value })
          .where("name", "=", name)
          .where("token", "=", token)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new LeaseLost(name);
      },
    };
  }
}
