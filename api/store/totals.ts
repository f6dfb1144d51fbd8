/**
 * The total list (SPEC §3 Total, §7 GET /total) and the history export a load from another instance reads
 * (GET /plant/{uid}/history). Scoping is the caller's.
 */
import type { Kysely } from "kysely";
import { HISTORY_TABLE_NAMES, HISTORY_TABLES } from "../crawling/history-tables";
import type { Database } from "./schema";

/** Every plant with its node's name, every RTU and every device's plant and kind, for the total list. */
export async function fleetInventory(db: Kysely<Database>) {
  const plants = await db
    .selectFrom("plant")
    .leftJoin("node", "node.seq", "plant.node_seq")
    .select(["plant.uid", "plant.name", "plant.capa", "plant.node_seq", "node.name as nodeName"])
    .orderBy("plant.name")
    .execute();
  const rtus = await db
    .selectFrom("rtu")
    .select(["uid", "alias", "name", "mac", "plant_uid", "node_seq"])
    .orderBy("uid")
    .execute();
  const devices = await db.selectFrom("device").select(["plant_uid", "kind"]).execute();
  return { plants, rtus, devices };
}

/** One window [start, end) of a plant's stored history: its devices, and the rows of every history table. */
export async function plantHistory(db: Kysely<Database>, plantUid: string, start: number, end: number) {
  const devices = await db.selectFrom("device").select(["uid", "kind"]).where("plant_uid", "=", plantUid).execute();
  const uids = devices.map((d) => d.uid);
  const tables: Record<string, unknown[]> = {};
  for (const table of HISTORY_TABLE_NAMES) {
    const spec = HISTORY_TABLES[table];
    tables[table] = uids.length
      ? await db
          .selectFrom(table as any)
          .select(spec.columns as any)
          .where("device_uid", "in", uids)
          .where(spec.time as any, ">=", start)
          .where(spec.time as any, "<", end)
          .orderBy(spec.time as any)
          .execute()
      : [];
  }
  return { devices, tables };
}
