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
import type { Kysely, Transaction } from "kysely";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import { adminAreas } from "../../domain/admin-levels";
import {
  GroupCreateFields,
  GroupUpdateFields,
  moveProblem,
  type GroupDependants,
  type GroupListResponse,
} from "../../domain/group-tree";
import { toInt } from "../../domain/member-form";
import { requireAdmin, requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { ApiError, badRequest, forbidden, handle, notFound, parse } from "../http";
import { reachesNode } from "../../domain/visibility";
import { adminReach, adminReachFor, type AdminReach } from "../store/admin-scope";
import { subtreeSeqs } from "../store/visibility";
import type { Database } from "../store/schema";

const NODE_COLUMNS = ["seq", "parent_seq", "name", "sort_order"] as const;

function seqOf(req: Request): number {
  const n = toInt(String(req.params.id ?? ""));
  if (typeof n !== "number" || !Number.isInteger(n) || n <= 0) throw notFound("no_such_node");
  return n;
}

async function allNodes(db: Kysely<Database> | Transaction<Database>) {
  const rows = await db.selectFrom("node").select(NODE_COLUMNS).execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq), parent_seq: r.parent_seq === null ? null : Number(r.parent_seq) }));
}

async function dependantsOf(db: Kysely<Database> | Transaction<Database>, seq: number): Promise<GroupDependants> {
  // One after another: inside a transaction they share one connection anyway.
  const children = await db.selectFrom("node").select("name").where("parent_seq", "=", seq).orderBy("name").execute();
  const plants = await db.selectFrom("plant").select("name").where("node_seq", "=", seq).orderBy("name").execute();
  const rtus = await db.selectFrom("rtu").select(["name", "alias"]).where("node_seq", "=", seq).orderBy("name").execute();
  const members = await db.selectFrom("member").select("id").where("node_seq", "=", seq).orderBy("id").execute();
  return {
    children: children.map((r) => r.name),
    plants: plants.map((r) => r.name),
    rtus: rtus.map((r) => r.alias || r.name),
    members: members.map((r) => r.id),
  };
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
      const seqs = await subtreeSeqs(db, rootSeq);
      const groups = await db
        .selectFrom("node")
        .select((eb) => [
          ...NODE_COLUMNS.map((c) => `node.${c}` as const),
          eb
            .selectFrom("plant")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("plant.node_seq", "=", "node.seq")
            .as("plantCount"),
          eb
            .selectFrom("rtu")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("rtu.node_seq", "=", "node.seq")
            .as("rtuCount"),
          eb
            .selectFrom("member")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("member.node_seq", "=", "node.seq")
            .as("memberCount"),
          eb
            .selectFrom("node as c")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("c.parent_seq", "=", "node.seq")
            .as("childCount"),
        ])
        .where("node.seq", "in", seqs)
        .execute();
      const plants = await db
        .selectFrom("plant")
        .select((eb) => [
          "plant.uid",
          "plant.name",
          "plant.node_seq",
          eb
            .selectFrom("rtu")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("rtu.plant_uid", "=", "plant.uid")
            .as("rtuCount"),
        ])
        .where("plant.node_seq", "in", seqs)
        .orderBy("plant.name")
        .execute();
      const plantUids = plants.map((p) => p.uid);
      const rtus = await db
        .selectFrom("rtu")
        .select(["uid", "name", "alias", "mac", "node_seq", "plant_uid"])
        .where((eb) =>
          eb.or([
            eb("node_seq", "in", seqs),
            ...(plantUids.length ? [eb("plant_uid", "in", plantUids)] : []),
            // RTUs registered without any node are shown to the administrator of the whole tree.
            ...(scope.all && rootSeq === scope.nodeSeq ? [eb("node_seq", "is", null)] : []),
          ]),
        )
        .orderBy("name")
        .execute();
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
      const node = await db.selectFrom("node").select(NODE_COLUMNS).where("seq", "=", seq).executeTakeFirst();
      if (!node) throw notFound("no_such_node");
      const children = await db
        .selectFrom("node")
        .select(NODE_COLUMNS)
        .where("parent_seq", "=", seq)
        .orderBy("sort_order")
        .orderBy("name")
        .execute();
      const plantList = await db
        .selectFrom("plant")
        .select(["uid", "name", "locality", "capa"])
        .where("node_seq", "=", seq)
        .orderBy("name")
        .execute();
      return { node: { ...node, children, plantList } };
    }),
  );

  r.post(
    "/node",
    handle(async (req, res) => {
      const scope = await guard(req);
      const body = parse(GroupCreateFields, req.body ?? {});
      if (!reachesNode(scope, body.parent_seq)) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
      const node = await db.transaction().execute(async (trx) => {
        const parent = await trx.selectFrom("node").select("seq").where("seq", "=", body.parent_seq).executeTakeFirst();
        // A parent that does not exist is answered like one out of reach: no existence oracle for node numbers.
        if (!parent) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
        const last = await trx
          .selectFrom("node")
          .select((eb) => eb.fn.max("sort_order").as("m"))
          .where("parent_seq", "=", body.parent_seq)
          .executeTakeFirst();
        return trx
          .insertInto("node")
          .values({
            parent_seq: body.parent_seq,
            name: body.name,
            created_at: Date.now(),
            sort_order: body.sort_order ?? (last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1),
          })
          .returning(NODE_COLUMNS)
          .executeTakeFirstOrThrow();
      });
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
        if (!reachesNode(scope, body.parent_seq)) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
      }
      const node = await db.transaction().execute(async (trx) => {
        const rows = await allNodes(trx);
        const current = rows.find((n) => n.seq === seq);
        if (!current) throw notFound("no_such_node");
        if (body.parent_seq !== undefined && body.parent_seq !== current.parent_seq) {
          if (!rows.some((n) => n.seq === body.parent_seq)) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
          const problem = moveProblem(rows, seq, body.parent_seq);
          if (problem) throw badRequest("invalid_input", { parent_seq: problem });
        }
        const changes: { name?: string; parent_seq?: number; sort_order?: number } = {};
        if (body.name !== undefined) changes.name = body.name;
        if (body.parent_seq !== undefined) changes.parent_seq = body.parent_seq;
        if (body.sort_order !== undefined) changes.sort_order = body.sort_order;
        return trx.updateTable("node").set(changes).where("seq", "=", seq).returning(NODE_COLUMNS).executeTakeFirstOrThrow();
      });
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
      await db.transaction().execute(async (trx) => {
        const node = await trx.selectFrom("node").select(["seq", "parent_seq"]).where("seq", "=", seq).executeTakeFirst();
        if (!node) throw notFound("no_such_node");
        if (node.parent_seq === null) throw forbidden("root_node");
        const dependants = await dependantsOf(trx, seq);
        if (Object.values(dependants).some((list) => list.length)) {
          throw new ApiError(409, "group_in_use", { details: { ...dependants } });
        }
        await trx.deleteFrom("node").where("seq", "=", seq).execute();
      });
      return { seq, deleted: true };
    }),
  );

  return r;
}
