/**
 * Rendered documents kept for reuse (issues 14 and 16: twenty people on the same alarm list or report). A page's
 * HTML is a pure function of the request's URL and its routes' loader data: every per-member and per-request
 * thing the render reads comes through loader data (the root's CSRF token, locale and theme; the shell's member,
 * notices and flash message; a screen's own clock, e.g. /alarm's "now" to the minute, /statistics's "generated
 * at"), and no component reads a clock, a cookie or a header while rendering. So two requests with the same URL
 * and the same loader data get the same document, and the second one need not render React again: its HTML is
 * taken from here, only the CSP nonce (random, unique per response) replaced by this response's own.
 *
 * The key is a SHA-256 of the URL and the loader data as JSON. Loader data that JSON would not describe exactly
 * (a Map, a Set, a promise of deferred data, a class instance) makes the page unmemoisable: it is rendered as
 * usual and not kept. Kept only are GET documents answered 200 without errors, without deferred data, and
 * without a Set-Cookie (a first visit minting a CSRF token, a flash message being cleared: pages that are not
 * asked again as they are). Headers are never kept: each response's are its own request's. One memo per portal
 * process (one process per core), bounded by bytes (least recently used first out).
 */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

/** Thrown by the key's JSON replacer on a value JSON does not describe exactly. */
class Unmemoisable extends Error {}

function plainOnly(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new Unmemoisable();
  }
  return value;
}

export interface MemoStats {
  hits: number;
  misses: number;
  stored: number;
  bytes: number;
}

export class DocumentMemo {
  /** A kept document: its UTF-8 bytes cut where its nonce was (a page holds it a few times, in its scripts). */
  private readonly lru: LRUCache<string, Buffer[]> | null;
  readonly stats: MemoStats = { hits: 0, misses: 0, stored: 0, bytes: 0 };

  /** `maxBytes` 0 turns the memo off. */
  constructor(maxBytes: number) {
    this.lru =
      maxBytes > 0
        ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (parts) => parts.reduce((n, p) => n + p.length, 200) })
        : null;
  }

  /**
   * The key of a document, or null when its loader data is not plain JSON (then it is not memoised). `parsed`:
   * the data is known to be parsed JSON — without single fetch, Remix passes every loader's answer through
   * `json()` and back, deferred data aside — so the check of every value (2–3× the cost of the JSON) is skipped.
   */
  static keyOf(url: string, loaderData: unknown, parsed = false): string | null {
    let json: string;
    try {
      json = parsed ? JSON.stringify(loaderData) : JSON.stringify(loaderData, plainOnly);
    } catch (error) {
      if (error instanceof Unmemoisable) return null;
      throw error;
    }
    return createHash("sha256")
      .update(url)
      .update("\0")
      .update(json ?? "")
      .digest("base64url");
  }

  /**
   * The document for `key` with `nonce` in it, as UTF-8: the kept one when there is one (its bytes joined around
   * the new nonce: no render, no encoding of the text again), else `render(nonce)`'s, kept when `keep` says so.
   * `key` null: rendered, never kept.
   */
  document(key: string | null, nonce: string, render: (nonce: string) => string, keep: boolean): Buffer<ArrayBuffer> {
    if (!this.lru || key === null) return Buffer.from(render(nonce));
    const kept = this.lru.get(key);
    if (kept) {
      this.stats.hits++;
      return joinAround(kept, Buffer.from(nonce));
    }
    this.stats.misses++;
    const html = render(nonce);
    // A nonce too short to be unique in a page could not be replaced exactly (createNonce's are 24 characters).
    if (!keep || nonce.length < 16 || !html.includes(nonce)) return Buffer.from(html);
    const parts = html.split(nonce).map((part) => Buffer.from(part));
    this.lru.set(key, parts);
    this.stats.stored = this.lru.size;
    this.stats.bytes = this.lru.calculatedSize;
    return joinAround(parts, Buffer.from(nonce));
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}

function joinAround(parts: Buffer[], nonce: Buffer): Buffer<ArrayBuffer> {
  const all: Buffer[] = [parts[0]!];
  for (let i = 1; i < parts.length; i++) all.push(nonce, parts[i]!);
  return Buffer.concat(all);
}

/** What of Remix's handler context decides whether a page may be memoised. */
export interface MemoContext {
  /** Remix's future flags: without single fetch, loader data is always parsed JSON. */
  future?: { v3_singleFetch?: boolean };
  errors?: unknown;
  actionData?: unknown;
  activeDeferreds?: Record<string, unknown> | null;
  loaderData: unknown;
}

/**
 * The memo key of a document response, or null when it is not memoised: only a GET answered 200, with no route
 * error, no action data and no deferred data (a promise's result is not in its JSON).
 */
export function documentKey(request: Request, status: number, ctx: MemoContext): string | null {
  const plain =
    request.method === "GET" &&
    status === 200 &&
    !ctx.errors &&
    !ctx.actionData &&
    !Object.keys(ctx.activeDeferreds ?? {}).length;
  return plain ? DocumentMemo.keyOf(request.url, ctx.loaderData, ctx.future?.v3_singleFetch === false) : null;
}

const DEFAULT_MEMO_MB = 32;

/** Bytes of documents a portal process keeps (DOCUMENT_MEMO_MB, validated by config.ts at start). */
export function documentMemoBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = env.DOCUMENT_MEMO_MB ? Number(env.DOCUMENT_MEMO_MB) : DEFAULT_MEMO_MB;
  return Math.floor((Number.isFinite(mb) && mb >= 0 ? mb : DEFAULT_MEMO_MB) * 1024 * 1024);
}
