/**
 * "Something changed" between the servers of a cluster (PostgreSQL LISTEN/NOTIFY on one dedicated
 * connection per server): a server that committed readings says so, naming the plants they belong to, and the
 * alarm engine's owner judges those plants at once rather than at its next (fleet-wide) interval. A change heard
 * without plants (notices missed while the listening connection was down) counts as a change of every plant. The
 * channels of the answer caches (api/cache) ride on the same connection. On SQLite (one server) nothing happens.
 */
import pg from "pg";
import { sql } from "kysely";
import type { Store } from "../store/db";

const CHANNEL = "solar_changed";
/** A notice's payload is at most 8,000 bytes: plants beyond this many characters go in another notice. */
const MAX_PAYLOAD = 7_000;

/** Plants changed, or null: every plant (what changed is not known). */
export type ChangedPlants = readonly string[] | null;

export class ClusterSignals {
  private client: pg.Client | null = null;
  private listeners: Array<(plants: ChangedPlants) => void> = [];
  private resyncs: Array<() => void> = [];
  private sending: Promise<void> | null = null;
  /** Plants changed here while a notice was on its way (null: every plant). */
  private again: Set<string> | null | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private store: Store,
    private opts: { serverId: string; databaseUrl?: string; log?: (m: string) => void },
  ) {}

  private channels = new Map<string, Array<(payload: string) => void>>();

  /** Called when another server changed data: the plants it named, or null (every plant). */
  onRemoteChange(fn: (plants: ChangedPlants) => void): void {
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

  /** This server committed readings of these plants (none named: every plant): tell the others, coalesced while a notice is on its way. */
  changed(plants: ChangedPlants = null): void {
    if (this.store.dialect !== "postgres" || this.stopped) return;
    if (this.sending) {
      if (plants === null || this.again === null) this.again = null;
      else for (const p of plants) (this.again ??= new Set()).add(p);
      return;
    }
    const payloads: string[] = [];
    if (plants === null) payloads.push(JSON.stringify({ s: this.opts.serverId }));
    else {
      let part: string[] = [];
      let size = 0;
      for (const p of plants) {
        if (size + p.length > MAX_PAYLOAD && part.length) {
          payloads.push(JSON.stringify({ s: this.opts.serverId, p: part }));
          part = [];
          size = 0;
        }
        part.push(p);
        size += p.length + 3;
      }
      if (part.length) payloads.push(JSON.stringify({ s: this.opts.serverId, p: part }));
    }
    this.sending = (async () => {
      for (const payload of payloads) await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(this.store.db);
    })()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.sending = null;
        const again = this.again;
        this.again = undefined;
        if (again !== undefined) this.changed(again === null ? null : [...again]);
      });
  }

  /** A change notice's server and plants (a payload of an older server, its id alone: every plant). */
  private static parse(payload: string): { server: string; plants: ChangedPlants } {
    try {
      const m = JSON.parse(payload) as { s?: unknown; p?: unknown };
      if (m && typeof m === "object" && typeof m.s === "string")
        return { server: m.s, plants: Array.isArray(m.p) ? m.p.map(String) : null };
    } catch {
      // not JSON
    }
    return { server: payload, plants: null };
  }

  private connectedBefore = false;

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const reconnected = this.connectedBefore;
    const client = new pg.Client({
      connectionString: this.opts.databaseUrl,
      keepAlive: true,
      application_name: `solar-signals ${this.opts.serverId}`,
    });
    const retry = () => {
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      // Whatever changed while deaf counts as changed.
      for (const l of this.listeners) l(null);
      for (const r of this.resyncs) r();
      clearTimeout(this.timer);
      if (!this.stopped) this.timer = setTimeout(() => void this.connect(), 2_000);
    };
    client.on("error", retry);
    client.on("end", () => this.client === client && retry());
    client.on("notification", (n) => {
      if (n.channel === CHANNEL) {
        const { server, plants } = ClusterSignals.parse(n.payload ?? "");
        if (server !== this.opts.serverId) for (const l of this.listeners) l(plants);
      }
      for (const fn of this.channels.get(n.channel) ?? []) fn(n.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      for (const channel of this.channels.keys()) await client.query(`listen ${channel}`);
      this.client = client;
      this.connectedBefore = true;
      // Notices sent while no connection listened are lost: those who keep derived data start over, and changes whose
      // plants went unheard count as changes of every plant (the alarm engine's owner passes over the fleet).
      for (const r of this.resyncs) r();
      if (reconnected) for (const l of this.listeners) l(null);
    } catch {
      client.removeAllListeners("end");
      retry();
    }
  }
}
