/**
 * RTU gateways as the RTU screens read and write them (SPEC §7 RTUs): rows with plant, node, package and
 * device count for the visibility rule, the RTU's devices, creating and changing one. Deleting an RTU and
 * assigning RTUs to plants are in ./fleet.ts.
 */
import type { Insertable, Kysely, Updateable } from "kysely";
import type { RtuRow } from "../../domain/contract/fleet";
import { commState } from "../../domain/fleet";
import { rtuConfigFlags } from "../../domain/rtu-config";
import { canEditRtu, canSeeRtu } from "../../domain/visibility";
import type { Database, RtuTable } from "./schema";
import { plantOf, type Reach } from "./visibility";

export function rtuHex(uid: string): string {
  return Buffer.from(uid, "utf8").toString("hex");
}

/** The RTUs the member may see, with what the RTU screens show of them. */
export async function rtuRows(db: Kysely<Database>, scope: Reach, now = Date.now()): Promise<RtuRow[]> {
  const rows = await db
    .selectFrom("rtu")
    .leftJoin("plant", "plant.uid", "rtu.plant_uid")
    .leftJoin("node", "node.seq", "rtu.node_seq")
    .leftJoin("package", "package.seq", "rtu.package_seq")
    .select([
      "rtu.uid",
      "rtu.alias",
      "rtu.name",
      "rtu.mac",
      "rtu.kind",
      "rtu.plant_uid",
      "plant.name as plantName",
      "rtu.node_seq",
      "node.name as nodeName",
      "rtu.package_seq",
      "package.name as packageName",
      "rtu.config",
      "rtu.use_yn",
      "rtu.last_seen_at",
      "rtu.credential_hash",
      "rtu.created_at",
      "rtu.updated_at",
      "plant.node_seq as plantNodeSeq",
    ])
    .select((eb) => [
      eb
        .selectFrom("device")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("device.rtu_uid", "=", "rtu.uid")
        .as("device_count"),
    ])
    .orderBy("rtu.uid")
    .execute();
  return rows
    .filter((r) => canSeeRtu(scope, r, plantOf(r)))
    .map(({ credential_hash, plantNodeSeq, ...r }) => ({
      ...r,
      hex_rtu_uid: rtuHex(r.uid),
      config: Number(r.config),
      configFlags: rtuConfigFlags(Number(r.config)),
      last_seen_at: r.last_seen_at === null ? null : Number(r.last_seen_at),
      comm: commState(r.last_seen_at === null ? null : Number(r.last_seen_at), now),
      device_count: Number(r.device_count ?? 0),
      hasCredential: !!credential_hash,
      editable: canEditRtu(scope, r, plantOf({ plant_uid: r.plant_uid, plantNodeSeq })),
      created_at: Number(r.created_at),
      updated_at: Number(r.updated_at),
    }));
}

/** Whether an RTU with this uid exists. */
export async function rtuUidTaken(db: Kysely<Database>, uid: string): Promise<boolean> {
  return !!(await db.selectFrom("rtu").select("uid").where("uid", "=", uid).executeTakeFirst());
}

/** The uid of the RTU with this MAC address, undefined when none has it. */
export async function rtuWithMac(db: Kysely<Database>, mac: string): Promise<string | undefined> {
  const owner = await db.selectFrom("rtu").select("uid").where("mac", "=", mac).executeTakeFirst();
  return owner?.uid;
}

/** The RTU's devices by kind, address and name. */
export async function rtuDevices(db: Kysely<Database>, rtuUid: string) {
  return db
    .selectFrom("device")
    .selectAll()
    .where("rtu_uid", "=", rtuUid)
    .orderBy("kind")
    .orderBy("address")
    .orderBy("name")
    .execute();
}

export async function createRtu(db: Kysely<Database>, values: Insertable<RtuTable>) {
  await db.insertInto("rtu").values(values).execute();
}

export async function changeRtu(db: Kysely<Database>, uid: string, changes: Updateable<RtuTable>) {
  await db.updateTable("rtu").set(changes).where("uid", "=", uid).execute();
}
