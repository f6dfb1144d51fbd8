/**
 * The store side of the one visibility rule (domain/visibility.ts): reads who the member is (node, subtree,
 * links, detail-window scope) and answers which plants, RTUs and devices they may see or edit. Every route
 * that touches a plant, an RTU or a device asks here. Read from the store on every call, so a node change
 * applies at once even while an older access token is still valid.
 *
 * A thing the member may not see answers 404, the same as a thing that does not exist: a foreign uid must not
 * tell whether it exists. Seeing but not editing answers 403. `hidden` is the 404's message code (routes of the
 * first half answer `no_such_plant` etc., which the portal's texts know).
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  canEditDevice,
  canEditPlant,
  canEditRtu,
  canSeeDevice,
  canSeePlant,
  canSeeRtu,
  reachesNode,
  type Reach,
} from "../../domain/visibility";
import { forbidden, notFound } from "../http";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;
export type { Reach };
export type Access = "see" | "edit";

/**
 * The walk down the node tree, written once: `with recursive sub(seq)` holding the seqs `anchor` selects and
 * every node below them. A statement that starts with it reads the subtree from `sub`.
 */
function withSubtree(anchor: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`with recursive sub(seq) as (
      ${anchor}
      union all
      select n.seq from node n join sub on n.parent_seq = sub.seq
    )`;
}

/** Node seqs of a subtree, root included. */
export async function subtreeSeqs(db: Db, rootSeq: number): Promise<number[]> {
  const rows = await sql<{ seq: number }>`
    ${withSubtree(sql`select seq from node where seq = ${rootSeq}`)}
    select seq from sub`.execute(db);
  return rows.rows.map((r) => Number(r.seq));
}

/**
 * The member's reach; a disabled or deleted member gets 403 `member_disabled`. One statement (one round trip on
 * PostgreSQL, where every /api call asks it): the member and their node, the subtree below a node that is not the
 * root (a root member sees everything without a list), and the plants linked to them, told apart by `k`.
 */
export async function reachOf(db: Db, claims: Pick<AccessClaims, "id" | "scope" | "apiToken">): Promise<Reach> {
  const id = claims.id;
  const { rows } = await sql<{
    k: "m" | "n" | "p";
    a: number | null;
    b: number | null;
    c: number | null;
    d: string | null;
    e: number | null;
  }>`
    ${withSubtree(sql`select n.seq from member m join node n on n.seq = m.node_seq where m.id = ${id} and n.parent_seq is not null`)}
    select 'm' as k, m.use_yn as a, n.seq as b, n.parent_seq as c, null as d, m.read_only as e
      from member m left join node n on n.seq = m.node_seq where m.id = ${id}
    union all
    select 'n', null, seq, null, null, null from sub
    union all
    select 'p', null, null, null, plant_uid, null from member_plant where member_id = ${id}`.execute(db);
  const found = rows.find((r) => r.k === "m");
  // A member who is not there is refused as a disabled one.
  requireEnabled(found?.a);
  const me = found!;
  const nodeSeq = me.b === null || me.b === undefined ? null : Number(me.b);
  const all = nodeSeq !== null && me.c === null;
  const nodes = all ? [] : rows.filter((r) => r.k === "n").map((r) => Number(r.b));
  const linked = rows.filter((r) => r.k === "p").map((r) => r.d!);
  // An API token: its plant limit narrows the member's reach, and its reading scope edits nothing.
  const token = claims.apiToken;
  const readOnly = Number(me.e) === 1 || token?.scope === "read";
  return { memberId: id, nodeSeq, all, nodes, linked, readOnly, only: claims.scope ?? null, plants: token?.plants ?? null };
}

/** A member row's `use_yn` (undefined: no such member): 403 `member_disabled` unless the member is enabled. */
export function requireEnabled(useYn: unknown): void {
  if (Number(useYn) !== 1) throw forbidden("member_disabled");
}

/**
 * May the member file something under this node (a member's, plant's or RTU's node, a group's parent)? The pure
 * rule (`reachesNode`), and the node must exist: a root member reaches every node, so an id that names none
 * (99999999, -1) would otherwise reach the store's foreign key. `null` (no node) is the pure rule's answer.
 */
export async function nodeInReach(db: Db, reach: Reach, seq: number | null | undefined): Promise<boolean> {
  if (!reachesNode(reach, seq)) return false;
  if (seq == null || !reach.all) return true; // a subtree's seqs were read from the store: they exist
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > 2 ** 31 - 1) return false; // no node has it (nor could)
  return !!(await db.selectFrom("node").select("seq").where("seq", "=", seq).executeTakeFirst());
}

