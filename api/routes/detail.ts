/**
 * The detail-window handover (SPEC §1, §2 Detail window, §6 last two rules, §7 POST /member/detail and the
 * token handover calls, whose method and path the spec leaves open):
 *
 * 1. POST /member/detail {plant: uid} | {member: id} — the main window's session asks for a one-time
 *    handover code bound to the member, that one target and 60 s. 200 {code, expiresIn}; 204 when the
 *    member may not see that plant/member or it does not exist (no hint which).
 * 2. POST /member/detail/token/plant {uid, code} — "get plant token (uid)", and
 *    POST /member/detail/token/member {uid, code} — "get member token (uid)": the detail host trades the code
 *    (once) for a new session scoped to that plant/member. 200 {accessToken, refreshToken, sessionId, pwd_yn,
 *    scope}; 204 for an unknown, used, expired or mismatched code, or when access was lost meanwhile.
 * 3. Renewal is the ordinary PUT /member/refresh/accessToken (200): a scoped session keeps its scope.
 * 4. GET /member/detail/view — the detail window's one view: the scope's plant (status, devices, open
 *    alarms) or member (profile, linked plants). Scoped sessions may call nothing else that could widen
 *    their reach (api/auth/detail-scope.ts, enforced in authenticate()).
 */
import { createHash, randomBytes } from "node:crypto";
import { Router, type Request } from "express";
import { z } from "zod";
import { canAdminister } from "../../domain/admin-levels";
import type { DetailScope } from "../../domain/contract/auth";
import type { DetailTokenResponse, DetailView as DetailViewResponse } from "../../domain/contract/detail";
import type { Clock } from "../clock";
import { currentMember, requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { forbidden, handle, notFound, parse } from "../http";
import { reachesNode } from "../../domain/visibility";
import { createHandover, linkedPlantNames, memberNode, plantDetailView, useHandover } from "../store/detail";
import { reachOf, visiblePlantUids } from "../store/visibility";
import { findMember, memberProfile } from "../store/members";
import type { Member } from "../store/schema";

export const HANDOVER_TTL_MS = 60_000;

const targetId = z.string().trim().min(1, "required").max(64, "too_long");
const HandoverBody = z
  .object({ plant: targetId.optional(), member: targetId.optional() })
  .strict()
  .refine((b) => (b.plant === undefined) !== (b.member === undefined), { message: "plant_or_member", path: ["_"] });
const TokenBody = z.object({ uid: targetId, code: z.string().trim().min(16, "invalid").max(128, "invalid") });

const hashCode = (code: string) => createHash("sha256").update(code, "utf8").digest("hex");

export function detailRoutes(ctx: ApiContext, clock: Clock): { publicRoutes: Router; routes: Router } {
  const db = ctx.store.db;

  /** Whether `viewer` may open this target now (checked when the code is made and again when it is used). */
  async function mayOpen(viewer: Member, scope: DetailScope): Promise<boolean> {
    if (scope.kind === "plant") return (await visiblePlantUids(db, await reachOf(db, { id: viewer.id }))).includes(scope.uid);
    if (scope.uid === viewer.id) return true;
    if (viewer.read_only === 1 || !canAdminister("id", viewer.auth)) return false;
    const target = await memberNode(db, scope.uid);
    if (!target) return false;
    return reachesNode(await reachOf(db, { id: viewer.id }), target.node_seq);
  }

  const publicRoutes = Router();
  const exchange = (kind: DetailScope["kind"]) =>
    handle(async (req: Request, res): Promise<DetailTokenResponse | undefined> => {
      const body = parse(TokenBody, req.body ?? {});
      const now = Date.now();
      const noContent = () => {
        res.status(204);
        return undefined;
      };
      // Single use: the first exchange marks it; a replay, a wrong target or a late one finds nothing.
      const usedBy = await useHandover(db, hashCode(body.code), { kind, uid: body.uid }, now);
      if (!usedBy) return noContent();
      const member = await findMember(db, usedBy);
      const scope: DetailScope = { kind, uid: body.uid };
      if (!member || member.use_yn !== 1 || member.pwd_yn === 1 || !(await mayOpen(member, scope))) return noContent();
      const tokens = await ctx.sessions.start(member, req.get("user-agent"), now, scope);
      return { ...tokens, scope };
    });
  publicRoutes.post("/member/detail/token/plant", exchange("plant"));
  publicRoutes.post("/member/detail/token/member", exchange("member"));

  const routes = Router();
  routes.post(
    "/member/detail",
    handle(async (req, res) => {
      const me = requireSettled(req);
      // A detail session cannot mint further windows (the scope guard refuses the call before this).
      if (me.scope) throw forbidden("outside_detail_scope");
      const body = parse(HandoverBody, req.body ?? {});
      const scope: DetailScope =
        body.plant !== undefined ? { kind: "plant", uid: body.plant } : { kind: "member", uid: body.member! };
      const viewer = await findMember(db, me.id);
      if (!viewer || viewer.use_yn !== 1 || !(await mayOpen(viewer, scope))) {
        res.status(204);
        return undefined;
      }
      const code = randomBytes(24).toString("base64url");
      const now = Date.now();
      await createHandover(
        db,
        { codeHash: hashCode(code), memberId: viewer.id, kind: scope.kind, target: scope.uid },
        now,
        HANDOVER_TTL_MS,
      );
      return { code, kind: scope.kind, uid: scope.uid, expiresIn: HANDOVER_TTL_MS / 1000 };
    }),
  );

  routes.get(
    "/member/detail/view",
    handle(async (req): Promise<DetailViewResponse> => {
      const me = currentMember(req);
      if (!me.scope) throw forbidden("not_a_detail_session");
      const viewer = await findMember(db, me.id);
      if (!viewer || viewer.use_yn !== 1 || !(await mayOpen(viewer, me.scope)))
        throw notFound(me.scope.kind === "plant" ? "no_such_plant" : "no_such_member");
      const now = clock.now();
      if (me.scope.kind === "member") {
        const target = await findMember(db, me.scope.uid);
        if (!target) throw notFound("no_such_member");
        // The target's plants that the member behind this window may see (the window itself reaches no plant).
        const visible = new Set(await visiblePlantUids(db, await reachOf(db, { id: me.id })));
        const links = await linkedPlantNames(db, target.id);
        return {
          kind: "member",
          member: await memberProfile(db, target),
          plants: links.filter((l) => visible.has(l.uid)).map((l) => ({ plant_uid: l.uid, name: l.name })),
          now,
        };
      }
      const view = await plantDetailView(db, me.scope.uid, now);
      if (!view) throw notFound("no_such_plant");
      return view;
    }),
  );

  return { publicRoutes, routes };
}
