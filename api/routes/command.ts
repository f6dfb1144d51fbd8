/** POST /api/command/hex — operate a device through its gateway (SPEC §3 Command). */
import { Router } from "express";
import { z } from "zod";
import { hasService } from "../../domain/service-bits";
import { requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { forbidden, handle, notFound, parse, badRequest } from "../http";
import { reachOf, requireDevice } from "../store/visibility";
import type { CommandService } from "../telemetry/commands";

const hex = z.string().regex(/^(0x)?[0-9a-fA-F]{1,8}$/, "not_hex");
const CommandBody = z
  .object({
    deviceType: z.coerce.number().int().refine((k) => [1, 2, 4, 7, 8].includes(k), "unknown_kind"),
    rtuUid: z.string().min(1).max(64),
    deviceUid: z.string().min(1).max(64),
    ch: z.coerce.number().int().min(0).max(255),
    hexOn: hex.nullish(),
    hexOff: hex.nullish(),
  })
  .refine((b) => !!b.hexOn !== !!b.hexOff, { message: "exactly_one_of_hexOn_hexOff", path: ["hexOn"] });

export function commandRoutes(ctx: ApiContext, commands: CommandService): Router {
  const r = Router();
  r.post("/command/hex", handle(async (req) => {
    const me = requireWriter(req);
    if (!hasService(me.service, "control") && !hasService(me.service, "deviceOperation")) throw forbidden("service_not_granted");
    const body = parse(CommandBody, req.body);
    const db = ctx.store.db;
    // A device the member may not see answers like one that does not exist; so does one outside any plant.
    const device = await requireDevice(db, await reachOf(db, me), body.deviceUid, "see", "no_such_device");
    if (!device.plant_uid) throw notFound("no_such_device");
    if (device.rtu_uid !== body.rtuUid || device.kind !== body.deviceType) throw badRequest("invalid_input", { deviceUid: "device_mismatch" });
    return commands.send({ ...body, hexOn: body.hexOn ?? null, hexOff: body.hexOff ?? null, by: me.id });
  }));
  return r;
}
