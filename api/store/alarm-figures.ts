/**
 * What the alarm figures (domain/alarm-figures.ts) are computed from: the alarms raised in a period among some plants,
 * and those plants with their group. Scoping is the caller's (null: every plant).
 */
import type { Kysely } from "kysely";
import type { FigureAlarm } from "../../domain/alarm-figures";
import type { Database } from "./schema";

const CHUNK = 500;

/** Alarms raised in [from, to) among these plants (null: all), with their plant's group. */
export async function alarmsRaisedIn(
  db: Kysely<Database>,
  plantUids: string[] | null,
  from: number,
  to: number,
): Promise<FigureAlarm[]> {
  const parts =
    plantUids === null
      ? [null]
      : Array.from({ length: Math.ceil(plantUids.length / CHUNK) }, (_, i) => plantUids.slice(i * CHUNK, (i + 1) * CHUNK));
  const out: FigureAlarm[] = [];
  for (const part of parts) {
    const rows = await db
      .selectFrom("alarm")
      .innerJoin("plant", "plant.uid", "alarm.plant_uid")
      .select(["alarm.plant_uid", "plant.node_seq", "alarm.code", "alarm.raised_at", "alarm.released_at", "alarm.ack_at"])
      .where("alarm.raised_at", ">=", from)
      .where("alarm.raised_at", "<", to)
      .$if(part !== null, (q) => q.where("alarm.plant_uid", "in", part!))
      .execute();
    for (const r of rows)
      out.push({
        plant_uid: r.plant_uid,
        group: r.node_seq === null ? null : Number(r.node_seq),
        code: Number(r.code),
        raised_at: Number(r.raised_at),
        released_at: r.released_at === null ? null : Number(r.released_at),
        ack_at: r.ack_at === null ? null : Number(r.ack_at),
      });
  }
  return out;
}

/** These plants (null: all) with their name and group's seq and name. */
export async function plantsWithGroups(db: Kysely<Database>, plantUids: string[] | null) {
  const out: Array<{ uid: string; name: string; group: number | null; groupName: string | null }> = [];
  const parts =
    plantUids === null
      ? [null]
      : Array.from({ length: Math.ceil(plantUids.length / CHUNK) }, (_, i) => plantUids.slice(i * CHUNK, (i + 1) * CHUNK));
  for (const part of parts) {
    const rows = await db
      .selectFrom("plant")
      .leftJoin("node", "node.seq", "plant.node_seq")
      .select(["plant.uid", "plant.name", "plant.node_seq", "node.name as groupName"])
      .$if(part !== null, (q) => q.where("plant.uid", "in", part!))
      .execute();
    for (const r of rows)
      out.push({
        uid: r.uid,
        name: r.name,
        group: r.node_seq === null ? null : Number(r.node_seq),
        groupName: r.groupName ?? null,
      });
  }
  return out;
}
