/**
 * Per-member alert routes (migration 0026; the decision is domain/alert-routing.ts): read for the members an alarm
 * may reach, and a member's whole list replaced at once (one transaction).
 */
import type { Kysely, Transaction } from "kysely";
import type { AlertRoute } from "../../domain/alert-routing";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;

function parseCodes(text: string | null): number[] | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.map(Number).filter(Number.isFinite) : null;
  } catch {
    return null;
  }
}

/** Each of these members' routes (members without any are absent), in the order they were saved. */
export async function routesOf(db: Db, memberIds: string[]): Promise<Map<string, AlertRoute[]>> {
  const out = new Map<string, AlertRoute[]>();
  if (!memberIds.length) return out;
  const rows = await db.selectFrom("alert_route").selectAll().where("member_id", "in", memberIds).orderBy("seq").execute();
  for (const r of rows) {
    const list = out.get(r.member_id) ?? [];
    list.push({
      plant: r.plant_uid,
      group: r.group_seq === null ? null : Number(r.group_seq),
      minLevel: Number(r.min_level),
      codes: parseCodes(r.codes),
      mail: Number(r.mail) === 1,
      webhook: Number(r.webhook) === 1,
    });
    out.set(r.member_id, list);
  }
  return out;
}

/** Replaces a member's routes (an empty list: back to the preferences' minimum level for every plant). */
export async function saveRoutes(db: Kysely<Database>, memberId: string, routes: AlertRoute[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("alert_route").where("member_id", "=", memberId).execute();
    if (routes.length)
      await trx
        .insertInto("alert_route")
        .values(
          routes.map((r) => ({
            member_id: memberId,
            plant_uid: r.plant,
            group_seq: r.group,
            min_level: r.minLevel,
            codes: r.codes === null ? null : JSON.stringify(r.codes),
            mail: r.mail ? 1 : 0,
            webhook: r.webhook ? 1 : 0,
          })),
        )
        .execute();
  });
}

/** A member's routes with their plant's and group's names (null when gone). */
export async function namedRoutesOf(db: Db, memberId: string) {
  const routes = (await routesOf(db, [memberId])).get(memberId) ?? [];
  const plants = routes.flatMap((r) => (r.plant ? [r.plant] : []));
  const groups = routes.flatMap((r) => (r.group !== null ? [r.group] : []));
  const plantRows = plants.length
    ? await db.selectFrom("plant").select(["uid", "name"]).where("uid", "in", plants).execute()
    : [];
  const groupRows = groups.length ? await db.selectFrom("node").select(["seq", "name"]).where("seq", "in", groups).execute() : [];
  const plantNames = new Map(plantRows.map((p) => [p.uid, p.name]));
  const groupNames = new Map(groupRows.map((g) => [Number(g.seq), g.name]));
  return routes.map((r) => ({
    ...r,
    plantName: r.plant ? (plantNames.get(r.plant) ?? null) : null,
    groupName: r.group !== null ? (groupNames.get(r.group) ?? null) : null,
  }));
}
