/**
 * The only door from the portal to the /api service: typed calls over HTTP with the member's
 * bearer token. A 401 {isLogin:false} sends the browser to /login (SPEC §7 handling of answers).
 */
import { redirect } from "@remix-run/node";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { LRUCache } from "lru-cache";
import { Agent, request } from "undici";
import type { AnswerOf, JsonCall } from "../../domain/contract/answers";
import type { ApiErrorBody } from "../../domain/contract/errors";
import { clearAuthCookieHeaders, withCookies } from "../auth/cookies.server";
import { apiUrl } from "../utils/env.server";

export class ApiFailure extends Error {
  constructor(
    public status: number,
    public body: ApiErrorBody,
  ) {
    super(body.message || `api ${status}`);
  }
}

export interface ApiCall {
  token?: string | null;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null | Array<string | number>>;
  clientIp?: string;
  /** More request headers (e.g. a command's Idempotency-Key). */
  headers?: Record<string, string>;
  /** Answer non-2xx with an ApiFailure instead of following the 401 rule (for login itself). */
  raw401?: boolean;
}

/**
 * Kept-alive connections to the API. undici's request() rather than the global fetch: every page
 * makes one or two of these calls, and fetch's WHATWG Request/Response and stream machinery cost
 * more CPU than the call itself (about a tenth of a /pvstatus render, measured with --cpu-prof).
 */
const dispatcher = new Agent({ keepAliveTimeout: 4_000, connections: 64 });

interface Sent {
  status: number;
  statusText: string;
  etag: string | null;
  /** The body as text; or, with `skip`, nothing: the body is drained unread. */
  read(skip?: boolean): Promise<string>;
}

async function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | FormData | undefined,
): Promise<Sent> {
  if (body instanceof FormData) {
    // Multipart (file uploads, rare): fetch writes the body and its boundary.
    const res = await fetch(url, { method, headers, body });
    const text = res.status === 204 ? "" : await res.text();
    return { status: res.status, statusText: res.statusText, etag: res.headers.get("etag"), read: async () => text };
  }
  const res = await request(url, { method: method as "GET", headers, body, dispatcher });
  const etag = res.headers.etag;
  return {
    status: res.statusCode,
    statusText: "",
    etag: typeof etag === "string" ? etag : null,
    read: async (skip = false) => (skip || res.statusCode === 204 ? (await res.body.dump(), "") : await res.body.text()),
  };
}

export async function api<T>(path: string, call: ApiCall = {}): Promise<T> {
  const text = await apiText(path, call);
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return { message: text.slice(0, 200) } as T;
  }
}

/** The path parameters a call's template names (`/alarm/{seq}/ack` → `{ seq }`). */
type ParamsOf<T extends string> = T extends `${string}{${infer P}}${infer Rest}`
  ? { [K in P]: string | number } & ParamsOf<Rest>
  : unknown;
type TemplateOf<K extends string> = K extends `${string} ${infer T}` ? T : never;

/**
 * A call of the contract by its method and path template (`call("post /alarm/{seq}/ack", { params: { seq } })`): the
 * answer is typed by the schema the API answers it with (domain/contract/answers.ts), so no model copies or casts a
 * payload type. Path parameters are URL-encoded here.
 */
export function call<K extends JsonCall>(
  key: K,
  opts: Omit<ApiCall, "method"> &
    (object extends ParamsOf<TemplateOf<K>> ? { params?: undefined } : { params: ParamsOf<TemplateOf<K>> }),
): Promise<AnswerOf<K>> {
  const [method, template] = key.split(" ") as [string, string];
  const { params, ...rest } = opts as ApiCall & { params?: Record<string, string | number> };
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name])));
  return api<AnswerOf<K>>(path, { ...rest, method: method.toUpperCase() as ApiCall["method"] });
}

/**
 * The same call, answering the body as received (a 2xx answer's JSON text; "" for 204). For callers
 * that keep what they derive from an answer and can tell an unchanged answer by its text.
 */
