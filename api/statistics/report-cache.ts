/**
 * Answers of repeated statistics report calls (issue 16: a year's report asked again by twenty people, a
 * reloaded or printed page, the pager going back). An answer is kept as its JSON bytes under a key of
 * everything it was computed from but the stored readings — the report kind, the normalised query (the period
 * snapped to its steps, unit, daylight, window of rows), the member's resolved scope (which plants and devices
 * with their names, ratings and places, the RTUs' configuration: so a device, plant, group or rating edit, or a
 * change of what the member may see, is a different key), the member's service bits, and for a period that
 * reaches the present the current 10-minute step (expected readings grow with time).
 *
 * The readings are the one input not in the key: an answer is dropped as soon as data it read changes — a
 * change names its devices (or any) and time range, and every kept answer over one of those devices whose
 * period overlaps the range goes. Changes come from ingest (live and late data alike), from bulk rollup
 * rebuilds, history copies and retention (api/store/data-changes.ts), and from the other servers of a cluster
 * (PostgreSQL notices on a channel of their own, api/cluster/signals.ts; after a lost listening connection
 * everything is dropped). An answer computed while a change it overlaps was committed is handed out once and
 * not kept. Memory is bounded (an LRU of at most `maxBytes` of answers) and an answer lives at most `ttlMs`.
 */
import { createHash, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { DataChange } from "../store/data-changes";
import { JsonText } from "../http";

/** The cluster's notices (api/cluster/signals.ts ClusterSignals), as far as the cache uses them. */
export interface ClusterNotices {
  on(channel: string, fn: (payload: string) => void): void;
  send(channel: string, payload: string): Promise<void>;
  /** Called when notices may have been missed (the listening connection was lost). */
  onResync(fn: () => void): void;
}

export const REPORT_CHANNEL = "solar_report_data";
/** A change naming more devices than this is sent as "any device" (a notice's payload is at most 8,000 bytes). */
const MAX_NOTICE_DEVICES = 200;
/** Changes remembered for answers still being computed (older computations are simply not kept). */
const RECENT_CHANGES = 256;

interface Entry {
  text: JsonText;
  devices: ReadonlySet<string>;
  from: number;
  to: number;
}

const overlaps = (e: Pick<Entry, "devices" | "from" | "to">, c: DataChange) =>
  c.from < e.to && e.from < c.to && (c.devices === undefined || c.devices.some((d) => e.devices.has(d)));

/** Merges two changes into one covering both (for a coalesced notice). */
function merge(a: DataChange, b: DataChange): DataChange {
  const devices =
    a.devices && b.devices && a.devices.length + b.devices.length <= MAX_NOTICE_DEVICES
      ? [...new Set([...a.devices, ...b.devices])]
      : undefined;
  return { ...(devices ? { devices } : {}), from: Math.min(a.from, b.from), to: Math.max(a.to, b.to) };
}

export class ReportCache {
  private lru: LRUCache<string, Entry>;
  private generation = 0;
  private recent: Array<{ generation: number; change: DataChange }> = [];
  private notices: ClusterNotices | null = null;
  private readonly instance = randomBytes(6).toString("hex");
  private pending: DataChange | null = null;
  private sending = false;

  constructor(opts: { maxBytes: number; ttlMs: number }) {
    this.lru = new LRUCache<string, Entry>({
      maxSize: Math.max(1, opts.maxBytes),
      sizeCalculation: (e) => Math.max(1, e.text.body.length + 64 * e.devices.size),
      ttl: opts.ttlMs,
    });
  }

  /** The key of a report: a digest of everything the answer depends on but the stored readings. */
  static keyOf(parts: unknown): string {
    return createHash("sha256").update(JSON.stringify(parts)).digest("base64url");
  }

  get(key: string): JsonText | undefined {
    return this.lru.get(key)?.text;
  }

  /** Taken before an answer is computed; `put` keeps the answer only if no overlapping change came since. */
  begin(): number {
    return this.generation;
  }

  put(key: string, since: number, entry: Entry): void {
    if (since !== this.generation) {
      const oldest = this.recent[0]?.generation ?? this.generation;
      if (since < oldest - 1) return;
      if (this.recent.some((r) => r.generation > since && overlaps(entry, r.change))) return;
    }
    if (entry.text.body.length > (this.lru.maxSize ?? 0) / 4) return;
    this.lru.set(key, entry);
  }

  /** Stored data changed (committed) on this server: drop what it touches here and tell the other servers. */
  changed(change: DataChange): void {
    this.apply(change);
    this.publish(change);
  }

  /** Drops every answer (data may have changed unseen). */
  clear(): void {
    this.apply({ from: -Infinity, to: Infinity });
  }

  get size(): number {
    return this.lru.size;
  }

  private apply(change: DataChange): void {
    this.generation++;
    this.recent.push({ generation: this.generation, change });
    if (this.recent.length > RECENT_CHANGES) this.recent.shift();
    for (const [key, entry] of this.lru.entries()) if (overlaps(entry, change)) this.lru.delete(key);
  }

  /** Hears the other servers' changes, and sends ours to them. */
  share(notices: ClusterNotices): void {
    this.notices = notices;
    notices.on(REPORT_CHANNEL, (payload) => {
      try {
        const m = JSON.parse(payload) as { i: string; d?: string[]; f: number | null; t: number | null };
        if (m.i === this.instance) return;
        this.apply({ ...(m.d ? { devices: m.d } : {}), from: m.f ?? -Infinity, to: m.t ?? Infinity });
      } catch {
        this.clear();
      }
    });
    notices.onResync(() => this.clear());
  }

  private publish(change: DataChange): void {
    if (!this.notices) return;
    this.pending = this.pending ? merge(this.pending, change) : change;
    if (this.sending) return;
    const c = this.pending;
    this.pending = null;
    this.sending = true;
    // JSON has no infinities: an open end travels as null.
    const payload = JSON.stringify({
      i: this.instance,
      ...(c.devices && c.devices.length <= MAX_NOTICE_DEVICES ? { d: c.devices } : {}),
      f: Number.isFinite(c.from) ? c.from : null,
      t: Number.isFinite(c.to) ? c.to : null,
    });
    void this.notices
      .send(REPORT_CHANNEL, payload)
      .catch(() => undefined)
      .finally(() => {
        this.sending = false;
        const next = this.pending;
        this.pending = null;
        if (next) this.publish(next);
      });
  }
}
