/**
 * Remote operation (SPEC §3 Command, §6 service bits, §7 /pvstatus/control and /command/hex).
 * - Every command needs the control service bit (6); switching an inverter on or off also needs
 *   deviceOperation (4); breaker states are shown only with breakStatus (5).
 * - A device the member cannot see answers 404, one they see but may not edit 403 (api/store/visibility.ts).
 * - Every command is recorded (who, when, what, outcome) in `command`: the audit log the screen lists.
 *
 * GET  /pvstatus/control?plant=   what the member may operate, per plant, with state and last command
 * POST /command/hex               {deviceType, rtuUid, deviceUid, ch, hexOn | hexOff} → the outcome
 * GET  /command?plant=&limit=     recent commands of the plants the member sees
 * GET  /command/{seq}             one command and its outcome
 */
import { Router } from "express";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  CONTROLLABLE_KINDS,
  CommandListQuerySchema,
  CommandSchema,
  ControlQuerySchema,
  type CommandRow,
  type CommandState,
  type ControlPlant,
  type ControlResponse,
} from "../../domain/contract/alarm";
import { hasService } from "../../domain/service-bits";
import { canEditPlant } from "../../domain/visibility";
import { requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import type { Database } from "../store/schema";
import { reachOf, requireDevice, requirePlant, visiblePlantUids } from "../store/visibility";
import type { CommandService } from "../telemetry/commands";

const SeqParam = z.object({
  seq: z.coerce
    .number({ invalid_type_error: "not_a_number" })
    .int("not_a_number")
    .min(1, "too_small")
    .max(2 ** 31 - 1, "too_large"),
});

function requireControl(me: AccessClaims) {
  if (!hasService(me.service, "control")) throw forbidden("service_not_granted");
}
/** Inverters switch with deviceOperation; breakers and the rest need control alone. */
const mayOperateKind = (me: AccessClaims, kind: number) => kind !== 1 || hasService(me.service, "deviceOperation");

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

export function commandRoutes(ctx: ApiContext, commands: CommandService): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/pvstatus/control",
    handle(async (req): Promise<ControlResponse> => {
      const me = requireSettled(req);
      requireControl(me);
      const q = parse(ControlQuerySchema, req.query);
      const reach = await reachOf(db, me);
      let plantUids = await visiblePlantUids(db, reach);
      if (q.plant) {
        await requirePlant(db, reach, q.plant);
        plantUids = [q.plant];
      }
      const plants: ControlPlant[] = [];
      const showBreakers = hasService(me.service, "breakStatus");
      for (let i = 0; i < plantUids.length; i += 500) {
        const part = plantUids.slice(i, i + 500);
        const rows = await db
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
          ])
          .where("device.plant_uid", "in", part)
          .where("device.kind", "in", [...CONTROLLABLE_KINDS])
          .where("device.use_yn", "=", 1)
          .where("device.rtu_uid", "is not", null)
          .orderBy("plant.name")
          .orderBy("device.kind")
          .orderBy("device.name")
          .execute();
        const last = new Map<string, CommandRow>();
        if (rows.length) {
          const cmds = await commandSelect(db)
            .where("command.plant_uid", "in", part)
            .where("command.seq", "in", (eb) =>
              eb
                .selectFrom("command as c2")
                .select((e2) => e2.fn.max("c2.seq").as("m"))
                .where("c2.plant_uid", "in", part)
                .groupBy("c2.device_uid"),
            )
            .execute();
          for (const c of cmds) last.set(c.device_uid, commandRow(c as CommandSelect));
        }
        for (const d of rows) {
          let plant = plants.find((p) => p.plant_uid === d.plant_uid);
          if (!plant) plants.push((plant = { plant_uid: d.plant_uid!, name: d.plantName, devices: [] }));
          const breaker = d.kind === 7 || d.kind === 8;
          const editable = canEditPlant(reach, { uid: d.plant_uid!, node_seq: d.node_seq === null ? null : Number(d.node_seq) });
          plant.devices.push({
            uid: d.uid,
            name: d.name,
            kind: Number(d.kind),
            rtu_uid: d.rtu_uid!,
            state: breaker
              ? showBreakers && d.state !== null && d.state !== undefined
                ? Number(d.state)
                : null
              : inverterState(d.iw, last.get(d.uid)),
            iw: breaker ? null : d.iw === null || d.iw === undefined ? null : Number(d.iw),
            lastCommand: last.get(d.uid) ?? null,
            operable: editable && mayOperateKind(me, Number(d.kind)) && me.readOnly !== 1,
          });
        }
      }
      const commandList = plantUids.length ? await recentCommands(db, plantUids, 20) : [];
      return { plants, commandList };
    }),
  );

  r.post(
    "/command/hex",
    handle(async (req) => {
      const me = requireWriter(req);
      requireControl(me);
      const body = parse(CommandSchema, req.body);
      const reach = await reachOf(db, me);
      const device = await requireDevice(db, reach, body.deviceUid, "edit");
      if (device.rtu_uid !== body.rtuUid || Number(device.kind) !== body.deviceType) {
        throw badRequest("invalid_input", { deviceUid: "device_mismatch" });
      }
      if (!mayOperateKind(me, body.deviceType)) throw forbidden("service_not_granted");
      return commands.send({
        ...body,
        hexOn: body.hexOn ?? null,
        hexOff: body.hexOff ?? null,
        by: me.id,
        plantUid: device.plant_uid,
      });
    }),
  );

  r.get(
    "/command",
    handle(async (req) => {
      const me = requireSettled(req);
      requireControl(me);
      const q = parse(CommandListQuerySchema, req.query);
      const reach = await reachOf(db, me);
      let plantUids = await visiblePlantUids(db, reach);
      if (q.plant) {
        await requirePlant(db, reach, q.plant);
        plantUids = [q.plant];
      }
      return { commandList: plantUids.length ? await recentCommands(db, plantUids, q.limit) : [] };
    }),
  );

  r.get(
    "/command/:seq",
    handle(async (req) => {
      const me = requireSettled(req);
      requireControl(me);
      const { seq } = parse(SeqParam, req.params);
      const row = await commandSelect(db).where("command.seq", "=", seq).executeTakeFirst();
      if (!row) throw notFound("command_not_found");
      await requireDevice(db, await reachOf(db, me), row.device_uid).catch(() => {
        throw notFound("command_not_found");
      });
      return commandRow(row as CommandSelect);
    }),
  );

  return r;
}

/** An inverter is on when it produces, or when its last carried-out command switched it on. */
function inverterState(iw: number | null | undefined, last: CommandRow | undefined): number | null {
  if (last && last.status === "done") return last.action === "on" ? 1 : 0;
  if (iw === null || iw === undefined) return null;
  return Number(iw) > 0 ? 1 : 0;
}

async function recentCommands(db: Kysely<Database>, plantUids: string[], limit: number): Promise<CommandRow[]> {
  const out: CommandRow[] = [];
  for (let i = 0; i < plantUids.length; i += 500) {
    const rows = await commandSelect(db)
      .where("command.plant_uid", "in", plantUids.slice(i, i + 500))
      .orderBy("command.seq", "desc")
      .limit(limit)
      .execute();
    out.push(...rows.map((c) => commandRow(c as CommandSelect)));
  }
  return out.sort((a, b) => b.seq - a.seq).slice(0, limit);
}
