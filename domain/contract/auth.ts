/**
 * Payloads of the session calls (SPEC §3 "User state", §7 member login, tokens, profile), shared by the API and
 * the portal, with the tiny pure helpers that read a token. Each call is documented in api/openapi/.
 */
import { z } from "zod";
import { ApiTokenClaims } from "./shared";

/** The reach of a detail-window session: one plant (by uid) or one member (by id). */
export const DetailScope = z.object({
  kind: z.union([z.literal("plant"), z.literal("member")]),
  uid: z.string(),
});
export type DetailScope = z.infer<typeof DetailScope>;

/** Claims of the access token: the "User state" of SPEC §3 plus what the session needs. */
export const AccessClaims = z.object({
  id: z.string(),
  exp: z.number(),
  iat: z.number(),
  /** Session (token family) id; also returned as sessionId. */
  sid: z.string(),
  auth: z.number(),
  service: z.number(),
  nodeName: z.string(),
  logo: z.string(),
  S3_DOMAIN: z.string(),
  diagram: z.number(),
  cctv: z.number(),
  page: z.number(),
  phone: z.string(),
  helmetName: z.string(),
  plantName: z.string(),
  alarmCount: z.number(),
  /** 1 while the member must change the password before anything else. */
  pwd_yn: z.number(),
  /** 1 for the read-only guest member: every write is refused. */
  readOnly: z.number(),
  /** Only in detail-window sessions: the one plant or member they may see (SPEC §2 Detail window). */
  scope: DetailScope.optional(),
  /** Only in calls made with an API token (domain/api-tokens.ts): the token, its scope and plant limit. */
  apiToken: ApiTokenClaims.optional(),
  typ: z.literal("access"),
});
export type AccessClaims = z.infer<typeof AccessClaims>;

export const LoginResponse = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  sessionId: z.string(),
  pwd_yn: z.number(),
  /** Login only: the device token of this browser for this member (the portal keeps it in the cookie `device`). */
  deviceToken: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const TokenResponse = LoginResponse;
export type TokenResponse = z.infer<typeof TokenResponse>;

export const MemberProfile = z.object({
  id: z.string(),
  name: z.string(),
  auth: z.number(),
  service: z.number(),
  node_seq: z.number().nullable(),
  nodeName: z.string(),
  use_yn: z.number(),
  pwd_yn: z.number(),
  readOnly: z.number(),
  logo: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});
export type MemberProfile = z.infer<typeof MemberProfile>;

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

/** GET /member/isAuth: the verified claims of the access token. */
export const IsAuthResponse = AccessClaims.extend({ isLogin: z.literal(true) });
export type IsAuthResponse = z.infer<typeof IsAuthResponse>;
/** GET /member: the signed-in member's profile. */
export const MemberProfileResponse = z.object({ member: MemberProfile });
export type MemberProfileResponse = z.infer<typeof MemberProfileResponse>;
/** PUT /member: the changed profile and fresh tokens carrying its claims. */
export const MemberProfileSaved = LoginResponse.extend({ member: MemberProfile });
export type MemberProfileSaved = z.infer<typeof MemberProfileSaved>;
