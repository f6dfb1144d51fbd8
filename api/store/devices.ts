/**
 * Devices as the device screens read and write them (SPEC §7 Devices): rows with RTU, plant and last
 * reception for the visibility rule, creating and changing one. Deleting devices with their data is in
 * ./fleet.ts.
 */
import type { Insertable, Kysely, Updateable } from "kysely";
import type { DeviceRow } from "../../domain/contract/fleet";
import { commState } from "../../domain/fleet";
import { canEditDevice, canSeeDevice } from "../../domain/visibility";
import type { Database, DeviceTable } from "./schema";
import { plantOf, type Reach } from "./visibility";

/** The devices the member may see, with what the device screens show of them. */
export async function deviceRows(db: Kysely<Database>, scope: Reach, now = Date.now()): Promise<DeviceRow[]> {
  const rows = await db
    .selectFrom("device")
    .leftJoin("rtu", "rtu.uid", "device.rtu_uid")
    .leftJoin("plant", "plant.uid", "device.plant_uid")
    .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
    .select([
      "device.uid",
      "device.rtu_uid",
      "device.plant_uid",
      "device.kind",
      "device.name",
      "device.address",
      "device.capa",
      "device.use_yn",
      "device.created_at",
      "device.updated_at",
      "rtu.alias as rtuAlias",
      "rtu.name as rtuName",
      "rtu.plant_uid as rtuPlantUid",
      "rtu.node_seq as rtuNodeSeq",
      "plant.name as plantName",
      "plant.node_seq as plantNodeSeq",
      "device_latest.received_at as lastSeenAt",
    ])
    .orderBy("device.kind")
    .orderBy("device.name")
    .orderBy("device.uid")
    .execute();
  const rtuOf = (d: (typeof rows)[number]) =>
    d.rtu_uid ? { plant_uid: d.rtuPlantUid, node_seq: d.rtuNodeSeq === null ? null : Number(d.rtuNodeSeq) } : null;
  return rows
    .filter((d) => canSeeDevice(scope, d, plantOf(d), rtuOf(d)))
    .map((row) => {
      const { rtuPlantUid: _p, rtuNodeSeq: _n, plantNodeSeq: _s, ...d } = row;
      const last = d.lastSeenAt === null ? null : Number(d.lastSeenAt);
      return {
        ...d,
        capa: d.capa === null ? null : Number(d.capa),
        lastSeenAt: last,
        comm: commState(last, now),
        editable: canEditDevice(scope, row, plantOf(row), rtuOf(row)),
        created_at: Number(d.created_at),
        updated_at: Number(d.updated_at),
      };
    });
}

/** Whether a device with this uid exists. */
export async function deviceUidTaken(db: Kysely<Database>, uid: string): Promise<boolean> {
  return !!(await db.selectFrom("device").select("uid").where("uid", "=", uid).executeTakeFirst());
}

/** The uid of the device at this bus address of the RTU, undefined when the address is free. */
export async function deviceAtAddress(db: Kysely<Database>, rtuUid: string, address: number): Promise<string | undefined> {
  const clash = await db
    .selectFrom("device")
    .select("uid")
    .where("rtu_uid", "=", rtuUid)
    .where("address", "=", address)
    .executeTakeFirst();
  return clash?.uid;
}

export async function createDevice(db: Kysely<Database>, values: Insertable<DeviceTable>) {
  await db.insertInto("device").values(values).execute();
}

export async function changeDevice(db: Kysely<Database>, uid: string, changes: Updateable<DeviceTable>) {
  await db.updateTable("device").set(changes).where("uid", "=", uid).execute();
}

/**
 * The plant's devices of these kinds, by kind, address and uid: only those in use when `inUse`, only those
 * among `uids` when given (a caller checking that the uids it was sent are the plant's compares the lengths).
 */
export async function plantDevices(
  db: Kysely<Database>,
  plantUid: string,
  kinds: readonly number[],
  opts: { inUse?: boolean; uids?: readonly string[] } = {},
): Promise<Array<{ uid: string; kind: number; name: string }>> {
  if (opts.uids && !opts.uids.length) return [];
  let q = db
    .selectFrom("device")
    .select(["uid", "kind", "name"])
    .where("plant_uid", "=", plantUid)
    .where("kind", "in", [...kinds]);
  if (opts.inUse) q = q.where("use_yn", "=", 1);
  if (opts.uids) q = q.where("uid", "in", [...opts.uids]);
  const rows = await q.orderBy("kind").orderBy("address").orderBy("uid").execute();
  return rows.map((d) => ({ uid: d.uid, kind: Number(d.kind), name: d.name }));
}
