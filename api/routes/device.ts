/**
 * Devices (SPEC §7 Devices): lists for members and admins, and create/edit/delete for the 'device' admin
 * area (SPEC §6: level ≥ 2). A device hangs on an RTU and a plant; when its RTU is assigned to a plant,
 * the device's plant is that plant.
 */
import { Router } from "express";
import { z } from "zod";
import type { DeviceRow } from "../../domain/contract/fleet";
import { isDeviceKind } from "../../domain/device";
import { COMM_STATES, DeviceBodySchema, UID_PATTERN, type DeviceBody } from "../../domain/fleet";
import { requireAdmin, requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import { canEditPlant, canSeePlant } from "../../domain/visibility";
import { changeDevice, createDevice, deviceAtAddress, deviceRows, deviceUidTaken } from "../store/devices";
import { deleteDevice, newUid } from "../store/fleet";
import { plantRef, reachOf, type Reach } from "../store/visibility";
import { requireDeleteConfirmation } from "./fleet-common";
import { rtuRows } from "../store/rtus";

const ListQuery = z.object({
  status: z.enum([...COMM_STATES, "unused"]).optional(),
  kind: z.coerce.number().refine(isDeviceKind, "bad_kind").optional(),
  plant: z.string().regex(UID_PATTERN).optional(),
  rtu: z.string().regex(UID_PATTERN).optional(),
  keyword: z.string().max(100).optional(),
});

export function deviceRoutes(ctx: ApiContext): Router {
  const r = Router();
  const db = ctx.store.db;

  async function findDevice(scope: Reach, uid: string): Promise<DeviceRow> {
    const row = (await deviceRows(db, scope)).find((d) => d.uid === uid);
    if (!row) throw notFound("no_such_device");
    return row;
  }

  async function deviceValues(scope: Reach, body: DeviceBody, existing?: DeviceRow) {
    const fields: Record<string, string> = {};
    let plantUid = body.plantUid ?? null;
    const rtu = body.rtuUid ? (await rtuRows(db, scope)).find((x) => x.uid === body.rtuUid) : undefined;
    if (body.rtuUid && !rtu) fields.rtuUid = "no_such_rtu";
    else if (rtu && !rtu.editable) fields.rtuUid = "not_in_your_group";
    if (rtu?.plant_uid) {
      if (plantUid && plantUid !== rtu.plant_uid) fields.plantUid = "must_match_rtu";
      plantUid = rtu.plant_uid;
    }
    if (plantUid && !fields.plantUid) {
      const plant = await plantRef(db, plantUid);
      if (!plant || !canSeePlant(scope, plant)) fields.plantUid = "no_such_plant";
      else if (!canEditPlant(scope, plant)) fields.plantUid = "not_in_your_group";
    }
    if (!body.rtuUid && !plantUid) fields.rtuUid = "rtu_or_plant_required";
    if (!existing && body.uid && (await deviceUidTaken(db, body.uid))) fields.uid = "taken";
    if (body.rtuUid && body.address != null && !fields.rtuUid) {
      const clash = await deviceAtAddress(db, body.rtuUid, body.address);
      if (clash && clash !== existing?.uid) fields.address = "taken";
    }
    if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
    return {
      name: body.name,
      kind: body.kind,
      rtu_uid: body.rtuUid ?? null,
      plant_uid: plantUid,
      address: body.address ?? null,
      capa: body.kind === 1 && body.capaKw != null ? Math.round(body.capaKw * 100) : null,
      use_yn: body.use === false ? 0 : 1,
    };
  }

  function filterRows(rows: DeviceRow[], q: z.infer<typeof ListQuery>) {
    const kw = q.keyword?.trim().toLowerCase();
    return rows.filter(
      (d) =>
        (!q.kind || d.kind === q.kind) &&
        (!q.plant || d.plant_uid === q.plant) &&
        (!q.rtu || d.rtu_uid === q.rtu) &&
        (!q.status || (q.status === "unused" ? d.use_yn === 0 : d.comm === q.status)) &&
        (!kw || [d.uid, d.name, d.rtu_uid, d.plantName].some((v) => v?.toLowerCase().includes(kw))),
    );
  }

  r.get(
    "/device/list_user",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      const q = parse(ListQuery, req.query);
      return { deviceList: filterRows(await deviceRows(db, scope), q) };
    }),
  );

  r.get(
    "/device/list_user/admin",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "device"));
      const q = parse(ListQuery, req.query);
      return { deviceList: filterRows(await deviceRows(db, scope), q) };
    }),
  );

  r.get(
    "/device/:uid",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      return { device: await findDevice(scope, String(req.params.uid)) };
    }),
  );

  r.post(
    "/device",
    handle(async (req, res) => {
      const scope = await reachOf(db, requireAdmin(req, "device"));
      const body = parse(DeviceBodySchema, req.body);
      const values = await deviceValues(scope, body);
      const uid = body.uid ?? (await newUid(db, "device", "D"));
      const now = Date.now();
      await createDevice(db, { uid, ...values, created_at: now, updated_at: now });
      res.status(201);
      return { device: await findDevice(scope, uid) };
    }),
  );

  r.put(
    "/device/:uid",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "device"));
      const existing = await findDevice(scope, String(req.params.uid));
      if (!existing.editable) throw forbidden("not_in_your_group");
      const body = parse(DeviceBodySchema, req.body);
      const values = await deviceValues(scope, { ...body, uid: undefined }, existing);
      await changeDevice(db, existing.uid, { ...values, updated_at: Date.now() });
      return { device: await findDevice(scope, existing.uid) };
    }),
  );

  r.delete(
    "/device/:uid",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "device"));
      const existing = await findDevice(scope, String(req.params.uid));
      if (!existing.editable) throw forbidden("not_in_your_group");
      requireDeleteConfirmation(req);
      await deleteDevice(db, existing.uid);
      return { deleted: existing.uid };
    }),
  );

  return r;
}
