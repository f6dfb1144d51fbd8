// Contract of the measurement calls (SPEC §7 RTUs and measurements): schemas and answer types shared by
// api/routes/measurement.ts and app/models/measurement.server.ts.
import { z } from "zod";
import { IrradianceMode, StringCheck } from "./shared";

const uid = z.string().trim().min(1, "required").max(64, "too_long");

/** The grid-side device kinds whose alarms /measurement/setGridAlarmRelease releases (connection board, VCB, ACB). */
export const GRID_RELEASE_KINDS = [2, 7, 8] as const;

/** GET (query) and POST (JSON body) /measurement/setGridAlarmRelease: a device by its RTU's MAC, bus address and kind. */
export const GridAlarmReleaseInput = z.object({
  mac: z.string().trim().min(1, "required").max(32, "too_long"),
  address: z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_an_integer").min(0).max(65535),
  kind: z.coerce
    .number()
    .int()
    .refine((k) => (GRID_RELEASE_KINDS as readonly number[]).includes(k), "grid_kinds_only"),
});

/** GET /measurement: one device (deviceUid) or every device of a kind of a plant ("all (integrated)"). */
export const MeasurementQuerySchema = z
  .object({
    deviceUid: uid.optional(),
    plantUid: uid.optional(),
    kind: z.coerce
      .number()
      .int()
      .refine((k) => [1, 2, 4, 7, 8].includes(k), "bad_kind")
      .optional(),
    includeInverterDetails: z.preprocess((v) => v === "1" || v === "true" || v === true, z.boolean()).default(false),
  })
  .refine((q) => !!q.deviceUid || (!!q.plantUid && q.kind !== undefined), {
    message: "device_or_plant_and_kind",
    path: ["deviceUid"],
  });

/** Measurement windows (SPEC §7): rtuUid, start, end as 'YYYY-MM-DD HH:mm:ss', unit 10. */
export const WindowQuerySchema = z.object({
  rtuUid: uid,
  start: z.string().trim().min(1, "required").max(19, "too_long"),
  end: z.string().trim().min(1, "required").max(19, "too_long"),
  unit: z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_an_integer").default(10),
});

export const FaultInfo = z.object({
  code: z.number(),
  hex: z.string(),
  name_ko: z.string(),
  name_en: z.string(),
  level: z.number(),
});
export type FaultInfo = z.infer<typeof FaultInfo>;

export const DeviceRef = z.object({
  uid: z.string(),
  kind: z.number(),
  name: z.string(),
  plantUid: z.string().nullable(),
  plantName: z.string().nullable(),
  rtuUid: z.string().nullable(),
  capacityKw: z.number().nullable(),
  /** Bus address on its RTU and the RTU's MAC: what /measurement/setGridAlarmRelease names a device by. */
  address: z.number().nullable(),
  mac: z.string().nullable(),
});
export type DeviceRef = z.infer<typeof DeviceRef>;

export const InverterNow = z.object({
  acVoltageV: z.number().nullable(),
  acCurrentA: z.number().nullable(),
  acPowerKw: z.number().nullable(),
  frequencyHz: z.number().nullable(),
  powerFactor: z.number().nullable(),
  dcVoltageV: z.number().nullable(),
  dcCurrentA: z.number().nullable(),
  dcPowerKw: z.number().nullable(),
  efficiency: z.number().nullable(),
  todayKwh: z.number().nullable(),
  totalKwh: z.number().nullable(),
  running: z.boolean(),
  faultCode: z.number(),
  faults: z.array(FaultInfo),
});
export type InverterNow = z.infer<typeof InverterNow>;

export const BoardNow = z.object({
  voltageV: z.number().nullable(),
  totalCurrentA: z.number().nullable(),
  median: z.number().nullable(),
  strings: z.array(StringCheck),
  lowStrings: z.number(),
});
export type BoardNow = z.infer<typeof BoardNow>;

export const EnvNow = z.object({
  poa: z.number().nullable(),
  horizontal: z.number().nullable(),
  moduleC: z.number().nullable(),
  ambientC: z.number().nullable(),
});
export type EnvNow = z.infer<typeof EnvNow>;

