/** Who is asking: the bearer access token, verified, with a live session behind it. */
import type { NextFunction, Request, Response } from "express";
import { canAdminister, type AdminArea } from "../../domain/admin-levels";
import type { AccessClaims } from "../../domain/contract/auth";
import { API_TOKEN_PREFIX, rateWait, tokenAllows } from "../../domain/api-tokens";
import { ApiError, forbidden, unauthorized } from "../http";
import type { Store } from "../store/db";
import { useApiToken } from "../store/api-tokens";
import { detailScopeAllows } from "./detail-scope";
import type { Sessions } from "./sessions";
import type { TokenSigner } from "./tokens";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      member?: AccessClaims;
    }
  }
}

export function bearerToken(req: Request): string | null {
  const header = req.get("authorization");
  if (!header) return null;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token.trim() : null;
}

/** Every /api call below this answers 401 {isLogin:false} without a valid token. */
export function authenticate(signer: TokenSigner, sessions: Sessions, store: Store) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req);
    if (!token) return next(unauthorized());
    if (token.startsWith(API_TOKEN_PREFIX)) {
      apiTokenClaims(store, token, req.method, req.path)
        .then((claims) => {
          req.member = claims;
          next();
        })
        .catch(next);
      return;
    }
    signer
      .verifyAccess(token)
      .then(async (claims) => {
        if (!claims || !(await sessions.isLive(claims.sid))) return next(unauthorized());
        // A detail-window session reaches only its one plant or member (api/auth/detail-scope.ts).
        if (claims.scope && !detailScopeAllows(claims.scope, req.method, req.path, req.query)) {
          return next(forbidden("outside_detail_scope"));
        }
        req.member = claims;
        next();
      })
      .catch(next);
  };
}

/**
 * A call made with an API token (domain/api-tokens.ts): the live token's row is read (and the call counted) on every
 * call, so a revocation anywhere in the cluster holds on the next call; the member behind it is read now too. The
 * claims are the member's, marked with the token, so every route's visibility decision narrows to the token's plants
 * (api/store/visibility.ts reachOf) and its reading scope is a read-only member's.
 */
async function apiTokenClaims(store: Store, secret: string, method: string, path: string): Promise<AccessClaims> {
  const now = Date.now();
  const use = await useApiToken(store.db, secret, now);
  if (!use) throw unauthorized();
  const wait = rateWait(use, use, now);
  if (wait > 0) throw new ApiError(429, "rate_limited", { retryAfter: wait }, { "Retry-After": String(wait) });
  const allowed = tokenAllows(use.claims.scope, method, path);
  if (allowed === "not_for_tokens") throw forbidden("not_for_api_tokens");
  if (allowed === "scope") throw forbidden("api_token_scope");
  const member = await store.db
    .selectFrom("member")
    .select(["id", "auth", "service", "use_yn", "pwd_yn", "read_only", "diagram", "cctv", "page"])
    .where("id", "=", use.memberId)
    .executeTakeFirst();
  if (!member || Number(member.use_yn) !== 1) throw unauthorized();
  const iat = Math.floor(now / 1000);
  return {
    id: member.id,
    sid: `token:${use.claims.id}`,
    exp: iat + 60,
    iat,
    auth: Number(member.auth),
    service: Number(member.service),
    nodeName: "",
    logo: "",
    S3_DOMAIN: "",
    diagram: Number(member.diagram),
    cctv: Number(member.cctv),
    page: Number(member.page),
    phone: "",
    helmetName: "",
    plantName: "",
    alarmCount: 0,
    pwd_yn: Number(member.pwd_yn),
    readOnly: Number(member.read_only) === 1 || use.claims.scope === "read" ? 1 : 0,
    apiToken: use.claims,
    typ: "access",
  };
}

/** Refuses calls made with an API token (managing members, sessions, tokens: tokens never reach them). */
export function requireNoApiToken(req: Request): AccessClaims {
  const m = currentMember(req);
  if (m.apiToken) throw forbidden("not_for_api_tokens");
  return m;
}

export function currentMember(req: Request): AccessClaims {
  if (!req.member) throw unauthorized();
  return req.member;
}

/** A member who still has to change the password may do nothing else. */
export function requireSettled(req: Request): AccessClaims {
  const m = currentMember(req);
  if (m.pwd_yn === 1) throw new ApiError(403, "password_change_required");
  return m;
}

export function requireWriter(req: Request): AccessClaims {
  const m = requireSettled(req);
  if (m.readOnly === 1) throw forbidden("read_only_member");
  return m;
}

export function requireAdmin(req: Request, area: AdminArea): AccessClaims {
  const m = requireWriter(req);
  if (!canAdminister(area, m.auth)) throw forbidden("admin_level_insufficient");
  return m;
}
