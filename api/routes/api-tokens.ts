/**
 * API tokens for other systems (issue 27 point 6; rules in domain/api-tokens.ts, store in api/store/api-tokens.ts):
 *
 * GET    /token                  the member's own tokens, and the plants a token may be limited to
 * POST   /token                  creates a token: 201 with the secret, shown this once
 * DELETE /token/:id              revokes a token: the member's own, or one of a member the caller administers
 * GET    /token/member/:memberId an administrator's view of a member's tokens
 *
 * A call made with an API token never reaches these (authenticate() refuses /token… and /member… with 403).
 * Administration follows the member administration's rule (api/routes/members-admin.ts): the 'id' admin area of
 * SPEC §6 (domain/admin-levels.ts), a member whose node lies under the caller's and whose level is not above theirs.
 */
import { Router, type Request } from "express";
import {
  API_TOKEN_MAX_PER_MEMBER,
  ApiTokenCreateFields,
  expiryProblem,
  RATE_LIMITS,
  type ApiTokenCreated,
  type ApiTokenListResponse,
  type ApiTokenRow,
  type MemberApiTokensResponse,
} from "../../domain/api-tokens";
import { canAdminister } from "../../domain/admin-levels";
import type { AccessClaims } from "../../domain/contract/auth";
import { requireAdmin, requireNoApiToken, requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, handle, notFound, parse } from "../http";
import { administeredMember } from "../store/admin-scope";
import { apiToken, createApiToken, liveTokenCount, revokeApiToken, tokensOf } from "../store/api-tokens";
import { namedPlants } from "../store/plants";
import { reachOf, visiblePlantUids } from "../store/visibility";

export function apiTokenRoutes(ctx: ApiContext): Router {
  const r = Router();
  const db = ctx.store.db;

  /** A member the caller administers (404 outside their scope, as for member administration). */
  const administered = (req: Request, memberId: string) => administeredMember(db, requireAdmin(req, "id"), memberId);

  async function plantsOf(me: AccessClaims) {
    const rows = await namedPlants(db, await visiblePlantUids(db, await reachOf(db, me)));
    return rows.map((p) => ({ uid: p.uid, name: p.name }));
  }

  r.get(
    "/token",
    handle(async (req): Promise<ApiTokenListResponse> => {
      requireNoApiToken(req);
      const me = requireSettled(req);
      const [tokens, plants] = await Promise.all([tokensOf(db, me.id), plantsOf(me)]);
      return { tokens, plants, limits: RATE_LIMITS, maxTokens: API_TOKEN_MAX_PER_MEMBER };
    }),
  );

  r.post(
    "/token",
    handle(async (req, res): Promise<ApiTokenCreated> => {
      requireNoApiToken(req);
      const me = requireWriter(req);
      const body = parse(ApiTokenCreateFields, req.body ?? {});
      const now = Date.now();
      const fields: Record<string, string> = {};
      const expiry = expiryProblem(body.expiresOn, now);
      if (expiry) fields.expiresOn = expiry;
      if (body.plants.length) {
        const visible = new Set(await visiblePlantUids(db, await reachOf(db, me)));
        if (body.plants.some((uid) => !visible.has(uid))) fields.plants = "unknown_plant";
      }
      if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
      if ((await liveTokenCount(db, me.id, now)) >= API_TOKEN_MAX_PER_MEMBER) {
        throw badRequest("invalid_input", { name: "too_many_tokens" });
      }
      res.status(201);
      return createApiToken(db, me.id, body, now);
    }),
  );

  r.delete(
    "/token/:id",
    handle(async (req): Promise<{ token: ApiTokenRow }> => {
      const me = requireNoApiToken(req);
      const token = await apiToken(db, req.params.id);
      if (!token) throw notFound("no_such_token");
      if (token.memberId === me.id) requireWriter(req);
      else if (!canAdminister("id", me.auth)) throw notFound("no_such_token");
      else await administered(req, token.memberId);
      await revokeApiToken(db, token.id, me.id, Date.now());
      return { token: (await apiToken(db, token.id))! };
    }),
  );

  r.get(
    "/token/member/:memberId",
    handle(async (req): Promise<MemberApiTokensResponse> => {
      requireNoApiToken(req);
      const m = await administered(req, req.params.memberId);
      return { member: { id: m.id, name: m.name, auth: m.auth }, tokens: await tokensOf(db, m.id) };
    }),
  );

  return r;
}
