/**
 * Plants as the plant screens read and write them (SPEC §7 Plants): rows with node, package, counts and
 * status, the plant's RTUs and devices, creating and changing a plant. Deleting one is in ./fleet.ts.
 */
import { sql, type Kysely } from "kysely";
import type { PlantRow } from "../../domain/contract/fleet";
import { normalizeLocality } from "../../domain/locality";
import { plantStatusFromAlarms, type PlantStatus } from "../../domain/status";
import { canEditPlant, reachesEverything } from "../../domain/visibility";
import { likeLower } from "./fleet";
import type { Database, PlantTable } from "./schema";
import { visiblePlantUids, type Reach } from "./visibility";

/** The plant columns the management search may look in. */
export const SEARCH_TYPES = ["name", "uid", "address", "locality"] as const;
export type SearchColumn = (typeof SEARCH_TYPES)[number];

/** Plant status per plant from open alarms and current inverter output (SPEC §4). */
async function plantStatuses(db: Kysely<Database>, uids: string[]): Promise<Map<string, PlantStatus>> {
  const out = new Map<string, PlantStatus>();
  if (!uids.length) return out;
  const alarms = await db
    .selectFrom("alarm")
    .select((eb) => [
      "plant_uid",
      eb.fn.countAll<number>().as("alarm_count"),
      sql<number>`sum(case when code = 1000001 then 1 else 0 end)`.as("alarm_1000001_count"),
      sql<number>`sum(case when code = 1000003 then 1 else 0 end)`.as("alarm_1000003_count"),
      sql<number>`sum(case when code = 1000004 then 1 else 0 end)`.as("alarm_1000004_count"),
      sql<number>`sum(case when code = 1000006 then 1 else 0 end)`.as("alarm_1000006_count"),
    ])
    .where("released_at", "is", null)
    .where("plant_uid", "in", uids)
    .groupBy("plant_uid")
    .execute();
  const output = await db
    .selectFrom("device_latest")
    .innerJoin("device", "device.uid", "device_latest.device_uid")
    .select((eb) => ["device.plant_uid", eb.fn.sum<number>("device_latest.iw").as("iw")])
    .where("device.plant_uid", "in", uids)
    .where("device.kind", "=", 1)
    .groupBy("device.plant_uid")
    .execute();
  const rows = new Map<string, Record<string, unknown>>();
  for (const a of alarms) rows.set(a.plant_uid, { ...a });
  for (const o of output) if (o.plant_uid) rows.set(o.plant_uid, { ...(rows.get(o.plant_uid) ?? {}), iw: o.iw });
  for (const uid of uids) out.set(uid, plantStatusFromAlarms(rows.get(uid) ?? null));
  return out;
}

/** Plant rows with node, package, counts and status, for the given uids (or all). */
export async function plantRows(
  db: Kysely<Database>,
  scope: Reach,
  filter: { uids?: string[]; packageSeq?: number; search?: { column: SearchColumn; text: string } } = {},
): Promise<PlantRow[]> {
  // A member who reaches everything needs no list of uids.
  const visible = filter.uids ?? (reachesEverything(scope) ? "all" : await visiblePlantUids(db, scope));
  let q = db
    .selectFrom("plant")
    .leftJoin("node", "node.seq", "plant.node_seq")
    .leftJoin("package", "package.seq", "plant.package_seq")
    .select([
      "plant.uid",
      "plant.name",
      "plant.alias",
      "plant.capa",
      "plant.locality",
      "plant.address",
      "plant.lat",
      "plant.lng",
      "plant.node_seq",
      "node.name as nodeName",
      "plant.package_seq",
      "package.name as packageName",
      "plant.created_at",
      "plant.updated_at",
    ])
    .select((eb) => [
      eb.selectFrom("rtu").select(eb.fn.countAll<number>().as("n")).whereRef("rtu.plant_uid", "=", "plant.uid").as("rtu_count"),
      eb
        .selectFrom("device")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("device.plant_uid", "=", "plant.uid")
        .as("device_count"),
    ])
    .orderBy("plant.name")
    .orderBy("plant.uid");
  if (visible !== "all") {
    if (!visible.length) return [];
    q = q.where("plant.uid", "in", visible);
  }
  if (filter.packageSeq) q = q.where("plant.package_seq", "=", filter.packageSeq);
  if (filter.search) q = q.where(likeLower(`plant.${filter.search.column}`, filter.search.text));
  const rows = await q.execute();
  const statuses = await plantStatuses(
    db,
    rows.map((r) => r.uid),
  );
  return rows.map((r) => {
    const st = statuses.get(r.uid) ?? { status: 0, statusName: "" };
    return {
      ...r,
      capa: Number(r.capa),
      lat: r.lat === null ? null : Number(r.lat),
      lng: r.lng === null ? null : Number(r.lng),
      plantLocality: normalizeLocality(r.locality),
      rtu_count: Number(r.rtu_count ?? 0),
      device_count: Number(r.device_count ?? 0),
      status: st.status,
      statusName: st.statusName,
      editable: canEditPlant(scope, { uid: r.uid, node_seq: r.node_seq === null ? null : Number(r.node_seq) }),
      created_at: Number(r.created_at),
      updated_at: Number(r.updated_at),
    };
  });
}