export const BreakerNow = z.object({
  voltageV: z.number().nullable(),
  currentA: z.number().nullable(),
  powerKw: z.number().nullable(),
  powerFactor: z.number().nullable(),
  /** 1 closed, 0 open. */
  state: z.number().nullable(),
  /** Ground-fault (leakage) current, mA. */
  leakageMa: z.number().nullable(),
  /** Unreleased alarms of this device (grid alarm release, SPEC §7). */
  activeAlarms: z.number(),
});
export type BreakerNow = z.infer<typeof BreakerNow>;

export const DeviceMeasurement = z.object({
  device: DeviceRef,
  /** Epoch ms of the newest reading; null = never reported. */
  ts: z.number().nullable(),
  /** Whether the RTU's invDetail bit (SPEC §6) allows inverter details. */
  invDetail: z.boolean(),
  inverter: InverterNow.optional(),
  board: BoardNow.optional(),
  env: EnvNow.optional(),
  breaker: BreakerNow.optional(),
});
export type DeviceMeasurement = z.infer<typeof DeviceMeasurement>;

export const MeasurementResponse = z.object({
  plantUid: z.string().nullable(),
  kind: z.number(),
  devices: z.array(DeviceMeasurement),
});
export type MeasurementResponse = z.infer<typeof MeasurementResponse>;

/** One device's series over a window. */
export const DeviceSeries = z.object({
  uid: z.string(),
  name: z.string(),
  kind: z.number(),
  /** Named series, one value per time key (null = no reading). */
  values: z.record(z.string(), z.array(z.number().nullable())),
});
export type DeviceSeries = z.infer<typeof DeviceSeries>;

export const WindowResponse = z.object({
  rtuUid: z.string(),
  plantUid: z.string().nullable(),
  start: z.string(),
  end: z.string(),
  unit: z.number(),
  /** 'YYYY-MM-DD HH:mm' keys, 10 minutes apart, never past now. */
  times: z.array(z.string()),
  devices: z.array(DeviceSeries),
  /** Environment windows: which irradiance series carry data (SPEC §4). */
  irradianceMode: IrradianceMode.optional(),
});
export type WindowResponse = z.infer<typeof WindowResponse>;

/** GET /measurement/devices: the measurement screen's pickers. */
export const MeasurementPicker = z.object({
  plant: z.object({ uid: z.string(), name: z.string() }).nullable(),
  plantUid: z.string().nullable(),
  devices: z.array(
    z.object({
      uid: z.string(),
      kind: z.number(),
      name: z.string(),
      rtu_uid: z.string().nullable(),
      capa: z.number().nullable(),
    }),
  ),
  matches: z.object({ plants: z.array(z.object({ uid: z.string(), name: z.string() })), more: z.boolean() }).nullable(),
});
export type MeasurementPicker = z.infer<typeof MeasurementPicker>;
/** GET /measurement/statusinfo/detail: one fault register decoded. */
export const FaultDetailResponse = z.object({
  deviceModule: z.string().nullable(),
  faultName: z.string().nullable(),
  faultCode: z.number(),
  faults: z.array(FaultInfo),
});
export type FaultDetailResponse = z.infer<typeof FaultDetailResponse>;
/** GET /measurement/fault/codes. */
export const FaultCodesResponse = z.object({ codes: z.array(FaultInfo) });
export type FaultCodesResponse = z.infer<typeof FaultCodesResponse>;
/** GET|POST /measurement/setGridAlarmRelease: how many alarms of the device were released. */
export const GridAlarmReleaseResponse = z.object({ deviceUid: z.string(), released: z.number() });
export type GridAlarmReleaseResponse = z.infer<typeof GridAlarmReleaseResponse>;
/** GET /rpe/devices. */
export const DeviceRefsResponse = z.object({ devices: z.array(DeviceRef) });
export type DeviceRefsResponse = z.infer<typeof DeviceRefsResponse>;
