/**
 * Payloads of the session calls (SPEC §3 "User state", §7 member login, tokens, profile), shared by the API and
 * the portal, with the tiny pure helpers that read a token. Each call is documented in api/openapi/.
 */
import type { ApiTokenClaims } from "../api-tokens";

/** Claims of the access token: the "User state" of SPEC §3 plus what the session needs. */
export interface AccessClaims {
  id: string;
  exp: number;
  iat: number;
  /** Session (token family) id; also returned as sessionId. */
  sid: string;
  auth: number;
  service: number;
  nodeName: string;
  logo: string;
  S3_DOMAIN: string;
  diagram: number;
  cctv: number;
  page: number;
  phone: string;
  helmetName: string;
  plantName: string;
  alarmCount: number;
  /** 1 while the member must change the password before anything else. */
  pwd_yn: number;
  /** 1 for the read-only guest member: every write is refused. */
  readOnly: number;
  /** Only in detail-window sessions: the one plant or member they may see (SPEC §2 Detail window). */
  scope?: DetailScope;
  /** Only in calls made with an API token (domain/api-tokens.ts): the token, its scope and plant limit. */
  apiToken?: ApiTokenClaims;
  typ: "access";
}

/** The reach of a detail-window session: one plant (by uid) or one member (by id). */
export interface DetailScope {
  kind: "plant" | "member";
  uid: string;
}

export interface LoginResponse {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  pwd_yn: number;
  /** Login only: the device token of this browser for this member (the portal keeps it in the cookie `device`). */
  deviceToken?: string;
}

export type TokenResponse = LoginResponse;

export interface MemberProfile {
  id: string;
  name: string;
  auth: number;
  service: number;
  node_seq: number | null;
  nodeName: string;
  use_yn: number;
  pwd_yn: number;
  readOnly: number;
  logo: string | null;
  phone: string | null;
  email: string | null;
}

/** Decodes a JWT payload without verifying it (the API verifies on every call). */
export function decodeTokenPayload<T = Record<string, unknown>>(token: string | null | undefined): T | null {
  if (!token) return null;
  const part = token.split(".")[1];
  if (!part) return null;
  try {
    const json =
      typeof atob === "function"
        ? decodeURIComponent(escape(atob(part.replace(/-/g, "+").replace(/_/g, "/"))))
        : Buffer.from(part, "base64url").toString("utf8");
    const value = JSON.parse(json);
    return value && typeof value === "object" ? (value as T) : null;
  } catch {
    return null;
  }
}

/** SPEC §5 local expiry check: a token whose exp × 1000 has passed is expired. */
export function isTokenExpired(payload: { exp?: unknown } | null, now = Date.now(), skewMs = 0): boolean {
  if (!payload || typeof payload.exp !== "number") return true;
  return payload.exp * 1000 <= now + skewMs;
}
