/**
 * What a device can physically report, per device kind and value field. A reading outside these
 * bounds is bad input (ingest rejects it with reason `out_of_range`); the read side uses the same
 * bounds so that a bad row stored before they existed can never turn a total into null, 0 or infinity.
 * Bounds tied to the device's rated capacity (raw unit × 10 = W, see domain/units.ts) tighten the
 * absolute bound when the capacity is known.
 */
import { DEVICE_KIND } from "./device";

export interface FieldBound {
  min: number;
  max: number;
  /** When the device's capacity is known: max = capacity (W) × this factor (never above `max`). */
  perCapacityW?: number;
}

/** Largest single inverter we accept (W): 10 MW, above any central inverter on the market. */
const MAX_INVERTER_W = 10_000_000;

const BREAKER: Record<string, FieldBound> = {
  v: { min: 0, max: 40_000 }, // VCB on 22.9 kV lines (36 kV class), ACB on low voltage
  a: { min: 0, max: 10_000 },
  w: { min: -100_000_000, max: 100_000_000 }, // a plant's export, or its night-time import
  pf: { min: -1, max: 1 },
  state: { min: 0, max: 255 },
  gf_ma: { min: 0, max: 100_000 },
};

export const FIELD_BOUNDS: Record<number, Record<string, FieldBound>> = {
  [DEVICE_KIND.inverter]: {
    dc_v: { min: 0, max: 1_500 },
    dc_a: { min: 0, max: 10_000 },
    // DC arrays are often 1.2–1.6× the AC rating.
    dc_w: { min: 0, max: 2.5 * MAX_INVERTER_W, perCapacityW: 2.5 },
    ac_v: { min: 0, max: 1_000 },
    ac_a: { min: 0, max: 20_000 },
    iw: { min: 0, max: 1.5 * MAX_INVERTER_W, perCapacityW: 1.5 },
    pf: { min: -1, max: 1 },
    hz: { min: 0, max: 70 },
    // A day has 24 hours of rated power at most.
    today_wh: { min: 0, max: 24 * 1.5 * MAX_INVERTER_W, perCapacityW: 24 * 1.5 },
    // Fifty years at rated power around the clock.
    total_wh: { min: 0, max: 50 * 366 * 24 * MAX_INVERTER_W, perCapacityW: 50 * 366 * 24 },
    fault_code: { min: 0, max: 2 ** 31 - 1 },
  },
  [DEVICE_KIND.connectionBoard]: {
    v: { min: 0, max: 1_500 },
    total_a: { min: 0, max: 10_000 },
    channels: { min: 0, max: 100 }, // each string current, A
  },
  [DEVICE_KIND.environmentSensor]: {
    // Irradiance (W/m²): the solar constant is 1361; cloud-edge enhancement stays below 2000.
    his: { min: 0, max: 2_000 },
    iis: { min: 0, max: 2_000 },
    // Module and ambient temperatures (°C).
    sts: { min: -50, max: 150 },
    ats: { min: -50, max: 150 },
  },
  [DEVICE_KIND.vcb]: BREAKER,
  [DEVICE_KIND.acb]: BREAKER,
};

/** Rated capacity in W from the raw capacity unit (null when unknown or not positive). */
export function capacityW(capaRaw: number | null | undefined): number | null {
  return typeof capaRaw === "number" && Number.isFinite(capaRaw) && capaRaw > 0 ? capaRaw * 10 : null;
}

/** The [min, max] a field of a device kind may take, given the device's raw capacity; null for unknown fields. */
export function fieldRange(kind: number, field: string, capaRaw?: number | null): [number, number] | null {
  const bound = FIELD_BOUNDS[kind]?.[field];
  if (!bound) return null;
  const w = capacityW(capaRaw);
  const max = bound.perCapacityW !== undefined && w !== null ? Math.min(bound.max, w * bound.perCapacityW) : bound.max;
  return [bound.min, max];
}

/** Whether a value is a finite number a device of this kind (and capacity) can report in this field. */
export function withinBounds(kind: number, field: string, value: number, capaRaw?: number | null): boolean {
  if (!Number.isFinite(value)) return false;
  const range = fieldRange(kind, field, capaRaw);
  return !range || (value >= range[0] && value <= range[1]);
}

/**
 * A plant's energy figure (Wh) read back for display: finite, not negative and not above what the
 * plant's capacity can produce in `hours`; anything else counts as 0 (it is a bad row, not a total).
 */
export function plausibleEnergyWh(wh: unknown, capaRaw: number | null | undefined, hours: number): number {
  const n = Number(wh);
  if (!Number.isFinite(n) || n < 0) return 0;
  const w = capacityW(capaRaw);
  const max = (w ?? 1.5 * MAX_INVERTER_W) * 1.5 * hours;
  return n <= max ? n : 0;
}

/** A plant's current power (W) read back: finite, not negative, at most 1.5× its capacity; else 0. */
export function plausiblePowerW(watts: unknown, capaRaw: number | null | undefined): number {
  const n = Number(watts);
  if (!Number.isFinite(n) || n < 0) return 0;
  const w = capacityW(capaRaw);
  return n <= (w ?? MAX_INVERTER_W) * 1.5 ? n : 0;
}