export async function apiText(path: string, call: ApiCall = {}): Promise<string> {
  const calls = requestCalls.getStore();
  if (!calls || (call.method ?? "GET") !== "GET" || call.body !== undefined || call.raw401) {
    return (await apiTagged(path, call, () => false)).text ?? "";
  }
  // One portal request's loaders run side by side; two of them asking the same GET (the shell's alarm badge and the
  // dashboard's alarm panel) share one call. Kept for that request only: the next request asks again.
  const key = JSON.stringify([path, call.query ?? null, call.token ?? null, call.clientIp ?? null, call.headers ?? null]);
  let text = calls.get(key);
  if (!text) calls.set(key, (text = apiTagged(path, call, () => false).then((r) => r.text ?? "")));
  return text;
}

/**
 * The GET calls of the portal request being answered (oneRequest), by what they ask. One instance per process under a
 * global key: server.ts (its own bundle) starts the request's scope, the Remix build's loaders use it.
 */
const REQUEST_CALLS = Symbol.for("solar-portal.request-calls");
const requestCalls: AsyncLocalStorage<Map<string, Promise<string>>> = ((globalThis as Record<symbol, unknown>)[REQUEST_CALLS] ??=
  new AsyncLocalStorage()) as AsyncLocalStorage<Map<string, Promise<string>>>;

/** Answers one portal request: within it, an identical GET to the API is sent once (apiText). */
export function oneRequest<T>(answer: () => T): T {
  return requestCalls.run(new Map(), answer);
}

/**
 * The same call for answers the API tags with an ETag (answers it keeps per status snapshot): when
 * `holds(etag)` says the caller already keeps what it derived from that answer, the body is drained
 * unread (text null), which spares decoding a few hundred kilobytes on every wallboard poll.
 */
export async function apiTagged(
  path: string,
  call: ApiCall,
  holds: (etag: string) => boolean,
): Promise<{ etag: string | null; text: string | null }> {
  const url = new URL(`/api${path}`, apiUrl());
  for (const [k, v] of Object.entries(call.query ?? {})) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, String(x)));
    else url.searchParams.set(k, String(v));
  }
  const headers: Record<string, string> = { accept: "application/json" };
  // Loopback calls: compressing the JSON only to inflate it again costs more CPU than it saves.
  if (/^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname)) headers["accept-encoding"] = "identity";
  if (call.token) headers.authorization = `Bearer ${call.token}`;
  if (call.clientIp) headers["x-forwarded-for"] = call.clientIp;
  if (call.headers) Object.assign(headers, call.headers);
  let body: string | FormData | undefined;
  if (call.body instanceof FormData) {
    body = call.body;
  } else if (call.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(call.body);
  }
  const res = await send(url, call.method ?? "GET", headers, body);
  if (res.status >= 200 && res.status < 300) {
    const held = res.etag !== null && holds(res.etag);
    const text = await res.read(held);
    return { etag: res.etag, text: held ? null : text };
  }
  const text = await res.read();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = { message: text.slice(0, 200) };
  }
  const err = (data ?? { message: res.statusText || `api ${res.status}` }) as ApiErrorBody;
  if (res.status === 401 && err.isLogin === false && !call.raw401) {
    // The API ended the session (logout elsewhere, password change, token reuse). Drop the cookies too:
    // /login would otherwise send a locally unexpired access token straight back here, in a loop.
    throw redirect("/login", { headers: withCookies(clearAuthCookieHeaders(false)) });
  }
  if (res.status === 503 && err.message === "database_unavailable") {
    // The database is away for a moment: every page answers the plain 503 page (root ErrorBoundary).
    throw new Response("database_unavailable", { status: 503, headers: { "Retry-After": "5" } });
  }
  throw new ApiFailure(res.status, err);
}

/**
 * Freezes a value shared between requests, deeply, outside production (NODE_ENV other than production, or
 * FREEZE_SHARED=1 as the API and e2e tests' servers run): a caller that changes it then throws instead of
 * changing what the next request gets. In production it is the value as it is (freezing costs a walk of it).
 */
