/**
 * Command queries (SPEC §3 Command): the devices a control screen lists, each device's last command and the
 * recent commands of a set of plants (the audit log the screen lists), as CommandRow. Scoping is the caller's:
 * every function takes the plant uids the member may see.
 */
import { compareNames } from "../../domain/ordering";
import type { Kysely } from "kysely";
import { CONTROLLABLE_KINDS, type CommandRow, type CommandState } from "../../domain/contract/alarm";
import { awaitingReading } from "../../domain/command-state";
import type { Database } from "./schema";

/** How many plant uids one query takes in its `in` list. */
const CHUNK = 500;

type CommandSelect = {
  seq: number;
  plant_uid: string | null;
  rtu_uid: string;
  device_uid: string;
  deviceName: string | null;
  device_type: number;
  hex_on: string | null;
  status: string;
  result: string | null;
  requested_by: string;
  requested_at: number;
  completed_at: number | null;
};
function commandRow(c: CommandSelect): CommandRow {
  let message: string | null = null;
  try {
    message = c.result ? ((JSON.parse(c.result) as { message?: string }).message ?? null) : null;
  } catch {
    message = null;
  }
  return {
    seq: Number(c.seq),
    plant_uid: c.plant_uid,
    rtu_uid: c.rtu_uid,
    device_uid: c.device_uid,
    deviceName: c.deviceName ?? null,
    device_type: Number(c.device_type),
    action: c.hex_on ? "on" : "off",
    status: c.status as CommandState,
    message,
    requested_by: c.requested_by,
    requested_at: Number(c.requested_at),
    completed_at: c.completed_at === null ? null : Number(c.completed_at),
  };
}

const commandSelect = (db: Kysely<Database>) =>
  db
    .selectFrom("command")
    .leftJoin("device", "device.uid", "command.device_uid")
    .select([
      "command.seq",
      "command.plant_uid",
      "command.rtu_uid",
      "command.device_uid",
      "device.name as deviceName",
      "command.device_type",
      "command.hex_on",
      "command.status",
      "command.result",
      "command.requested_by",
      "command.requested_at",
      "command.completed_at",
    ]);

/** The controllable devices in use (with an RTU) of these plants (at most CHUNK), by plant name, kind and name. */
export async function controllableDevices(db: Kysely<Database>, plantUids: string[]) {
  return db
    .selectFrom("device")
    .innerJoin("plant", "plant.uid", "device.plant_uid")
    .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
    .select([
      "device.uid",
      "device.name",
      "device.kind",
      "device.rtu_uid",
      "device.plant_uid",
      "plant.name as plantName",
      "plant.node_seq",
      "device_latest.iw",
      "device_latest.state",
      // When the newest reading arrived (server time): a reading's own ts is floored onto the 10-minute grid.
      "device_latest.received_at as readingAt",
    ])
    .where("device.plant_uid", "in", plantUids)
    .where("device.kind", "in", [...CONTROLLABLE_KINDS])
    .where("device.use_yn", "=", 1)
    .where("device.rtu_uid", "is not", null)
    .execute()
    .then((rows) =>
      // Names in natural order (인버터 2호기 before 인버터 10호기), as every list of the portal shows them.
      rows.sort(
        (a, b) => compareNames(a.plantName, b.plantName) || Number(a.kind) - Number(b.kind) || compareNames(a.name, b.name),
      ),
    );
}

/** Each device's newest command among these plants (at most CHUNK), by device uid. */
export async function lastCommandByDevice(db: Kysely<Database>, plantUids: string[]): Promise<Map<string, CommandRow>> {
  const cmds = await commandSelect(db)
    .where("command.plant_uid", "in", plantUids)
    .where("command.seq", "in", (eb) =>
      eb
        .selectFrom("command as c2")
        .select((e2) => e2.fn.max("c2.seq").as("m"))
        .where("c2.plant_uid", "in", plantUids)
        .groupBy("c2.device_uid"),
    )
    .execute();
  return new Map(cmds.map((c) => [c.device_uid, commandRow(c as CommandSelect)]));
}

/**
 * How many devices of each plant wait for a reading after their newest command (domain/command-state.ts), by plant:
 * the plant cards say so, as /control and the detail window do. Plants absent: none waiting.
 */
export async function devicesAwaitingReading(db: Kysely<Database>, plantUids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < plantUids.length; i += CHUNK) {
    const chunk = plantUids.slice(i, i + CHUNK);
    // One statement per chunk: each device's newest command with its newest reading's arrival beside it.
    const rows = await db
      .selectFrom("command")
      .leftJoin("device_latest", "device_latest.device_uid", "command.device_uid")
      .select(["command.plant_uid", "command.status", "command.requested_at", "device_latest.received_at"])
      .where("command.plant_uid", "in", chunk)
      .where("command.seq", "in", (eb) =>
        eb
          .selectFrom("command as c2")
          .select((e2) => e2.fn.max("c2.seq").as("m"))
          .where("c2.plant_uid", "in", chunk)
          .groupBy("c2.device_uid"),
      )
      .execute();
    for (const r of rows) {
      const last = { status: r.status as CommandState, requested_at: Number(r.requested_at) };
      const readingAt = r.received_at === null ? null : Number(r.received_at);
      if (r.plant_uid && awaitingReading(last, readingAt)) out.set(r.plant_uid, (out.get(r.plant_uid) ?? 0) + 1);
    }
  }
  return out;
}

/** One command and its outcome, or undefined. */
export async function commandBySeq(db: Kysely<Database>, seq: number): Promise<CommandRow | undefined> {
  const row = await commandSelect(db).where("command.seq", "=", seq).executeTakeFirst();
  return row ? commandRow(row as CommandSelect) : undefined;
}

/** The newest `limit` commands of these plants, newest first. */
export async function recentCommands(db: Kysely<Database>, plantUids: string[], limit: number): Promise<CommandRow[]> {
  const out: CommandRow[] = [];
  for (let i = 0; i < plantUids.length; i += CHUNK) {
    const rows = await commandSelect(db)
      .where("command.plant_uid", "in", plantUids.slice(i, i + CHUNK))
      .orderBy("command.seq", "desc")
      .limit(limit)
      .execute();
    out.push(...rows.map((c) => commandRow(c as CommandSelect)));
  }
  return out.sort((a, b) => b.seq - a.seq).slice(0, limit);
}
