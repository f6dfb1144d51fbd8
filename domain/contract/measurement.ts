// Contract of the measurement calls (SPEC §7 RTUs and measurements): schemas and answer types shared by
// api/routes/measurement.ts and app/models/measurement.server.ts.
import { z } from "zod";
import type { IrradianceMode } from "../irradiance";
import type { StringCheck } from "../performance";

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

export interface FaultInfo {
  code: number;
  hex: string;
  name_ko: string;
  name_en: string;
  level: number;
}

export interface DeviceRef {
  uid: string;
  kind: number;
  name: string;
  plantUid: string | null;
  plantName: string | null;
  rtuUid: string | null;
  capacityKw: number | null;
  /** Bus address on its RTU and the RTU's MAC: what /measurement/setGridAlarmRelease names a device by. */
  address: number | null;
  mac: string | null;
}

export interface InverterNow {
  acVoltageV: number | null;
  acCurrentA: number | null;
  acPowerKw: number | null;
  frequencyHz: number | null;
  powerFactor: number | null;
  dcVoltageV: number | null;
  dcCurrentA: number | null;
  dcPowerKw: number | null;
  efficiency: number | null;
  todayKwh: number | null;
  totalKwh: number | null;
  running: boolean;
  faultCode: number;
  faults: FaultInfo[];
}

export interface BoardNow {
  voltageV: number | null;
  totalCurrentA: number | null;
  median: number | null;
  strings: StringCheck[];
  lowStrings: number;
}

export interface EnvNow {
  poa: number | null;
  horizontal: number | null;
  moduleC: number | null;
  ambientC: number | null;
}

export interface BreakerNow {
  voltageV: number | null;
  currentA: number | null;
  powerKw: number | null;
  powerFactor: number | null;
  /** 1 closed, 0 open. */
  state: number | null;
  /** Ground-fault (leakage) current, mA. */
  leakageMa: number | null;
  /** Unreleased alarms of this device (grid alarm release, SPEC §7). */
  activeAlarms: number;
}

export interface DeviceMeasurement {
  device: DeviceRef;
  /** Epoch ms of the newest reading; null = never reported. */
  ts: number | null;
  /** Whether the RTU's invDetail bit (SPEC §6) allows inverter details. */
  invDetail: boolean;
  inverter?: InverterNow;
  board?: BoardNow;
  env?: EnvNow;
  breaker?: BreakerNow;
}

export interface MeasurementResponse {
  plantUid: string | null;
  kind: number;
  devices: DeviceMeasurement[];
}

/** One device's series over a window. */
export interface DeviceSeries {
  uid: string;
  name: string;
  kind: number;
  /** Named series, one value per time key (null = no reading). */
  values: Record<string, Array<number | null>>;
}

export interface WindowResponse {
  rtuUid: string;
  plantUid: string | null;
  start: string;
  end: string;
  unit: number;
  /** 'YYYY-MM-DD HH:mm' keys, 10 minutes apart, never past now. */
  times: string[];
  devices: DeviceSeries[];
  /** Environment windows: which irradiance series carry data (SPEC §4). */
  irradianceMode?: IrradianceMode;
}
