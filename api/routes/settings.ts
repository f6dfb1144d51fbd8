/**
 * Configuration (SPEC §7 GET /settings, GET /code): typed settings of domain/settings.ts and the fault-code
 * table. Everyone signed in may read them (screens need the polling interval and fault names);
 * changes need the 'setting' admin area (SPEC §6: level ≥ 10).
 */
import { Router } from "express";
import { ADMIN_DELETE_KEY } from "../../domain/admin-delete";
import { FaultCodeSchema, isValueSettingType, SETTING_SCHEMAS } from "../../domain/settings";
import { requireAdmin, requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, handle, notFound, parse } from "../http";
import { changeFaultCode, createFaultCode, deleteFaultCode, faultCodeExists, faultCodes } from "../store/fault-codes";
import { getSettings, putSettings, settingsMeta } from "../store/settings";
import { requireDeleteConfirmation } from "./fleet-common";

export function settingsRoutes(ctx: ApiContext): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/settings",
    handle(async (req) => {
      requireSettled(req);
      return { ...(await getSettings(db)), meta: await settingsMeta(db) };
    }),
  );

  r.put(
    "/settings/:type",
    handle(async (req) => {
      const me = requireAdmin(req, "setting");
      const type = String(req.params.type);
      if (!isValueSettingType(type)) throw notFound("no_such_setting_type");
      const values = parse(SETTING_SCHEMAS[type] as any, req.body);
      return { [type]: await putSettings(db, type, values as any, me.id) };
    }),
  );

  r.get(
    "/code",
    handle(async (req) => {
      requireSettled(req);
      return { codeList: await faultCodes(db) };
    }),
  );

  const create = handle(async (req, res) => {
    requireAdmin(req, "setting");
    const body = parse(FaultCodeSchema, { ...req.body, ...(req.params.code ? { code: req.params.code } : {}) });
    if (await faultCodeExists(db, body.code)) {
      throw badRequest("invalid_input", { code: "taken" });
    }
    await createFaultCode(db, body);
    res.status(201);
    return { code: body };
  });
  r.post("/code", create);
  r.post("/code/:code", create);

  r.put(
    "/code/:code",
    handle(async (req) => {
      requireAdmin(req, "setting");
      const code = Number(req.params.code);
      const body = parse(FaultCodeSchema, { ...req.body, code });
      if (!(await changeFaultCode(db, { ...body, code }))) throw notFound("no_such_code");
      return { code: body };
    }),
  );

  r.delete(
    "/code/:code",
    handle(async (req) => {
      requireAdmin(req, "setting");
      const code = Number(req.params.code);
      if (!Number.isInteger(code)) throw notFound("no_such_code");
      if (!(await faultCodeExists(db, code))) throw notFound("no_such_code");
      requireDeleteConfirmation(req);
      await deleteFaultCode(db, code);
      return { deleted: code };
    }),
  );
  void ADMIN_DELETE_KEY;
  return r;
}
