/**
 * The fleet as an admin changes it: the consistent removal of a plant, an RTU or a device with everything
 * that depends on it, RTU assignment, and the admin forms' choices. Who may see or edit what is decided by
 * the one visibility rule (api/store/visibility.ts).
 */
import { sql, type Kysely, type Transaction } from "kysely";
import { reachesNode, type Reach } from "../../domain/visibility";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;

export const MEASUREMENT_TABLES = ["m_inverter", "m_env", "m_board", "m_breaker"] as const;

function chunks<T>(items: T[], size = 400): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Removes devices and every row that depends on them: measurements, latest values, rollups, commands, alarms. */
export async function deleteDevices(trx: Transaction<Database>, uids: string[]): Promise<number> {
  let removed = 0;
  for (const part of chunks(uids)) {
    for (const table of MEASUREMENT_TABLES) {
      await trx.deleteFrom(table).where("device_uid", "in", part).execute();
    }
    await trx.deleteFrom("device_latest").where("device_uid", "in", part).execute();
    await trx.deleteFrom("rollup_hourly").where("device_uid", "in", part).execute();
    await trx.deleteFrom("rollup_daily").where("device_uid", "in", part).execute();
    await trx.deleteFrom("command").where("device_uid", "in", part).execute();
    await trx.deleteFrom("alarm").where("device_uid", "in", part).execute();
    const res = await trx.deleteFrom("device").where("uid", "in", part).executeTakeFirst();
    removed += Number(res.numDeletedRows ?? 0);
  }
  return removed;
}

/** Deletes one device with its data (measurements, latest values, rollups, commands, alarms) in one transaction. */
export async function deleteDevice(db: Kysely<Database>, uid: string): Promise<void> {
  await db.transaction().execute((trx) => deleteDevices(trx, [uid]));
}

export interface PlantDeletion {
  devices: number;
  rtusUnassigned: number;
  memberLinks: number;
  alarms: number;
}

/**
 * Deletes a plant in one transaction: its devices (with their data), member links and alarms; its RTUs
 * stay, unassigned (they are hardware that can be assigned again).
 */
export async function deletePlant(db: Kysely<Database>, plantUid: string): Promise<PlantDeletion> {
  const deleted = await db.transaction().execute(async (trx) => {
    const rtus = await trx.selectFrom("rtu").select("uid").where("plant_uid", "=", plantUid).execute();
    const rtuUids = rtus.map((r) => r.uid);
    const devices = await trx
      .selectFrom("device")
      .select("uid")
      .where((eb) => eb.or([eb("plant_uid", "=", plantUid), ...(rtuUids.length ? [eb("rtu_uid", "in", rtuUids)] : [])]))
      .execute();
    const deviceCount = await deleteDevices(
      trx,
      devices.map((d) => d.uid),
    );
    const alarms = await trx.deleteFrom("alarm").where("plant_uid", "=", plantUid).executeTakeFirst();
    const links = await trx.deleteFrom("member_plant").where("plant_uid", "=", plantUid).executeTakeFirst();
    const unassigned = await trx
      .updateTable("rtu")
      .set({ plant_uid: null, updated_at: Date.now() })
      .where("plant_uid", "=", plantUid)
      .executeTakeFirst();
    await trx.deleteFrom("plant").where("uid", "=", plantUid).execute();
    return {
      devices: deviceCount,
      rtusUnassigned: Number(unassigned.numUpdatedRows ?? 0),
      memberLinks: Number(links.numDeletedRows ?? 0),
      alarms: Number(alarms.numDeletedRows ?? 0),
    };
  });
  return deleted;
}

/** Deletes an RTU with its devices (and their data), its commands and alarms, in one transaction. */
export async function deleteRtu(db: Kysely<Database>, rtuUid: string): Promise<{ devices: number }> {
  return db.transaction().execute(async (trx) => {
    const devices = await trx.selectFrom("device").select("uid").where("rtu_uid", "=", rtuUid).execute();
    const count = await deleteDevices(
      trx,
      devices.map((d) => d.uid),
    );
    await trx.deleteFrom("command").where("rtu_uid", "=", rtuUid).execute();
    await trx.deleteFrom("alarm").where("rtu_uid", "=", rtuUid).execute();
    await trx.deleteFrom("rtu").where("uid", "=", rtuUid).execute();
    return { devices: count };
  });
}

/**
 * Assigns RTUs to a plant (SPEC §7 POST /por): the RTU takes the plant's node and its devices move to
 * the plant, so a device's plant always equals its RTU's plant.
 */
export async function assignRtus(db: Kysely<Database>, plant: { uid: string; node_seq: number | null }, rtuUids: string[]) {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const part of chunks(rtuUids)) {
      await trx
        .updateTable("rtu")
        .set({ plant_uid: plant.uid, node_seq: plant.node_seq, updated_at: now })
        .where("uid", "in", part)
        .execute();
      await trx.updateTable("device").set({ plant_uid: plant.uid, updated_at: now }).where("rtu_uid", "in", part).execute();
    }
  });
}

/** Unassigns RTUs (SPEC §7 DELETE /por): they and their devices leave their plant and keep their node. */
export async function unassignRtus(db: Kysely<Database>, rtuUids: string[]) {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const part of chunks(rtuUids)) {
      await trx.updateTable("rtu").set({ plant_uid: null, updated_at: now }).where("uid", "in", part).execute();
      await trx.updateTable("device").set({ plant_uid: null, updated_at: now }).where("rtu_uid", "in", part).execute();
    }
  });
}

/** Nodes a member may file things under, with their depth-first path names for a select. */
export async function nodeOptions(
  db: Kysely<Database>,
  reach: Reach,
): Promise<Array<{ seq: number; name: string; depth: number }>> {
  const rows = await db
    .selectFrom("node")
    .select(["seq", "parent_seq", "name", "sort_order"])
    .orderBy("sort_order")
    .orderBy("seq")
    .execute();
  const children = new Map<number | null, typeof rows>();
  for (const r of rows) {
    const list = children.get(r.parent_seq) ?? [];
    list.push(r);
    children.set(r.parent_seq, list);
  }
  const out: Array<{ seq: number; name: string; depth: number }> = [];
  const walk = (parent: number | null, depth: number) => {
    for (const r of children.get(parent) ?? []) {
      if (reachesNode(reach, r.seq)) out.push({ seq: r.seq, name: r.name, depth });
      walk(r.seq, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

export async function packageExists(db: Kysely<Database>, seq: number): Promise<boolean> {
  return !!(await db.selectFrom("package").select("seq").where("seq", "=", seq).executeTakeFirst());
}

export async function packageList(db: Kysely<Database>) {
  return db.selectFrom("package").select(["seq", "name"]).orderBy("name").execute();
}

/** A uid not in use yet in the table, with a readable prefix. */
export async function newUid(db: Db, table: "plant" | "rtu" | "device", prefix: string): Promise<string> {
  for (;;) {
    const candidate = `${prefix}${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
    const row = await db.selectFrom(table).select("uid").where("uid", "=", candidate).executeTakeFirst();
    if (!row) return candidate;
  }
}

/** Case-insensitive `like` that works the same on SQLite and PostgreSQL. */
export function likeLower(column: string, text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`;
}
