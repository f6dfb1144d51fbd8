/**
 * The only door from the portal to the /api service: typed calls over HTTP with the member's
 * bearer token. A 401 {isLogin:false} sends the browser to /login (SPEC §7 handling of answers).
 */
import { redirect } from "@remix-run/node";
import type { ApiErrorBody } from "../../domain/contract";
import { clearAuthCookieHeaders, withCookies } from "../auth/cookies.server";
import { apiUrl } from "../env.server";

export class ApiFailure extends Error {
  constructor(public status: number, public body: ApiErrorBody) {
    super(body.message || `api ${status}`);
  }
}

export interface ApiCall {
  token?: string | null;
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null | Array<string | number>>;
  clientIp?: string;
  /** Answer non-2xx with an ApiFailure instead of following the 401 rule (for login itself). */
  raw401?: boolean;
}

export async function api<T>(path: string, call: ApiCall = {}): Promise<T> {
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
  let body: string | FormData | undefined;
  if (call.body instanceof FormData) {
    // Multipart (file uploads): fetch sets the content type with its boundary.
    body = call.body;
  } else if (call.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(call.body);
  }
  const res = await fetch(url, { method: call.method ?? "GET", headers, body });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = { message: text.slice(0, 200) };
  }
  if (res.ok) return data as T;
  const err = (data ?? { message: res.statusText }) as ApiErrorBody;
  if (res.status === 401 && err.isLogin === false && !call.raw401) {
    // The API ended the session (logout elsewhere, password change, token reuse). Drop the cookies too:
    // /login would otherwise send a locally unexpired access token straight back here, in a loop.
    throw redirect("/login", { headers: withCookies(clearAuthCookieHeaders(false)) });
  }
  throw new ApiFailure(res.status, err);
}
