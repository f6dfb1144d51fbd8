/**
 * Remote operation (SPEC §3 Command, §6 service bits, §7 /pvstatus/control and /command/hex).
 * - Every command needs the control service bit (6); switching an inverter on or off also needs
 *   deviceOperation (4); breaker states are shown only with breakStatus (5).
 * - A device the member cannot see answers 404, one they see but may not edit 403 (api/store/visibility.ts).
 * - Every command is recorded (who, when, what, outcome) in `command`: the audit log the screen lists.
 *
 * GET  /pvstatus/control?plant=&group=&q=&kind=&device=&page=&size=
 *                                 what the member may operate, a page of it by plant, with state, reading time and
 *                                 last command
 * POST /command/hex               {deviceType, rtuUid, deviceUid, ch, hexOn | hexOff} → the outcome; with an
 *                                 Idempotency-Key a replay answers the first command's outcome and runs nothing
 * GET  /command?plant=&limit=     recent commands of the plants the member sees
 * GET  /command/{seq}             one command and its outcome
 */
import { compareNames } from "../../domain/ordering";
import { wholeNumber } from "../../domain/contract/params";
import { Router } from "express";
import { z } from "zod";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  CommandListQuerySchema,
  CommandSchema,
  CONTROL_KIND_FILTERS,
  ControlQuerySchema,
  type CommandRow,
  type ControlPlant,
  type ControlResponse,
} from "../../domain/contract/alarm";
import { hasService } from "../../domain/service-bits";
import { canEditPlant } from "../../domain/visibility";
import { requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { ApiError, badRequest, forbidden, handle, notFound, parse } from "../http";
import { commandBySeq, controllableDevices, lastCommandByDevice, recentCommands } from "../store/commands";
import { reachOf, requireDevice, requirePlant, subtreeSeqs, visiblePlantUids } from "../store/visibility";
import { nodeNamed, plantsUnderNode } from "../store/alarms";
import { IdempotencyKeyReused, type CommandService } from "../telemetry/commands";

const SeqParam = z.object({
  seq: wholeNumber(1, 2 ** 31 - 1),
});

/** The Idempotency-Key header: the confirmation's one-time token (1–200 visible ASCII characters), optional. */
const IdempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, "invalid")
    .optional(),
});

function requireControl(me: AccessClaims) {
  if (!hasService(me.service, "control")) throw forbidden("service_not_granted");
}
/** Inverters switch with deviceOperation; breakers and the rest need control alone. */
const mayOperateKind = (me: AccessClaims, kind: number) => kind !== 1 || hasService(me.service, "deviceOperation");

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
      if (q.group !== undefined) {
        if (!(await nodeNamed(db, q.group))) throw notFound("group_not_found");
        // The group's plants (its subgroups' too) that the member sees; a group beyond their reach lists nothing.
        plantUids = await plantsUnderNode(db, await subtreeSeqs(db, q.group), plantUids);
      }
      const kinds: readonly number[] | null = q.kind ? CONTROL_KIND_FILTERS[q.kind] : null;
      const text = q.q?.toLowerCase();
      const matching: Awaited<ReturnType<typeof controllableDevices>> = [];
      for (let i = 0; i < plantUids.length; i += 500) {
        for (const d of await controllableDevices(db, plantUids.slice(i, i + 500))) {
          if (kinds && !kinds.includes(Number(d.kind))) continue;
          if (q.device && d.uid !== q.device) continue;
          if (text && !d.name.toLowerCase().includes(text) && !d.plantName.toLowerCase().includes(text)) continue;
          matching.push(d);
        }
      }
      matching.sort(
        (a, b) => compareNames(a.plantName, b.plantName) || Number(a.kind) - Number(b.kind) || compareNames(a.name, b.name),
      );
      const rows = matching.slice((q.page - 1) * q.size, q.page * q.size);
      const pagePlants = [...new Set(rows.map((d) => d.plant_uid!))];
      const last = pagePlants.length ? await lastCommandByDevice(db, pagePlants) : new Map<string, CommandRow>();
      const plants: ControlPlant[] = [];
      const showBreakers = hasService(me.service, "breakStatus");
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
            : inverterState(d.iw),
          iw: breaker ? null : d.iw === null || d.iw === undefined ? null : Number(d.iw),
          readingAt: d.readingAt === null || d.readingAt === undefined ? null : Number(d.readingAt),
          lastCommand: last.get(d.uid) ?? null,
          operable: editable && mayOperateKind(me, Number(d.kind)) && me.readOnly !== 1,
        });
      }
      const commandList = plantUids.length ? await recentCommands(db, plantUids, 20) : [];
      return { plants, commandList, total: matching.length, page: q.page, size: q.size };
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
      const idempotencyKey = parse(IdempotencyHeader, { "Idempotency-Key": req.get("idempotency-key") })["Idempotency-Key"];
      try {
        return await commands.send({
          ...body,
          hexOn: body.hexOn ?? null,
          hexOff: body.hexOff ?? null,
          by: me.id,
          plantUid: device.plant_uid,
          idempotencyKey,
        });
      } catch (e) {
        if (e instanceof IdempotencyKeyReused) throw new ApiError(409, "idempotency_key_reused");
        throw e;
      }
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
      const row = await commandBySeq(db, seq);
      if (!row) throw notFound("command_not_found");
      await requireDevice(db, await reachOf(db, me), row.device_uid).catch(() => {
        throw notFound("command_not_found");
      });
      return row;
    }),
  );

  return r;
}

/**
 * An inverter is on when its newest reading shows output. A command's effect is known from the first reading after
 * it; until then the screens say so (domain/command-state.ts awaitingReading), never the command's word as a state.
 */
function inverterState(iw: number | null | undefined): number | null {
  if (iw === null || iw === undefined) return null;
  return Number(iw) > 0 ? 1 : 0;
}