export function frozenInTests<T>(value: T): T {
  if (process.env.NODE_ENV === "production" && process.env.FREEZE_SHARED !== "1") return value;
  const walk = (v: unknown) => {
    if (v === null || typeof v !== "object" || Object.isFrozen(v)) return;
    Object.freeze(v);
    for (const child of Object.values(v)) walk(child);
  };
  walk(value);
  return value;
}

/** A shape kept by apiShaped, with the size of the answer it was made from (which stands in for the shape's). */
export interface KeptShape {
  bytes: number;
}

/** Where apiShaped keeps one caller's shapes: least recently used first out, bounded by their answers' bytes. */
export function keptShapes<T extends KeptShape>(maxBytes: number, maxEntries?: number): LRUCache<string, T> {
  return new LRUCache<string, T>({
    ...(maxEntries ? { max: maxEntries } : {}),
    maxSize: maxBytes,
    sizeCalculation: (kept) => Math.max(1, kept.bytes),
  });
}

/**
 * What a caller derives from an answer the API tags with an ETag, kept in `kept` under `prefix` (what else the
 * shaping depends on: the view, the language) and the tag: the same answer asked again — twenty wallboards on one
 * view, a report page reloaded or asked by the next member — is neither read nor parsed nor shaped again (apiTagged
 * drains its body unread). The tag names the answer's bytes, so a shape kept for one member's call serves another
 * whose call the API answered with the same bytes. An answer without a tag is keyed by a hash of its text. Answers
 * `{ key, value }`: the kept entry's key (for what the caller keeps on top of it) and the shape. The shape is shared
 * by every request that gets it: it is frozen in development and tests (frozenInTests), so a change fails loudly.
 */
export async function apiShaped<T extends KeptShape>(
  path: string,
  call: ApiCall,
  kept: LRUCache<string, T>,
  prefix: string,
  shape: (text: string) => T,
): Promise<{ key: string; value: T }> {
  for (let attempt = 0; ; attempt++) {
    // A second attempt reads the body whatever its tag (the entry was dropped meanwhile).
    const { etag, text } = await apiTagged(path, call, (tag) => attempt === 0 && kept.has(prefix + tag));
    const key =
      prefix +
      (etag ??
        createHash("sha1")
          .update(text ?? "")
          .digest("base64"));
    let value = kept.get(key);
    if (!value && text === null) continue;
    if (!value) kept.set(key, (value = frozenInTests(shape(text!))));
    return { key, value };
  }
}

/**
 * A call whose answer is a file (report exports): on 2xx its content type, disposition and body as a stream,
 * passed on without being read into memory; a refusal throws ApiFailure like api().
 */
export async function apiFile(
  path: string,
  call: Pick<ApiCall, "token" | "query">,
): Promise<{ contentType: string; disposition: string | null; body: ReadableStream<Uint8Array> }> {
  const url = new URL(`/api${path}`, apiUrl());
  for (const [k, v] of Object.entries(call.query ?? {})) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, String(x)));
    else url.searchParams.set(k, String(v));
  }
  const headers: Record<string, string> = { "accept-encoding": "identity" };
  if (call.token) headers.authorization = `Bearer ${call.token}`;
  const res = await request(url, { method: "GET", headers, dispatcher });
  if (res.statusCode >= 200 && res.statusCode < 300) {
    const h = (k: string) => {
      const v = res.headers[k];
      return typeof v === "string" ? v : null;
    };
    return {
      contentType: h("content-type") ?? "application/octet-stream",
      disposition: h("content-disposition"),
      body: Readable.toWeb(res.body) as ReadableStream<Uint8Array>,
    };
  }
  const text = await res.body.text();
  let body: ApiErrorBody;
  try {
    body = JSON.parse(text) as ApiErrorBody;
  } catch {
    body = { message: text.slice(0, 200) };
  }
  if (res.statusCode === 401 && body.isLogin === false)
    throw redirect("/login", { headers: withCookies(clearAuthCookieHeaders(false)) });
  throw new ApiFailure(res.statusCode, body);
}
