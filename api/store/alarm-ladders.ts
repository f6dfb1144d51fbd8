/**
 * Escalation ladders (migration 0024): a plant's or a group's steps, and which ladder applies to a plant (its own,
 * its nearest group's, the default: domain/alarm-ladder.ts). Scoping is the caller's.
 */
import type { Kysely, Transaction } from "kysely";
import { ladderOf, ladderScopeKey, parseStoredLadder, type LadderScope, type LadderStep } from "../../domain/alarm-ladder";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;

/** Every stored ladder by its scope key (a few rows: one per plant or group that has its own). */
export async function storedLadders(db: Db): Promise<Map<string, LadderStep[]>> {
  const rows = await db.selectFrom("alarm_ladder").select(["scope", "steps"]).execute();
  const out = new Map<string, LadderStep[]>();
  for (const r of rows) {
    const steps = parseStoredLadder(r.steps);
    if (steps) out.set(r.scope, steps);
  }
  return out;
}

/** Each group's path to the root (itself first). */
export async function groupPaths(db: Db): Promise<Map<number, number[]>> {
  const nodes = await db.selectFrom("node").select(["seq", "parent_seq"]).execute();
  const parent = new Map(nodes.map((n) => [Number(n.seq), n.parent_seq === null ? null : Number(n.parent_seq)]));
  const out = new Map<number, number[]>();
  for (const seq of parent.keys()) {
    const path: number[] = [];
    for (let at: number | null = seq; at !== null && !path.includes(at); at = parent.get(at) ?? null) path.push(at);
    out.set(seq, path);
  }
  return out;
}

/** The ladder a scope works with: its own (from = the scope), else what it inherits (a group's, or the default). */
export async function effectiveLadder(db: Db, scope: LadderScope) {
  const stored = await storedLadders(db);
  const paths = await groupPaths(db);
  if ("plant" in scope) {
    const plant = await db.selectFrom("plant").select("node_seq").where("uid", "=", scope.plant).executeTakeFirst();
    const path = plant?.node_seq === null || plant?.node_seq === undefined ? [] : (paths.get(Number(plant.node_seq)) ?? []);
    return ladderOf(scope.plant, path, stored);
  }
  // A group: its own, else its parent's chain (a plant uid that cannot exist stands for "no own plant ladder").
  return ladderOf("", paths.get(scope.group) ?? [scope.group], stored);
}

export async function saveLadder(db: Db, scope: LadderScope, steps: LadderStep[], by: string, now: number) {
  const row = { steps: JSON.stringify(steps), updated_at: now, updated_by: by };
  await db
    .insertInto("alarm_ladder")
    .values({ scope: ladderScopeKey(scope), ...row })
    .onConflict((oc) => oc.column("scope").doUpdateSet(row))
    .execute();
}

export async function deleteLadder(db: Db, scope: LadderScope) {
  await db.deleteFrom("alarm_ladder").where("scope", "=", ladderScopeKey(scope)).execute();
}
