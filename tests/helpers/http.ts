/** A small JSON client for the /api of a test server. */
import { randomInt } from "node:crypto";
import type { LoginResponse } from "../../domain/contract/auth";
import type { ApiErrorBody } from "../../domain/contract/errors";
import type { StoreKind } from "./server";

/** The stores every API suite runs on; TEST_STORES=sqlite narrows it for a quick local run. */
export const STORES: StoreKind[] = (process.env.TEST_STORES ?? "sqlite,postgres")
  .split(",")
  .map((s) => s.trim())
  .filter((s): s is StoreKind => s === "sqlite" || s === "postgres");

/** A token answer, or the error body on failure. */
type TokensOrError = LoginResponse & Partial<ApiErrorBody>;

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  /** JSON-encoded unless `raw` is given. */
  json?: unknown;
  /** A raw request body (sent as is, with `contentType`). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * A random client address for X-Forwarded-For (the server trusts it from loopback), so tests do not
 * share throttle counters. Taken from the IPv6 documentation prefix: a header value, never a target.
 */
export function randomIp(): string {
  const group = () => randomInt(0x10000).toString(16);
  return `2001:db8::${group()}:${group()}:${group()}`;
}

export function apiClient(baseUrl: string, ip = randomIp()) {
  async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { accept: "application/json", "x-forwarded-for": ip, ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      headers["content-type"] = opts.contentType ?? "application/json";
    } else if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = "application/json";
    }
    const res = await fetch(`${baseUrl}/api${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    ip,
    call,
    login: (id: string, password: string) => call<TokensOrError>("POST", "/member/login", { json: { id, password } }),
    /** Logs in and fails loudly unless it worked. */
    async session(id: string, password: string): Promise<LoginResponse> {
      const res = await call<LoginResponse>("POST", "/member/login", { json: { id, password } });
      if (res.status !== 200) throw new Error(`login ${id} failed: ${res.status} ${res.text}`);
      return res.body;
    },
    refreshAccess: (refreshToken: string) => call<TokensOrError>("PUT", "/member/refresh/accessToken", { token: refreshToken }),
    refreshRefresh: (refreshToken: string) => call<TokensOrError>("PUT", "/member/refresh/refreshToken", { token: refreshToken }),
    isAuth: (token?: string) => call("GET", "/member/isAuth", { token }),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
