/**
 * The detail window (SPEC §2 Detail window, §7 POST /member/detail and the token handover): one-time
 * handover codes, and what the window's one view reads of a member or a plant. Who may open what is
 * decided by the caller (api/routes/detail.ts) with the one visibility rule.
 */
import type { Kysely } from "kysely";
import type { CommandRow } from "../../domain/contract/alarm";
import type { DetailPlantView } from "../../domain/contract/detail";
import type { CommandFacts } from "../../domain/command-state";
import { generationHours } from "../../domain/units";
import { alarmMessageFields } from "./alarms";
import { lastCommandByDevice } from "./commands";
import { plantStatusRows } from "./plant-status";
import type { Database } from "./schema";
import { plantOperations } from "./watch";

/**
 * Uses a handover code once: marks it used when it is unused, unexpired and made for this target, and
 * answers the member it was made for (undefined for a replay, a wrong target or a late one).
 */
export async function useHandover(
  db: Kysely<Database>,
  codeHash: string,
  target: { kind: string; uid: string },
  now: number,
): Promise<string | undefined> {
  const used = await db
    .updateTable("detail_handover")
    .set({ used_at: now })
    .where("code_hash", "=", codeHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .where("kind", "=", target.kind)
    .where("target", "=", target.uid)
    .returning(["member_id"])
    .executeTakeFirst();
  return used?.member_id;
}

/** Stores a handover code valid for `ttlMs`, after removing the codes that expired more than `ttlMs` ago. */
export async function createHandover(
  db: Kysely<Database>,
  handover: { codeHash: string; memberId: string; kind: string; target: string },
  now: number,
  ttlMs: number,
) {
  await db
    .deleteFrom("detail_handover")
    .where("expires_at", "<", now - ttlMs)
    .execute();
  await db
    .insertInto("detail_handover")
    .values({
      code_hash: handover.codeHash,
      member_id: handover.memberId,
      kind: handover.kind,
      target: handover.target,
      expires_at: now + ttlMs,
      used_at: null,
      created_at: now,
    })
    .execute();
}

/** The member's node, undefined when there is no such member. */
export async function memberNode(db: Kysely<Database>, id: string) {
  return db.selectFrom("member").select(["id", "node_seq"]).where("id", "=", id).executeTakeFirst();
}

/** The plants linked to a member, by name. */
export async function linkedPlantNames(db: Kysely<Database>, memberId: string) {
  return db
    .selectFrom("member_plant")
    .innerJoin("plant", "plant.uid", "member_plant.plant_uid")
    .select(["plant.uid", "plant.name"])
    .where("member_plant.member_id", "=", memberId)
    .orderBy("plant.name")
    .execute();
}

/** The plant's address (null when it has none or there is no such plant). */
export async function plantAddress(db: Kysely<Database>, uid: string): Promise<string | null> {
  const plant = await db.selectFrom("plant").select(["address"]).where("uid", "=", uid).executeTakeFirst();
  return plant?.address ?? null;
}

/** The plant's newest open alarms. */
export async function openPlantAlarms(db: Kysely<Database>, uid: string, limit: number) {
  return db
    .selectFrom("alarm")
    .select(["seq", "code", "level", "message", "message_code", "message_params", "device_uid", "raised_at", "rtu_uid"])
    .where("plant_uid", "=", uid)
    .where("released_at", "is", null)
    .orderBy("raised_at", "desc")
    .limit(limit)
    .execute();
}

/** The plant's devices in use with their latest timestamp and output, by kind and name. */
export async function plantDeviceStates(db: Kysely<Database>, uid: string) {
  return db
    .selectFrom("device")
    .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
    .select([
      "device.uid",
      "device.kind",
      "device.name",
      "device.rtu_uid",
      "device_latest.ts",
      "device_latest.received_at",
      "device_latest.iw",
    ])
    .where("device.plant_uid", "=", uid)
    .where("device.use_yn", "=", 1)
    .orderBy("device.kind")
    .orderBy("device.name")
    .execute();
}

const lastCommandFacts = (c: CommandRow | undefined): CommandFacts | null =>
  c ? { action: c.action, status: c.status, requested_at: c.requested_at } : null;

/**
 * One plant as its detail shows it (the detail window's view, GET /mop/detail/{id}): its status row with address and
 * generation hours, its devices with their newest reading and command, its operation totals and open alarms. Null
 * when there is no such plant. Who may see it is the caller's decision (the visibility rule).
 */
export async function plantDetailView(db: Kysely<Database>, uid: string, now: number): Promise<DetailPlantView | null> {
  const [row] = await plantStatusRows(db, [uid], now);
  if (!row) return null;
  const address = await plantAddress(db, uid);
  const ops = (await plantOperations(db, [uid], now)).get(uid)!;
  const alarms = await openPlantAlarms(db, uid, 50);
  const faulted = new Set(alarms.map((a) => a.device_uid).filter(Boolean));
  const silentRtus = new Set(alarms.filter((a) => a.code === 1000003 && a.rtu_uid).map((a) => a.rtu_uid));
  const [devices, commands] = await Promise.all([plantDeviceStates(db, uid), lastCommandByDevice(db, [uid])]);
  const { lat: _lat, lng: _lng, ...rest } = row;
  return {
    kind: "plant",
    plant: { ...rest, address, genTime: generationHours(row.dailys, row.capa) },
    devices: devices.map((d) => ({
      uid: d.uid,
      kind: Number(d.kind),
      name: d.name,
      ts: d.ts === null ? null : Number(d.ts),
      receivedAt: d.received_at === null ? null : Number(d.received_at),
      iw: d.iw,
      faulted: faulted.has(d.uid) || (!!d.rtu_uid && silentRtus.has(d.rtu_uid)),
      lastCommand: lastCommandFacts(commands.get(d.uid)),
    })),
    operation: ops,
    alarms: alarms.map((a) => ({
      seq: Number(a.seq),
      code: Number(a.code),
      level: Number(a.level),
      ...alarmMessageFields(a),
      device_uid: a.device_uid,
      raised_at: Number(a.raised_at),
    })),
    now,
  };
}
