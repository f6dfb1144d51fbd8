/**
 * "Something changed" between the servers of a cluster (PostgreSQL LISTEN/NOTIFY on one dedicated
 * connection per server): a server that committed readings or alarm changes says so, and the others drop
 * what they derived from the store in the meantime — the plant status snapshot, so that a wallboard whose
 * polls alternate between servers never sees a server's older snapshot after a newer one — and the alarm
 * engine's owner evaluates at once rather than at its next interval. On SQLite (one server) nothing happens.
 */
import pg from "pg";
import { sql } from "kysely";
import type { Store } from "../store/db";

const CHANNEL = "solar_changed";

export class ClusterSignals {
  private client: pg.Client | null = null;
  private listeners: Array<() => void> = [];
  private resyncs: Array<() => void> = [];
  private sending: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private store: Store,
    private opts: { serverId: string; databaseUrl?: string; log?: (m: string) => void },
  ) {}

  private channels = new Map<string, Array<(payload: string) => void>>();

  /** Called when another server changed data. */
  onRemoteChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Called when notices may have been missed (the listening connection was lost; told again on each retry). */
  onResync(fn: () => void): void {
    this.resyncs.push(fn);
  }

  /** Whether notices are heard now: the listening connection is up (always on SQLite, one server). */
  listening(): boolean {
    return this.store.dialect !== "postgres" || this.client !== null;
  }

  /** Listens on a channel of its own; payloads from every server, this one included. */
  on(channel: string, fn: (payload: string) => void): void {
    if (!/^solar_[a-z_]+$/.test(channel)) throw new Error(`bad channel ${channel}`);
    const known = this.channels.has(channel);
    this.channels.set(channel, [...(this.channels.get(channel) ?? []), fn]);
    if (!known) this.client?.query(`listen ${channel}`).catch(() => undefined);
  }

  /** Sends a payload to every server listening on the channel (PostgreSQL only). */
  async send(channel: string, payload: string): Promise<void> {
    await sql`select pg_notify(${channel}, ${payload})`.execute(this.store.db);
  }

  async start(): Promise<void> {
    if (this.store.dialect !== "postgres") return;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sending;
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  /** This server committed a change: tell the others (coalesced while a notice is on its way). */
  changed(): void {
    if (this.store.dialect !== "postgres" || this.stopped) return;
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = sql`select pg_notify(${CHANNEL}, ${this.opts.serverId})`
      .execute(this.store.db)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.sending = null;
        if (this.again) {
          this.again = false;
          this.changed();
        }
      });
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.opts.databaseUrl,
      keepAlive: true,
      application_name: `solar-signals ${this.opts.serverId}`,
    });
    const retry = () => {
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      // Whatever changed while deaf counts as changed.
      for (const l of this.listeners) l();
      for (const r of this.resyncs) r();
      clearTimeout(this.timer);
      if (!this.stopped) this.timer = setTimeout(() => void this.connect(), 2_000);
    };
    client.on("error", retry);
    client.on("end", () => this.client === client && retry());
    client.on("notification", (n) => {
      if (n.channel === CHANNEL && n.payload !== this.opts.serverId) for (const l of this.listeners) l();
      for (const fn of this.channels.get(n.channel) ?? []) fn(n.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      for (const channel of this.channels.keys()) await client.query(`listen ${channel}`);
      this.client = client;
      // Notices sent while no connection listened are lost: those who keep derived data start over.
      for (const r of this.resyncs) r();
    } catch {
      client.removeAllListeners("end");
      retry();
    }
  }
}
