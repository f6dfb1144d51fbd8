/**
 * Runs once per portal request, before any loader or action (server.ts getLoadContext).
 * It reads the session cookies and, when the access token has expired, renews it with the
 * refresh token exactly once — parallel loaders would otherwise race on one rotation (SPEC §4
 * Token check). The renewed cookies are written on the response; loaders read the result here.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { decodeTokenPayload, isTokenExpired, type AccessClaims } from "../../domain/contract/auth";
import { renewAccessToken } from "../models/member.server";
import { createNonce } from "../utils/csp.server";
import { authCookieHeaders, clearAuthCookieHeaders, readCookies } from "./cookies.server";

export interface PortalAuth {
  accessToken: string;
  user: AccessClaims;
}

export type AuthProblem = "none" | "missing" | "renewal_failed";

declare module "@remix-run/node" {
  interface AppLoadContext {
    auth: PortalAuth | null;
    authProblem: AuthProblem;
    clientIp: string;
    /** A Remix data request (client navigation or revalidation, `?_data=`), not a document. */
    dataRequest: boolean;
    /** The CSP nonce of this response (app/csp.server.ts). */
    cspNonce: string;
  }
}

/** Renew an access token at most a few seconds before it expires, so a loader never holds a dead one. */
const EXPIRY_SKEW_MS = 5_000;
const inFlight = new Map<string, Promise<Awaited<ReturnType<typeof renewAccessToken>> | null>>();

function renewOnce(refreshToken: string, clientIp: string) {
  let pending = inFlight.get(refreshToken);
  if (!pending) {
    pending = renewAccessToken(refreshToken, clientIp).catch(() => null);
    inFlight.set(refreshToken, pending);
    // Keep the answer briefly for requests that arrive just after it settles.
    void pending.finally(() => setTimeout(() => inFlight.delete(refreshToken), 5_000).unref());
  }
  return pending;
}

export async function portalLoadContext(req: ExpressRequest, res: ExpressResponse) {
  const base = { clientIp: req.ip ?? "unknown", dataRequest: typeof req.query._data === "string", cspNonce: createNonce() };
  const { clientIp } = base;
  const cookies = readCookies(req.headers.cookie);
  const secure = req.protocol === "https";
  const accessToken = cookies.accessToken;
  const claims = decodeTokenPayload<AccessClaims>(accessToken);
  if (accessToken && claims && !isTokenExpired(claims, Date.now(), EXPIRY_SKEW_MS)) {
    return { auth: { accessToken, user: claims }, authProblem: "none" as AuthProblem, ...base };
  }
  const refreshToken = cookies.refreshToken;
  if (!refreshToken) {
    if (accessToken) for (const c of clearAuthCookieHeaders(secure)) res.append("Set-Cookie", c);
    return { auth: null, authProblem: "missing" as AuthProblem, ...base };
  }
  // SPEC §5: renewal is refused locally when the refresh token's own expiry has passed.
  const tokens = isTokenExpired(decodeTokenPayload(refreshToken)) ? null : await renewOnce(refreshToken, clientIp);
  const renewed = tokens ? decodeTokenPayload<AccessClaims>(tokens.accessToken) : null;
  if (!tokens || !renewed) {
    for (const c of clearAuthCookieHeaders(secure)) res.append("Set-Cookie", c);
    return { auth: null, authProblem: "renewal_failed" as AuthProblem, ...base };
  }
  for (const c of authCookieHeaders(tokens, secure)) res.append("Set-Cookie", c);
  return { auth: { accessToken: tokens.accessToken, user: renewed }, authProblem: "none" as AuthProblem, ...base };
}