/** Uids of every plant the member may see (for `edit`, may edit), in uid order. */
export async function visiblePlantUids(db: Db, reach: Reach, access: Access = "see"): Promise<string[]> {
  let q = db.selectFrom("plant").select(["uid", "node_seq"]).orderBy("uid");
  if (reach.plants) {
    if (!reach.plants.length) return [];
    q = q.where("uid", "in", [...reach.plants]);
  }
  if (reach.only) {
    if (reach.only.kind !== "plant") return [];
    q = q.where("uid", "=", reach.only.uid);
  } else if (!reach.all) {
    const linked = access === "see" ? [...reach.linked] : [];
    if (!reach.nodes.length && !linked.length) return [];
    q = q.where((eb) =>
      eb.or([
        ...(reach.nodes.length ? [eb("node_seq", "in", [...reach.nodes])] : []),
        ...(linked.length ? [eb("uid", "in", linked)] : []),
      ]),
    );
  }
  const rows = await q.execute();
  const allowed = access === "see" ? canSeePlant : canEditPlant;
  return rows
    .filter((p) => allowed(reach, { uid: p.uid, node_seq: p.node_seq === null ? null : Number(p.node_seq) }))
    .map((p) => p.uid);
}

/** The plants the member may see (or edit), as a set for filtering lists. */
export async function plantSet(db: Db, reach: Reach, access: Access = "see"): Promise<Set<string>> {
  return new Set(await visiblePlantUids(db, reach, access));
}

/** Node seqs of the member's group tree: their node and everything below it ([] without a node). */
export async function treeSeqs(db: Db, reach: Reach): Promise<number[]> {
  if (reach.nodeSeq == null) return [];
  return reach.all ? subtreeSeqs(db, reach.nodeSeq) : [...reach.nodes];
}

/** The plant of a list row that joined `plant.node_seq as plantNodeSeq`, for the pure rule (null: in no plant). */
export function plantOf(row: { plant_uid: string | null; plantNodeSeq: number | string | null }) {
  return row.plant_uid ? { uid: row.plant_uid, node_seq: row.plantNodeSeq === null ? null : Number(row.plantNodeSeq) } : null;
}

/** The plant's uid and node (for the pure rule), null when there is none. */
export async function plantRef(db: Db, uid: string | null) {
  if (!uid) return null;
  const p = await db.selectFrom("plant").select(["uid", "node_seq"]).where("uid", "=", uid).executeTakeFirst();
  return p ? { uid: p.uid, node_seq: p.node_seq === null ? null : Number(p.node_seq) } : null;
}

function refuse(seen: boolean, hidden: string): never {
  throw seen ? forbidden("read_only") : notFound(hidden);
}

/** The plant, when the member may see (or edit) it; 404 `plant_not_found` otherwise (403 seen but not editable). */
export async function requirePlant(db: Db, reach: Reach, uid: string, access: Access = "see", hidden = "plant_not_found") {
  const plant = await db.selectFrom("plant").selectAll().where("uid", "=", uid).executeTakeFirst();
  const ref = plant ? { uid: plant.uid, node_seq: plant.node_seq === null ? null : Number(plant.node_seq) } : null;
  const seen = !!ref && canSeePlant(reach, ref);
  if (!plant || !seen || (access === "edit" && !canEditPlant(reach, ref!))) refuse(seen, hidden);
  return plant;
}

/** The RTU, when the member may see (or edit) it; 404 `rtu_not_found` otherwise. */
export async function requireRtu(db: Db, reach: Reach, uid: string, access: Access = "see", hidden = "rtu_not_found") {
  const rtu = await db.selectFrom("rtu").selectAll().where("uid", "=", uid).executeTakeFirst();
  const ref = rtu ? { plant_uid: rtu.plant_uid, node_seq: rtu.node_seq === null ? null : Number(rtu.node_seq) } : null;
  const plant = ref ? await plantRef(db, ref.plant_uid) : null;
  const seen = !!ref && canSeeRtu(reach, ref, plant);
  if (!rtu || !seen || (access === "edit" && !canEditRtu(reach, ref!, plant))) refuse(seen, hidden);
  return rtu;
}

/** The device, when the member may see (or edit) it; 404 `device_not_found` otherwise. */
export async function requireDevice(db: Db, reach: Reach, uid: string, access: Access = "see", hidden = "device_not_found") {
  const device = await db.selectFrom("device").selectAll().where("uid", "=", uid).executeTakeFirst();
  if (!device) refuse(false, hidden);
  const plant = await plantRef(db, device.plant_uid);
  const rtuRow = device.rtu_uid
    ? await db.selectFrom("rtu").select(["plant_uid", "node_seq"]).where("uid", "=", device.rtu_uid).executeTakeFirst()
    : undefined;
  const rtu = rtuRow
    ? { plant_uid: rtuRow.plant_uid, node_seq: rtuRow.node_seq === null ? null : Number(rtuRow.node_seq) }
    : null;
  const ref = { plant_uid: device.plant_uid };
  const seen = canSeeDevice(reach, ref, plant, rtu);
  if (!seen || (access === "edit" && !canEditDevice(reach, ref, plant, rtu))) refuse(seen, hidden);
  return device;
}
