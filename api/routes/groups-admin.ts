/**
 * The group tree (SPEC §3 Node management / Group data; §7 /node/{id}, /node/group/list) and its
 * administration: create, rename, re-order, move and delete groups. Writes need the 'group' area
 * (level 10 only, SPEC §6); reading the tree needs any admin area; everything stays under the
 * caller's own node.
 *
 * Deleting a group that still holds anything (child groups, plants, RTUs, members) is refused with
 * 409 `group_in_use` and the names of what depends on it — nothing is moved or deleted implicitly,
 * so an admin never loses track of a plant. Empty groups are deleted in one transaction.
 */
import { Router, type Request } from "express";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import { adminAreas } from "../../domain/admin-levels";
import { GroupCreateFields, GroupUpdateFields, type GroupListResponse } from "../../domain/group-tree";
import { toInt } from "../../domain/member-form";
import { requireAdmin, requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import { reachesNode } from "../../domain/visibility";
import { adminReach, adminReachFor, type AdminReach } from "../store/admin-scope";
import { changeGroup, createGroup, deleteEmptyGroup, groupTree, groupWithChildren } from "../store/groups";
import { nodeInReach } from "../store/visibility";

function seqOf(req: Request): number {
  const n = toInt(String(req.params.id ?? ""));
  if (typeof n !== "number" || !Number.isInteger(n) || n <= 0) throw notFound("no_such_node");
  return n;
}

export function groupAdminRoutes(ctx: ApiContext): Router {
  const r = Router();
  const db = ctx.store.db;

  async function guard(req: Request): Promise<AdminReach> {
    const me = requireAdmin(req, "group");
    return adminReachFor(db, me, "group");
  }

  /**
   * The tree under the caller's node with its plants and RTUs. Any administering member may read it
   * (member, plant and device forms pick a group from it); only level 10 changes it.
   */
  r.get(
    "/node/group/list",
    handle(async (req): Promise<GroupListResponse> => {
      const me = requireWriter(req);
      if (!adminAreas(me.auth).length) throw forbidden("admin_level_insufficient");
      const scope = await adminReach(db, me);
      if (!adminAreas(scope.auth).length) throw forbidden("admin_level_insufficient");
      const asked = toInt(typeof req.query.seq === "string" ? req.query.seq : undefined);
      // A member in no group administers only what has no group (members of level 1, say): an empty tree.
      if (scope.nodeSeq == null || (!scope.all && !scope.nodes.length)) {
        if (typeof asked === "number") throw forbidden("node_out_of_scope");
        return { rootSeq: null, groupList: [], plantList: [], rtuList: [], rtusNotInPlant: [] };
      }
      const rootSeq = typeof asked === "number" ? asked : scope.nodeSeq;
      if (!reachesNode(scope, rootSeq)) throw forbidden("node_out_of_scope");
      // RTUs registered without any node are shown to the administrator of the whole tree.
      const { groups, plants, rtus } = await groupTree(db, rootSeq, scope.all && rootSeq === scope.nodeSeq);
      const n = (v: unknown) => Number(v ?? 0);
      return {
        rootSeq,
        groupList: groups.map((g) => ({
          seq: Number(g.seq),
          parent_seq: g.parent_seq === null ? null : Number(g.parent_seq),
          name: g.name,
          sort_order: g.sort_order,
          plantCount: n(g.plantCount),
          rtuCount: n(g.rtuCount),
          memberCount: n(g.memberCount),
          childCount: n(g.childCount),
        })),
        plantList: plants.map((p) => ({ uid: p.uid, name: p.name, node_seq: p.node_seq, rtuCount: n(p.rtuCount) })),
        rtuList: rtus,
        rtusNotInPlant: rtus.filter((x) => x.plant_uid === null).map(({ plant_uid: _, ...rest }) => rest),
      };
    }),
  );

  /** One group: any signed-in member may read a group under their own node (the watch tree needs it). */
  r.get(
    "/node/:id(\\d+)",
    handle(async (req) => {
      const me = requireSettled(req);
      const seq = seqOf(req);
      const scope = await adminReach(db, me);
      if (!reachesNode(scope, seq)) throw notFound("no_such_node");
      const node = await groupWithChildren(db, seq);
      if (!node) throw notFound("no_such_node");
      return { node };
    }),
  );

  r.post(
    "/node",
    handle(async (req, res) => {
      const scope = await guard(req);
      const body = parse(GroupCreateFields, req.body ?? {});
      if (!(await nodeInReach(db, scope, body.parent_seq))) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
      const node = await createGroup(db, body);
      res.status(201);
      return { node };
    }),
  );

  r.put(
    "/node/:id(\\d+)",
    handle(async (req) => {
      const scope = await guard(req);
      const seq = seqOf(req);
      if (!reachesNode(scope, seq)) throw notFound("no_such_node");
      const body = parse(GroupUpdateFields, req.body ?? {});
      if (body.parent_seq !== undefined) {
        if (seq === scope.nodeSeq) throw badRequest("invalid_input", { parent_seq: "own_node" });
        if (!(await nodeInReach(db, scope, body.parent_seq))) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
      }
      const node = await changeGroup(db, seq, body);
      return { node };
    }),
  );

  r.delete(
    "/node/:id(\\d+)",
    handle(async (req) => {
      const scope = await guard(req);
      const seq = seqOf(req);
      if (!reachesNode(scope, seq)) throw notFound("no_such_node");
      if (seq === scope.nodeSeq) throw forbidden("own_node");
      const confirm = (req.body && typeof req.body === "object" ? req.body.confirm : undefined) ?? req.query.confirm;
      if (!isDeleteConfirmed(confirm)) throw badRequest("confirmation_required", { confirm: "confirmation_required" });
      await deleteEmptyGroup(db, seq);
      return { seq, deleted: true };
    }),
  );

  return r;
}
