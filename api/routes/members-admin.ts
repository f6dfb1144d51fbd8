/**
 * Member administration (SPEC §7 Account and members; issue 5 /setting/id): list, create, edit,
 * delete, password reset, logo, member–plant links. Every call needs the 'id' admin area of the
 * SPEC §6 table (levels 0, 1, 2, 4, 5, 8, 10), a writable account, and reaches only members whose
 * node lies under the caller's node and whose level is not above the caller's.
 */
import express, { Router, type NextFunction, type Request, type Response } from "express";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import type { AccessClaims } from "../../domain/contract/auth";
import { GUEST_ID } from "../../domain/guest";
import { LOGO_FIELD, LOGO_MAX_BYTES, sniffLogo } from "../../domain/logo";
import {
  MemberCreateFields,
  MemberPatchFields,
  MemberListQuery,
  passwordResetFields,
  type MemberDetailResponse,
} from "../../domain/member-form";
import { requireAdmin } from "../auth/guards";
import { hashPassword } from "../auth/password";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import { canSeePlant, reachesNode } from "../../domain/visibility";
import { adminReachFor, type AdminReach } from "../store/admin-scope";
import { memberExists } from "../store/members";
import {
  changeMember,
  createMember,
  deleteMember,
  linkedPlants,
  linkMemberToPlant,
  listMembers,
  memberAdminRow,
  memberPlantLink,
  memberVisible,
  resetPassword,
  rtusOfPlants,
  setMemberLogo,
  unlinkMemberFromPlant,
} from "../store/members-admin";
import { nodeInReach, plantRef } from "../store/visibility";
import { removeUpload, saveUpload } from "../store/uploads";

/** The delete confirmation may come in the JSON body or the query (DELETE bodies are often dropped). */
function confirmation(req: Request): unknown {
  return (req.body && typeof req.body === "object" ? req.body.confirm : undefined) ?? req.query.confirm;
}

