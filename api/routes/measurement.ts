/**
 * Measurement (SPEC §7 RTUs and measurements): what the devices say now and over a window.
 *
 * GET /measurement                      newest values of one device (deviceUid) or of every device of a kind of
 *                                       a plant (plantUid, kind); inverter details only where the RTU's invDetail
 *                                       bit is set (SPEC §6) and includeInverterDetails asks for them
 * GET /measurement/statusinfo/detail    a fault register decoded with the fault-code table
 * GET /measurement/fault/codes          the fault-code table, or the rows of a JSON list of codes
 * GET|POST /measurement/setGridAlarmRelease   releases the open alarms of a grid-side device (mac, address, kind)
 * GET /rpi/measurement, /rpe/measurement, /rpg   10-minute series of an RTU's inverters, environment sensors,
 *                                       grid-side devices (connection boards, VCB, ACB) over rtuUid/start/end/unit 10
 * GET /rpe/devices                      environment sensors of an RTU or a plant
 * GET /rtg, /rte                        newest values of an RTU's grid-side devices / environment sensors
 * GET /ri                               an inverter's newest values (with details where allowed)
 * GET /measurement/devices              the measurement screen's picker: the chosen plant (plantUid when visible,
 *                                       else the first by name) and its devices; with q, the plants named so (≤ limit)
 */
import { Router, type Request } from "express";
import { z } from "zod";
import { checkPeriod } from "../../domain/diagnose-period";
import {
  GridAlarmReleaseInput,
  MeasurementQuerySchema,
  WindowQuerySchema,
  type MeasurementResponse,
  type WindowResponse,
} from "../../domain/contract/measurement";
import { decodeFaultRegister, parseFaultHex } from "../../domain/fault-register";
import { irradianceMode } from "../../domain/irradiance";
import { formatSeoul } from "../../domain/seoul-time";
import { timeSeriesKeys } from "../../domain/series";
import type { Clock } from "../clock";
import { requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, handle, notFound, parse } from "../http";
import {
  deviceOfRtuAt,
  deviceRefs,
  faultTable,
  latestMeasurements,
  measurementPicker,
  releaseDeviceAlarms,
  windowSeries,
} from "../store/measurement";
import { rtuWithMac } from "../store/rtus";
import { reachOf, requireDevice, requirePlant, requireRtu } from "../store/visibility";

const RtuQuery = z.object({ rtuUid: z.string().trim().min(1, "required").max(64, "too_long") });
const DeviceQuery = z.object({ deviceUid: z.string().trim().min(1, "required").max(64, "too_long") });
const EnvDevicesQuery = z
  .object({ rtuUid: z.string().trim().max(64).optional(), plantUid: z.string().trim().max(64).optional() })
  .refine((q) => !!q.rtuUid || !!q.plantUid, { message: "required", path: ["rtuUid"] });
