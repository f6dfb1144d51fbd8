/**
 * What a member may see: the plants under the member's node (the node and all its
 * descendants) plus the plants linked to the member directly (SPEC §3 member–plant links).
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "./schema";

/** Node seqs of a subtree, root included. */
export async function subtreeSeqs(db: Kysely<Database>, rootSeq: number): Promise<number[]> {
  const rows = await sql<{ seq: number }>`
    with recursive sub(seq) as (
      select seq from node where seq = ${rootSeq}
      union all
      select n.seq from node n join sub on n.parent_seq = sub.seq
    )
    select seq from sub`.execute(db);
  return rows.rows.map((r) => Number(r.seq));
}

export interface Viewer {
  id: string;
  nodeSeq: number | null;
}

/** Uids of every plant the member may see. */
export async function visiblePlantUids(db: Kysely<Database>, viewer: Viewer): Promise<string[]> {
  const nodes = viewer.nodeSeq === null ? [] : await subtreeSeqs(db, viewer.nodeSeq);
  const rows = await db
    .selectFrom("plant")
    .select("uid")
    .where((eb) =>
      eb.or([
        ...(nodes.length ? [eb("node_seq", "in", nodes)] : []),
        eb("uid", "in", eb.selectFrom("member_plant").select("plant_uid").where("member_id", "=", viewer.id)),
      ]),
    )
    .execute();
  return rows.map((r) => r.uid);
}

export async function canSeePlant(db: Kysely<Database>, viewer: Viewer, plantUid: string): Promise<boolean> {
  return (await visiblePlantUids(db, viewer)).includes(plantUid);
}