/** Whether a plant with this uid exists. */
export async function plantUidTaken(db: Kysely<Database>, uid: string): Promise<boolean> {
  return !!(await db.selectFrom("plant").select("uid").where("uid", "=", uid).executeTakeFirst());
}

export type PlantValues = Pick<
  PlantTable,
  "name" | "alias" | "capa" | "locality" | "address" | "lat" | "lng" | "node_seq" | "package_seq"
>;

export async function createPlant(db: Kysely<Database>, uid: string, values: PlantValues, now: number) {
  await db
    .insertInto("plant")
    .values({ uid, ...values, created_at: now, updated_at: now })
    .execute();
}

/** Changes a plant; when it moves to another node its RTUs follow (the group tree lists them there). */
export async function changePlant(
  db: Kysely<Database>,
  existing: { uid: string; node_seq: number | null },
  values: PlantValues,
  now: number,
) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("plant")
      .set({ ...values, updated_at: now })
      .where("uid", "=", existing.uid)
      .execute();
    if (values.node_seq !== existing.node_seq) {
      await trx
        .updateTable("rtu")
        .set({ node_seq: values.node_seq, updated_at: now })
        .where("plant_uid", "=", existing.uid)
        .execute();
    }
  });
}

/** The plant's RTUs (by uid) and devices (by kind and name). */
export async function plantHardware(db: Kysely<Database>, plantUid: string) {
  const rtuList = await db.selectFrom("rtu").selectAll().where("plant_uid", "=", plantUid).orderBy("uid").execute();
  const deviceList = await db
    .selectFrom("device")
    .selectAll()
    .where("plant_uid", "=", plantUid)
    .orderBy("kind")
    .orderBy("name")
    .execute();
  return { rtuList, deviceList };
}

/** Every RTU with its plant's name and node (`plantNodeSeq`, for the visibility rule), by uid. */
export async function rtusWithPlants(db: Kysely<Database>) {
  return db
    .selectFrom("rtu")
    .leftJoin("plant", "plant.uid", "rtu.plant_uid")
    .select([
      "rtu.uid",
      "rtu.alias",
      "rtu.name",
      "rtu.mac",
      "rtu.kind",
      "rtu.plant_uid",
      "rtu.node_seq",
      "plant.name as plantName",
      "plant.node_seq as plantNodeSeq",
    ])
    .orderBy("rtu.uid")
    .execute();
}

/** These plants' uid, name and locality, by name (as Korean readers sort) and uid. */
export async function namedPlants(
  db: Kysely<Database>,
  uids: readonly string[],
): Promise<Array<{ uid: string; name: string; locality: string | null }>> {
  if (!uids.length) return [];
  const plants = await db
    .selectFrom("plant")
    .select(["uid", "name", "locality"])
    .where("uid", "in", [...uids])
    .execute();
  return plants.sort((a, b) => a.name.localeCompare(b.name, "ko") || (a.uid < b.uid ? -1 : 1));
}