const StatusDetailQuery = z.object({
  deviceModule: z.string().trim().max(64).optional(),
  faultHex: z.string().trim().max(12).optional(),
  faultName: z.string().trim().max(200).optional(),
  faultCode: z.coerce.number().int().min(0).max(0xffffffff).optional(),
});
const PickerQuery = z.object({
  plantUid: z.string().trim().max(64, "too_long").optional(),
  q: z.string().trim().max(100, "too_long").optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
const FaultCodesQuery = z.object({ faultJsonString: z.string().max(4000).optional() });
export function measurementRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/measurement",
    handle(async (req): Promise<MeasurementResponse> => {
      const me = requireSettled(req);
      const q = parse(MeasurementQuerySchema, req.query);
      const reach = await reachOf(db, me);
      if (q.deviceUid) {
        const d = await requireDevice(db, reach, q.deviceUid);
        const refs = await deviceRefs(db, { uids: [d.uid] });
        return {
          plantUid: d.plant_uid,
          kind: Number(d.kind),
          devices: await latestMeasurements(db, refs, q.includeInverterDetails),
        };
      }
      await requirePlant(db, reach, q.plantUid!);
      const refs = await deviceRefs(db, { plantUid: q.plantUid!, kinds: q.kind === 7 || q.kind === 8 ? [7, 8] : [q.kind!] });
      return { plantUid: q.plantUid!, kind: q.kind!, devices: await latestMeasurements(db, refs, q.includeInverterDetails) };
    }),
  );

  r.get(
    "/measurement/devices",
    handle(async (req) => {
      const me = requireSettled(req);
      const q = parse(PickerQuery, req.query);
      return measurementPicker(db, await reachOf(db, me), q.plantUid || undefined, q.q ? { q: q.q, limit: q.limit } : undefined);
    }),
  );

  r.get(
    "/measurement/statusinfo/detail",
    handle(async (req) => {
      requireSettled(req);
      const q = parse(StatusDetailQuery, req.query);
      const value = q.faultHex !== undefined && q.faultHex !== "" ? parseFaultHex(q.faultHex) : (q.faultCode ?? null);
      if (value === null) throw badRequest("invalid_input", { faultHex: q.faultHex ? "bad_hex" : "required" });
      return {
        deviceModule: q.deviceModule ?? null,
        faultName: q.faultName ?? null,
        faultCode: value,
        faults: decodeFaultRegister(value, await faultTable(db)),
      };
    }),
  );

  r.get(
    "/measurement/fault/codes",
    handle(async (req) => {
      requireSettled(req);
      const q = parse(FaultCodesQuery, req.query);
      const table = await faultTable(db);
      if (!q.faultJsonString) return { codes: table };
      let list: unknown;
      try {
        list = JSON.parse(q.faultJsonString);
      } catch {
        throw badRequest("invalid_input", { faultJsonString: "not_json" });
      }
      if (!Array.isArray(list) || list.length > 64) throw badRequest("invalid_input", { faultJsonString: "not_a_list" });
      const values = list.map((x) => (typeof x === "number" ? x : typeof x === "string" ? parseFaultHex(x) : null));
      if (values.some((v) => v === null || !Number.isInteger(v)))
        throw badRequest("invalid_input", { faultJsonString: "bad_code" });
      return { codes: values.flatMap((v) => decodeFaultRegister(v!, table)) };
    }),
  );

  const release = handle(async (req: Request) => {
    const me = requireWriter(req);
    const input = parse(GridAlarmReleaseInput, req.method === "GET" ? req.query : (req.body ?? {}));
    const reach = await reachOf(db, me);
    const rtuUid = await rtuWithMac(db, input.mac.toLowerCase());
    if (!rtuUid) throw notFound("rtu_not_found");
    await requireRtu(db, reach, rtuUid);
    const device = await deviceOfRtuAt(db, rtuUid, input.address, input.kind);
    if (!device) throw notFound("device_not_found");
    await requireDevice(db, reach, device.uid);
    const released = await releaseDeviceAlarms(db, device.uid, clock.now());
    return { deviceUid: device.uid, released };
  });
  r.get("/measurement/setGridAlarmRelease", release);
  r.post("/measurement/setGridAlarmRelease", release);

  const windowOf = (kinds: number[]) =>
    handle(async (req): Promise<WindowResponse> => {
      const me = requireSettled(req);
      const q = parse(WindowQuerySchema, req.query);
      if (q.unit !== 10) throw badRequest("bad_unit", { unit: "bad_unit" });
      const c = checkPeriod(q.start, q.end, q.unit);
      if (!c.ok) throw badRequest(c.problem, { [c.field]: c.problem });
      const reach = await reachOf(db, me);
      const rtu = await requireRtu(db, reach, q.rtuUid);
      const refs = (await deviceRefs(db, { rtuUid: rtu.uid, kinds })).map((d) => d.ref);
      const keys = timeSeriesKeys({ from: c.period.from, to: c.period.to, resolution: "tenMinute", now: clock.now() });
      const devices = await windowSeries(db, refs, c.period.from, c.period.to, keys);
      const out: WindowResponse = {
        rtuUid: rtu.uid,
        plantUid: rtu.plant_uid,
        start: q.start,
        end: q.end,
        unit: 10,
        times: keys.map((t) => formatSeoul(t, "YYYY-MM-DD HH:mm")),
        devices,
      };
      if (kinds.includes(4)) {
        const sum = (name: string) => devices.flatMap((d) => d.values[name] ?? []).map((v) => v ?? 0);
        out.irradianceMode = irradianceMode(sum("his"), sum("iis"));
      }
      return out;
    });
  r.get("/rpi/measurement", windowOf([1]));
  r.get("/rpe/measurement", windowOf([4]));
  r.get("/rpg", windowOf([2, 7, 8]));

  r.get(
    "/rpe/devices",
    handle(async (req) => {
      const me = requireSettled(req);
      const q = parse(EnvDevicesQuery, req.query);
      const reach = await reachOf(db, me);
      if (q.rtuUid) await requireRtu(db, reach, q.rtuUid);
      if (q.plantUid) await requirePlant(db, reach, q.plantUid);
      const refs = await deviceRefs(db, { rtuUid: q.rtuUid, plantUid: q.plantUid, kinds: [4] });
      return { devices: refs.map((d) => d.ref) };
    }),
  );

  const latestOfRtu = (kinds: number[]) =>
    handle(async (req): Promise<MeasurementResponse> => {
      const me = requireSettled(req);
      const q = parse(RtuQuery, req.query);
      const reach = await reachOf(db, me);
      const rtu = await requireRtu(db, reach, q.rtuUid);
      const refs = await deviceRefs(db, { rtuUid: rtu.uid, kinds });
      return { plantUid: rtu.plant_uid, kind: kinds[0]!, devices: await latestMeasurements(db, refs, false) };
    });
  r.get("/rtg", latestOfRtu([2, 7, 8]));
  r.get("/rte", latestOfRtu([4]));

  r.get(
    "/ri",
    handle(async (req) => {
      const me = requireSettled(req);
      const q = parse(DeviceQuery, req.query);
      const reach = await reachOf(db, me);
      const d = await requireDevice(db, reach, q.deviceUid);
      if (Number(d.kind) !== 1) throw badRequest("only_inverters", { deviceUid: "only_inverters" });
      const [m] = await latestMeasurements(db, await deviceRefs(db, { uids: [d.uid] }), true);
      return m;
    }),
  );

  return r;
}
