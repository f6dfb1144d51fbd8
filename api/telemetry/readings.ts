/**
 * The gateway reading format and its validation, one reading at a time, so a bad reading
 * is rejected with a reason while the good ones of the same batch are kept.
 */
import { DEVICE_KIND } from "../../domain/device";
import { withinBounds } from "../../domain/physical-bounds";

export const STEP_MS = 10 * 60_000;
/** A reading may be at most this far ahead of the server clock (gateway clock drift). */
export const MAX_FUTURE_MS = 5 * 60_000;
/** Late data is welcome, but not older than this. */
export const MAX_AGE_MS = 400 * 86_400_000;

export type MeasurementTable = "m_inverter" | "m_env" | "m_board" | "m_breaker";

type FieldKind = "number" | "integer" | "text" | "numberList";

/** Value fields per device kind, named as the measurement columns. */
export const KIND_FIELDS: Record<number, { table: MeasurementTable; fields: Record<string, FieldKind>; required: string[] }> = {
  [DEVICE_KIND.inverter]: {
    table: "m_inverter",
    fields: {
      dc_v: "number",
      dc_a: "number",
      dc_w: "number",
      ac_v: "number",
      ac_a: "number",
      iw: "number",
      pf: "number",
      hz: "number",
      today_wh: "number",
      total_wh: "number",
      fault_code: "integer",
      fault_hex: "text",
    },
    required: ["iw"],
  },
  [DEVICE_KIND.connectionBoard]: {
    table: "m_board",
    fields: { v: "number", total_a: "number", channels: "numberList" },
    required: [],
  },
  [DEVICE_KIND.environmentSensor]: {
    table: "m_env",
    fields: { his: "number", iis: "number", sts: "number", ats: "number" },
    required: [],
  },
  [DEVICE_KIND.vcb]: {
    table: "m_breaker",
    fields: { v: "number", a: "number", w: "number", pf: "number", state: "integer", gf_ma: "number" },
    required: [],
  },
  [DEVICE_KIND.acb]: {
    table: "m_breaker",
    fields: { v: "number", a: "number", w: "number", pf: "number", state: "integer", gf_ma: "number" },
    required: [],
  },
};

export interface RawReading {
  device?: unknown;
  ts?: unknown;
  values?: unknown;
}

export interface DeviceInfo {
  uid: string;
  kind: number;
  rtu_uid: string | null;
  plant_uid: string | null;
  /** Rated capacity, raw unit (inverters); bounds of power and energy follow it. */
  capa?: number | null;
}

export interface ValidReading {
  device: DeviceInfo;
  ts: number;
  table: MeasurementTable;
  row: Record<string, number | string | null>;
}

export type RejectReason =
  | "malformed"
  | "unknown_device"
  | "device_of_another_rtu"
  | "bad_timestamp"
  | "timestamp_in_future"
  | "timestamp_too_old"
  | "not_a_number"
  | "out_of_range"
  | "unknown_field"
  | "missing_field"
  | "duplicate_in_batch";

export interface Rejection {
  index: number;
  device: string | null;
  ts: number | null;
  reason: RejectReason;
  field?: string;
}

/** Parses ts (epoch ms or ISO 8601 with offset) and floors it onto the 10-minute grid. */
export function parseTimestamp(ts: unknown): number | null {
  let ms: number;
  if (typeof ts === "number") ms = ts;
  else if (typeof ts === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(ts))
    ms = Date.parse(ts);
  else return null;
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return ms - (ms % STEP_MS);
}

export function validateReading(
  raw: RawReading,
  index: number,
  rtuUid: string,
  devices: Map<string, DeviceInfo>,
  now: number,
): ValidReading | Rejection {
  const deviceUid = typeof raw?.device === "string" ? raw.device : null;
  const reject = (reason: RejectReason, ts: number | null = null, field?: string): Rejection => ({
    index,
    device: deviceUid,
    ts,
    reason,
    ...(field ? { field } : {}),
  });
  if (!raw || typeof raw !== "object" || !deviceUid) return reject("malformed");
  const device = devices.get(deviceUid);
  if (!device) return reject("unknown_device");
  if (device.rtu_uid !== rtuUid) return reject("device_of_another_rtu");
  const ts = parseTimestamp(raw.ts);
  if (ts === null) return reject("bad_timestamp");
  if (ts > now + MAX_FUTURE_MS) return reject("timestamp_in_future", ts);
  if (ts < now - MAX_AGE_MS) return reject("timestamp_too_old", ts);
  const spec = KIND_FIELDS[device.kind];
  if (!spec) return reject("unknown_device", ts);
  const values = raw.values;
  if (!values || typeof values !== "object" || Array.isArray(values)) return reject("malformed", ts);
  const row: Record<string, number | string | null> = {};
  for (const name of Object.keys(spec.fields)) row[name] = null;
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    const kind = spec.fields[name];
    if (!kind) return reject("unknown_field", ts, name);
    if (value === null) continue;
    if (kind === "text") {
      if (typeof value !== "string" || value.length > 64) return reject("not_a_number", ts, name);
      row[name] = value;
    } else if (kind === "numberList") {
      if (!Array.isArray(value) || value.length > 64 || !value.every((v) => typeof v === "number" && Number.isFinite(v))) {
        return reject("not_a_number", ts, name);
      }
      if (!value.every((v) => withinBounds(device.kind, name, v, device.capa))) return reject("out_of_range", ts, name);
      row[name] = value.join(",");
    } else {
      if (typeof value !== "number" || !Number.isFinite(value)) return reject("not_a_number", ts, name);
      if (kind === "integer" && !Number.isInteger(value)) return reject("not_a_number", ts, name);
      if (!withinBounds(device.kind, name, value, device.capa)) return reject("out_of_range", ts, name);
      row[name] = value;
    }
  }
  for (const name of spec.required) if (row[name] === null) return reject("missing_field", ts, name);
  return { device, ts, table: spec.table, row };
}
