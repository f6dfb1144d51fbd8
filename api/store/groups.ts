/**
 * The group tree (table `node`) as the admin screens read and change it: a subtree with its counts, one
 * group with its children and plants, and creating, changing and deleting a group, each change in one
 * transaction. Who may touch which group is decided by the caller (api/routes/groups-admin.ts) with the
 * one visibility rule; the checks that need the current rows (a parent that exists, a move that makes no
 * cycle, a group that holds nothing) are made here, inside the transaction.
 */
import type { Kysely, Transaction } from "kysely";
import { moveProblem, type GroupDependants } from "../../domain/group-tree";
import { ApiError, badRequest, forbidden, notFound } from "../http";
import { subtreeSeqs } from "./visibility";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;

const NODE_COLUMNS = ["seq", "parent_seq", "name", "sort_order"] as const;

async function allNodes(db: Db) {
  const rows = await db.selectFrom("node").select(NODE_COLUMNS).execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq), parent_seq: r.parent_seq === null ? null : Number(r.parent_seq) }));
}

async function dependantsOf(db: Db, seq: number): Promise<GroupDependants> {
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

/**
 * The groups of the subtree under `rootSeq` with their plant, RTU, member and child counts, the plants
 * filed under them (with their RTU count) and the RTUs of those groups or plants; `withNodelessRtus` adds
 * the RTUs registered without any node (shown to the administrator of the whole tree).
 */
export async function groupTree(db: Kysely<Database>, rootSeq: number, withNodelessRtus: boolean) {
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
        ...(withNodelessRtus ? [eb("node_seq", "is", null)] : []),
      ]),
    )
    .orderBy("name")
    .execute();
  return { groups, plants, rtus };
}

/** One group with its child groups (in their order) and the plants filed directly under it; undefined if none. */
export async function groupWithChildren(db: Kysely<Database>, seq: number) {
  const node = await db.selectFrom("node").select(NODE_COLUMNS).where("seq", "=", seq).executeTakeFirst();
  if (!node) return undefined;
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
  return { ...node, children, plantList };
}

/**
 * Creates a group under an existing parent, last among its siblings unless a sort order is given.
 * A parent that does not exist is answered like one out of reach: no existence oracle for node numbers.
 */
export async function createGroup(db: Kysely<Database>, group: { parent_seq: number; name: string; sort_order?: number }) {
  return db.transaction().execute(async (trx) => {
    const parent = await trx.selectFrom("node").select("seq").where("seq", "=", group.parent_seq).executeTakeFirst();
    if (!parent) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
    const last = await trx
      .selectFrom("node")
      .select((eb) => eb.fn.max("sort_order").as("m"))
      .where("parent_seq", "=", group.parent_seq)
      .executeTakeFirst();
    return trx
      .insertInto("node")
      .values({
        parent_seq: group.parent_seq,
        name: group.name,
        created_at: Date.now(),
        sort_order: group.sort_order ?? (last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1),
      })
      .returning(NODE_COLUMNS)
      .executeTakeFirstOrThrow();
  });
}

/** Renames, re-orders and/or moves a group; a move under a missing group or into its own subtree is refused. */
export async function changeGroup(
  db: Kysely<Database>,
  seq: number,
  change: { name?: string; parent_seq?: number; sort_order?: number },
) {
  return db.transaction().execute(async (trx) => {
    const rows = await allNodes(trx);
    const current = rows.find((n) => n.seq === seq);
    if (!current) throw notFound("no_such_node");
    if (change.parent_seq !== undefined && change.parent_seq !== current.parent_seq) {
      if (!rows.some((n) => n.seq === change.parent_seq)) throw badRequest("invalid_input", { parent_seq: "out_of_scope" });
      const problem = moveProblem(rows, seq, change.parent_seq);
      if (problem) throw badRequest("invalid_input", { parent_seq: problem });
    }
    const changes: { name?: string; parent_seq?: number; sort_order?: number } = {};
    if (change.name !== undefined) changes.name = change.name;
    if (change.parent_seq !== undefined) changes.parent_seq = change.parent_seq;
    if (change.sort_order !== undefined) changes.sort_order = change.sort_order;
    return trx.updateTable("node").set(changes).where("seq", "=", seq).returning(NODE_COLUMNS).executeTakeFirstOrThrow();
  });
}

/**
 * Deletes an empty group. The root is never deleted; a group that still holds child groups, plants, RTUs
 * or members is refused with 409 `group_in_use` and the names of what depends on it.
 */
export async function deleteEmptyGroup(db: Kysely<Database>, seq: number): Promise<void> {
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
}

export async function groupExists(db: Kysely<Database>, seq: number): Promise<boolean> {
  return !!(await db.selectFrom("node").select("seq").where("seq", "=", seq).executeTakeFirst());
}