export function memberAdminRoutes(ctx: ApiContext): Router {
  const r = Router();
  const { store } = ctx;
  const db = store.db;

  async function guard(req: Request): Promise<{ me: AccessClaims; scope: AdminReach }> {
    const me = requireAdmin(req, "id");
    return { me, scope: await adminReachFor(db, me, "id") };
  }

  /** A member the caller may see (404 otherwise, so ids outside the scope are not confirmed). */
  async function visibleMember(scope: AdminReach, id: string) {
    const m = await memberAdminRow(db, id);
    if (!m || !memberVisible(scope, m)) throw notFound("no_such_member");
    return m;
  }

  /** …and may change: not above the caller's own level. */
  async function editableMember(scope: AdminReach, id: string) {
    const m = await visibleMember(scope, id);
    if (m.auth > scope.auth) throw forbidden("member_level_above_own");
    return m;
  }

  r.get(
    "/member/node/list",
    handle(async (req) => {
      const { scope } = await guard(req);
      const filter = MemberListQuery.parse(req.query);
      if (filter.seq !== undefined && !reachesNode(scope, filter.seq)) throw forbidden("node_out_of_scope");
      const { memberList, total } = await listMembers(db, scope, filter);
      return { memberList, total, page: filter.page, size: filter.size };
    }),
  );

  r.post(
    "/member",
    handle(async (req, res) => {
      const { scope } = await guard(req);
      const body = parse(MemberCreateFields, req.body ?? {});
      const fields: Record<string, string> = {};
      if (body.auth > scope.auth) fields.auth = "level_above_own";
      if (!(await nodeInReach(db, scope, body.node_seq))) fields.node_seq = "out_of_scope";
      if (await memberExists(db, body.id)) fields.id = "id_taken";
      if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
      const hash = await hashPassword(body.password);
      try {
        await createMember(db, body, hash);
      } catch (error) {
        // A concurrent create of the same id loses on the primary key.
        if (await memberExists(db, body.id)) throw badRequest("invalid_input", { id: "id_taken" });
        throw error;
      }
      res.status(201);
      return { member: await memberAdminRow(db, body.id) };
    }),
  );

  r.get(
    "/member/link/:a/:b",
    handle(async (req) => {
      const { scope } = await guard(req);
      const { member, plantUid } = await linkTargets(scope, req, false);
      const row = await memberPlantLink(db, member.id, plantUid);
      return { member_id: member.id, plant_uid: plantUid, linked: !!row, created_at: row ? Number(row.created_at) : null };
    }),
  );

  r.post(
    "/member/link/:a/:b",
    handle(async (req, res) => {
      const { scope } = await guard(req);
      const { member, plantUid } = await linkTargets(scope, req, true);
      const created = await linkMemberToPlant(db, member.id, plantUid);
      res.status(created ? 201 : 200);
      return { member_id: member.id, plant_uid: plantUid, linked: true };
    }),
  );

  r.delete(
    "/member/link/:a/:b",
    handle(async (req) => {
      const { scope } = await guard(req);
      const { member, plantUid } = await linkTargets(scope, req, true);
      await unlinkMemberFromPlant(db, member.id, plantUid);
      return { member_id: member.id, plant_uid: plantUid, linked: false };
    }),
  );

  /** /member/link/{a}/{b}: a is the member id, b the plant uid; both must lie in the caller's reach. */
  async function linkTargets(scope: AdminReach, req: Request, write: boolean) {
    const member = write ? await editableMember(scope, String(req.params.a)) : await visibleMember(scope, String(req.params.a));
    const plantUid = String(req.params.b);
    const plant = await plantRef(db, plantUid);
    if (!plant || !canSeePlant(scope, plant)) throw notFound("no_such_plant");
    return { member, plantUid };
  }

  // Logo: multipart/form-data with one file field `logo` (PNG, JPEG or WebP, ≤ 512 KB).
  const rawMultipart = express.raw({ type: "multipart/form-data", limit: LOGO_MAX_BYTES + 64 * 1024 });
  const logoBody = (req: Request, res: Response, next: NextFunction) =>
    rawMultipart(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === "entity.too.large") {
        return next(badRequest("invalid_input", { [LOGO_FIELD]: "too_large" }));
      }
      next(err);
    });

  r.post(
    "/member/logo/:id",
    logoBody,
    handle(async (req) => {
      const { scope } = await guard(req);
      const member = await editableMember(scope, String(req.params.id));
      if (!Buffer.isBuffer(req.body)) throw badRequest("invalid_input", { [LOGO_FIELD]: "required" });
      let file: FormDataEntryValue | null = null;
      try {
        const form = await new Response(new Uint8Array(req.body), {
          headers: { "content-type": req.get("content-type") ?? "" },
        }).formData();
        file = form.get(LOGO_FIELD);
      } catch {
        throw badRequest("invalid_input", { [LOGO_FIELD]: "required" });
      }
      if (!file || typeof file === "string" || file.size === 0) throw badRequest("invalid_input", { [LOGO_FIELD]: "required" });
      if (file.size > LOGO_MAX_BYTES) throw badRequest("invalid_input", { [LOGO_FIELD]: "too_large" });
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = sniffLogo(bytes);
      if (!kind) throw badRequest("invalid_input", { [LOGO_FIELD]: "bad_type" });
      const name = await saveUpload(bytes, kind);
      try {
        await setMemberLogo(db, member.id, name);
      } catch (error) {
        await removeUpload(name);
        throw error;
      }
      await removeUpload(member.logo);
      return { member_id: member.id, logo: name };
    }),
  );

  r.delete(
    "/member/logo/:id",
    handle(async (req) => {
      const { scope } = await guard(req);
      const member = await editableMember(scope, String(req.params.id));
      await setMemberLogo(db, member.id, null);
      await removeUpload(member.logo);
      return { member_id: member.id, logo: null };
    }),
  );

  r.post(
    "/member/:id/password/reset",
    handle(async (req) => {
      const { me, scope } = await guard(req);
      const member = await editableMember(scope, String(req.params.id));
      if (member.id === me.id) throw forbidden("own_password_via_modify");
      if (member.readOnly === 1) throw forbidden("read_only_member");
      const { password } = parse(passwordResetFields(member.id), req.body ?? {});
      const hash = await hashPassword(password);
      await resetPassword(db, member.id, hash);
      return { member_id: member.id, pwd_yn: 1 };
    }),
  );

  r.get(
    "/member/:id",
    handle(async (req): Promise<MemberDetailResponse> => {
      const { scope } = await guard(req);
      const member = await visibleMember(scope, String(req.params.id));
      const memberOfPlantList = await linkedPlants(db, member.id);
      const memberOfRTUs = await rtusOfPlants(
        db,
        memberOfPlantList.map((p) => p.uid),
      );
      return { member, memberOfPlantList, memberOfRTUs };
    }),
  );

  r.put(
    "/member/:id",
    handle(async (req) => {
      const { me, scope } = await guard(req);
      const member = await editableMember(scope, String(req.params.id));
      const body = parse(MemberPatchFields, req.body ?? {});
      const fields: Record<string, string> = {};
      if (body.auth !== undefined && body.auth > scope.auth) fields.auth = "level_above_own";
      if (body.node_seq !== undefined && !(await nodeInReach(db, scope, body.node_seq))) fields.node_seq = "out_of_scope";
      if (member.id === me.id) {
        // An admin cannot lock themselves out from this screen.
        if (body.auth !== undefined && body.auth !== member.auth) fields.auth = "own_account";
        if (body.use_yn === 0) fields.use_yn = "own_account";
        if (body.node_seq !== undefined && body.node_seq !== member.node_seq) fields.node_seq = "own_account";
      }
      if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
      const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      const demoted =
        (body.use_yn === 0 && member.use_yn === 1) ||
        (body.auth !== undefined && body.auth !== member.auth) ||
        (body.node_seq !== undefined && body.node_seq !== member.node_seq);
      // Level, node or access changed: the member's sessions end so no token carries the old rights.
      await changeMember(db, member.id, changes, demoted);
      return { member: await memberAdminRow(db, member.id) };
    }),
  );

  r.delete(
    "/member/:id",
    handle(async (req) => {
      const { me, scope } = await guard(req);
      const member = await editableMember(scope, String(req.params.id));
      if (!isDeleteConfirmed(confirmation(req))) throw badRequest("confirmation_required", { confirm: "confirmation_required" });
      if (member.id === me.id) throw forbidden("cannot_delete_self");
      if (member.id === GUEST_ID) throw forbidden("protected_member");
      await deleteMember(db, member.id);
      await removeUpload(member.logo);
      return { member_id: member.id, deleted: true };
    }),
  );

  return r;
}
