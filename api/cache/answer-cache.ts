/**
 * Answers of repeated API calls, kept as their JSON bytes under a key of everything they were computed from but
 * the stored data they read, and dropped as soon as that data changes. What "a change" is and which answers it
 * touches is the user's (`ChangeRules`): the statistics reports' readings of some devices over a time range
 * (api/statistics/report-cache.ts), the alarm list's tables (api/cache/table-answers.ts).
 *
 * A change is told after it committed. An answer computed while a change it overlaps was committed is handed out
 * once and not kept (`begin` before computing, `keep` after). Changes committed by the other servers of a cluster
 * arrive as PostgreSQL notices on the cache's own channel (api/cluster/signals.ts), and ours are sent to them,
 * coalesced while one is on its way; while the listening connection is down nothing is served or kept, and after it
 * everything is dropped. Memory is bounded
 * (an LRU of at most `maxBytes` of answers) and an answer lives at most `ttlMs`.
 */
import { createHash, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { JsonText } from "../http";

/** The cluster's notices (api/cluster/signals.ts ClusterSignals), as far as a cache uses them. */
export interface ClusterNotices {
  on(channel: string, fn: (payload: string) => void): void;
  send(channel: string, payload: string): Promise<void>;
  /** Called when notices may have been missed (the listening connection was lost). */
  onResync(fn: () => void): void;
  /** Whether notices are heard now (false while the listening connection is down). */
  listening(): boolean;
}

/** What a change is for one kind of answer: `C` a change, `T` what an answer read (its tag). */
export interface ChangeRules<C, T> {
  /** The cluster notice channel (`solar_…`). */
  channel: string;
  /** A change touching every answer (data may have changed unseen). */
  everything: C;
  overlaps(tag: T, change: C): boolean;
  /** One change covering both (for a coalesced notice). */
  merge(a: C, b: C): C;
  /** The change as a notice's JSON fields (a notice's payload is at most 8,000 bytes) and back. */
  toNotice(change: C): Record<string, unknown>;
  fromNotice(fields: Record<string, unknown>): C;
  /** Bytes of memory a tag takes beside its answer. */
  tagBytes(tag: T): number;
  /**
   * The keys of every answer a change can touch, when the change names them (an answer kept per plant, and a change
   * of some plants): a change then costs what it names, not a walk over every kept answer. Absent or null: the walk.
   */
  keysOf?(change: C): Iterable<string> | null;
}

/** Changes remembered for answers still being computed (older computations are simply not kept). */
const RECENT_CHANGES = 256;

export class AnswerCache<C, T> {
  private lru: LRUCache<string, { text: JsonText; tag: T }>;
  private generation = 0;
  private recent: Array<{ generation: number; change: C }> = [];
  private notices: ClusterNotices | null = null;
  private readonly instance = randomBytes(6).toString("hex");
  private pending: C | null = null;
  private sending = false;
  private readonly ttlMs: number;

  constructor(
    private readonly rules: ChangeRules<C, T>,
    opts: { maxBytes: number; ttlMs: number },
  ) {
    this.ttlMs = opts.ttlMs;
    this.lru = new LRUCache({
      maxSize: Math.max(1, opts.maxBytes),
      sizeCalculation: (e) => Math.max(1, e.text.body.length + rules.tagBytes(e.tag)),
      ttl: opts.ttlMs,
    });
  }

  /** A key: a digest of everything the answer depends on but the stored data. */
  static keyOf(parts: unknown): string {
    return createHash("sha256").update(JSON.stringify(parts)).digest("base64url");
  }

  /** While the notice channel is down nothing kept is served: a change on another server would go unheard. */
  get(key: string): JsonText | undefined {
    if (this.notices && !this.notices.listening()) return undefined;
    return this.lru.get(key)?.text;
  }

  /** Whether kept answers are served now (the notice channel is up, or there is none: one server). */
  serving(): boolean {
    return !this.notices || this.notices.listening();
  }

  /** Taken before an answer is computed; `keep` keeps the answer only if no overlapping change came since. */
  begin(): number {
    return this.generation;
  }

  /** `ttlMs`, when given, is this answer's own lifetime (at most the cache's). */
  keep(key: string, since: number, text: JsonText, tag: T, ttlMs?: number): void {
    if (!this.serving()) return;
    if (since !== this.generation) {
      const oldest = this.recent[0]?.generation ?? this.generation;
      if (since < oldest - 1) return;
      if (this.recent.some((r) => r.generation > since && this.rules.overlaps(tag, r.change))) return;
    }
    if (text.body.length > (this.lru.maxSize ?? 0) / 4) return;
    this.lru.set(key, { text, tag }, ttlMs === undefined ? undefined : { ttl: Math.max(1, Math.min(this.ttlMs, ttlMs)) });
  }

  /** The kept answer for `key`, else `compute`'s (kept unless a change it read came meanwhile). */
  async answer(key: string, tag: T, compute: () => Promise<unknown>): Promise<JsonText> {
    const kept = this.get(key);
    if (kept) return kept;
    const since = this.begin();
    const text = new JsonText(JSON.stringify(await compute()));
    this.keep(key, since, text, tag);
    return text;
  }

  /** Stored data changed (committed) on this server: drop what it touches here and tell the other servers. */
  changed(change: C): void {
    this.apply(change);
    this.publish(change);
  }

  /** Drops every answer (data may have changed unseen). */
  clear(): void {
    this.apply(this.rules.everything);
  }

  get size(): number {
    return this.lru.size;
  }

  /** Stored data changed, and every server hears of it by itself (migration 0018): drop what it touches here only. */
  protected dropHere(change: C): void {
    this.apply(change);
  }

  private apply(change: C): void {
    this.generation++;
    this.recent.push({ generation: this.generation, change });
    if (this.recent.length > RECENT_CHANGES) this.recent.shift();
    const keys = this.rules.keysOf?.(change);
    if (keys) {
      for (const key of keys) {
        const entry = this.lru.peek(key);
        if (entry && this.rules.overlaps(entry.tag, change)) this.lru.delete(key);
      }
      return;
    }
    for (const [key, entry] of this.lru.entries()) if (this.rules.overlaps(entry.tag, change)) this.lru.delete(key);
  }

  /** Hears the other servers' changes, and sends ours to them. */
  share(notices: ClusterNotices): void {
    this.notices = notices;
    notices.on(this.rules.channel, (payload) => {
      try {
        const m = JSON.parse(payload) as Record<string, unknown> & { i: string };
        if (m.i === this.instance) return;
        this.apply(this.rules.fromNotice(m));
      } catch {
        this.clear();
      }
    });
    notices.onResync(() => this.clear());
  }

  private publish(change: C): void {
    if (!this.notices) return;
    this.pending = this.pending ? this.rules.merge(this.pending, change) : change;
    if (this.sending) return;
    const c = this.pending;
    this.pending = null;
    this.sending = true;
    void this.notices
      .send(this.rules.channel, JSON.stringify({ i: this.instance, ...this.rules.toNotice(c) }))
      .catch(() => undefined)
      .finally(() => {
        this.sending = false;
        const next = this.pending;
        this.pending = null;
        if (next) this.publish(next);
      });
  }
}
