/** Who is asking: the bearer access token, verified, with a live session behind it. */
import type { NextFunction, Request, Response } from "express";
import { canAdminister, type AdminArea } from "../../domain/admin-levels";
import type { AccessClaims } from "../../domain/contract/auth";
import { ApiError, forbidden, unauthorized } from "../http";
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
export function authenticate(signer: TokenSigner, sessions: Sessions) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req);
    if (!token) return next(unauthorized());
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
