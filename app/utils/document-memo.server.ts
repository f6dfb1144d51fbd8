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
import { constants, crc32, deflateRawSync } from "node:zlib";
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

/**
 * A kept document: its UTF-8 bytes cut where its nonce was (a page holds it a few times, in its scripts), and the
 * same parts compressed once each as raw deflate, made to be joined into a gzip body around any nonce (`gzipped`).
 */
interface Kept {
  parts: Buffer[];
  deflated: Buffer[];
}

export class DocumentMemo {
  private readonly lru: LRUCache<string, Kept> | null;
  readonly stats: MemoStats = { hits: 0, misses: 0, stored: 0, bytes: 0 };

  /** `maxBytes` 0 turns the memo off. */
  constructor(maxBytes: number) {
    this.lru =
      maxBytes > 0
        ? new LRUCache({
            maxSize: maxBytes,
            sizeCalculation: (kept) => [...kept.parts, ...kept.deflated].reduce((n, p) => n + p.length, 200),
          })
        : null;
  }

  /**
   * The key of a document, or null when its loader data is not plain JSON (then it is not memoised). `parsed`:
   * the data is known to be parsed JSON — without single fetch, Remix passes every loader's answer through
   * `json()` and back, deferred data aside — so the check of every value (2–3× the cost of the JSON) is skipped.
   */
  static keyOf(url: string, loaderData: unknown, parsed = false, json?: string): string | null {
    try {
      json ??= parsed ? JSON.stringify(loaderData) : JSON.stringify(loaderData, plainOnly);
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
      return joinAround(kept.parts, Buffer.from(nonce));
    }
    this.stats.misses++;
    const html = render(nonce);
    // A nonce too short to be unique in a page could not be replaced exactly (createNonce's are 24 characters).
    if (!keep || nonce.length < 16 || !html.includes(nonce)) return Buffer.from(html);
    const parts = html.split(nonce).map((part) => Buffer.from(part));
    this.lru.set(key, { parts, deflated: deflateParts(parts) });
    this.stats.stored = this.lru.size;
    this.stats.bytes = this.lru.calculatedSize;
    return joinAround(parts, Buffer.from(nonce));
  }

  /**
   * The kept document for `key` with `nonce` in it as a gzip body (RFC 1952), or null when none is kept: its parts'
   * deflate blocks, made when it was kept, joined around the nonce as a stored block — no compression per response,
   * only the CRC-32 of the page. `key` null: null.
   */
  gzipped(key: string | null, nonce: string): Buffer<ArrayBuffer> | null {
    const kept = key === null ? undefined : this.lru?.get(key);
    const nonceBytes = Buffer.from(nonce);
    if (!kept || nonceBytes.length > 0xffff) return null; // a stored block holds up to 65,535 bytes
    this.stats.hits++;
    // A stored block of the nonce, not the last: header bits 000 padded to the byte (the parts' blocks before it end
    // on a byte, by the sync flush), then LEN and its one's complement, little-endian, then the bytes themselves.
    const stored = Buffer.alloc(5 + nonceBytes.length);
    stored.writeUInt16LE(nonceBytes.length, 1);
    stored.writeUInt16LE(~nonceBytes.length & 0xffff, 3);
    nonceBytes.copy(stored, 5);
    let crc = crcOn(kept.parts[0]!, 0);
    let size = kept.parts[0]!.length;
    const all: Buffer[] = [GZIP_HEADER, kept.deflated[0]!];
    for (let i = 1; i < kept.parts.length; i++) {
      crc = crcOn(kept.parts[i]!, crcOn(nonceBytes, crc));
      size += nonceBytes.length + kept.parts[i]!.length;
      all.push(stored, kept.deflated[i]!);
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size >>> 0, 4);
    all.push(trailer);
    return Buffer.concat(all);
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}

/**
 * The CRC-32 of `bytes` following `crc`. An empty buffer leaves it as it is: Node's zlib.crc32 gives 0 for an empty
 * `Buffer.from("")` (zlib's crc32 of a null pointer), whatever the CRC so far.
 */
function crcOn(bytes: Buffer, crc: number): number {
  return bytes.length ? crc32(bytes, crc) : crc;
}

/** A gzip member's header: deflate, no flags, no time, default compression, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * Each part compressed on its own as raw deflate. Distances in deflate point back within what a part's own blocks
 * wrote, so the parts' outputs stay valid wherever they are joined; all but the last end with a sync flush (not the
 * final block, ending on a byte), the last with the final block.
 */
function deflateParts(parts: Buffer[]): Buffer[] {
  return parts.map((part, i) => deflateRawSync(part, i < parts.length - 1 ? { finishFlush: constants.Z_SYNC_FLUSH } : {}));
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
 * error, no action data and no deferred data (a promise's result is not in its JSON). `serverHandoff`: Remix's
 * `serverHandoffString` of this response (its state: loader data, action data, errors), used as the data's JSON.
 */
export function documentKey(request: Request, status: number, ctx: MemoContext, serverHandoff?: string): string | null {
  const plain =
    request.method === "GET" &&
    status === 200 &&
    !ctx.errors &&
    !ctx.actionData &&
    !Object.keys(ctx.activeDeferreds ?? {}).length;
  if (!plain) return null;
  const parsed = ctx.future?.v3_singleFetch === false;
  // Without single fetch Remix has already written the loader data (and the build's settings) as JSON into its
  // hand-off string, escaped for HTML in a way JSON.parse reads back exactly: hashing that is hashing the data,
  // without serialising it a second time.
  return DocumentMemo.keyOf(request.url, ctx.loaderData, parsed, parsed && serverHandoff ? serverHandoff : undefined);
}

const DEFAULT_MEMO_MB = 32;

/** Bytes of documents a portal process keeps (DOCUMENT_MEMO_MB, validated by config.ts at start). */
export function documentMemoBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = env.DOCUMENT_MEMO_MB ? Number(env.DOCUMENT_MEMO_MB) : DEFAULT_MEMO_MB;
  return Math.floor((Number.isFinite(mb) && mb >= 0 ? mb : DEFAULT_MEMO_MB) * 1024 * 1024);
}
