// Unit conversions and display formatting of SPEC §9, in one place (DESIGN "Domain notes").
//
// Raw units used across the payloads:
//   capacity `capa`      raw integer in units of 10 W  (raw × 0.01 = kW; SPEC: "raw × 10 × 0.001")
//   power    `iw`, `pw`  W
//   energy   counters    Wh  (today/month/year/accumulated generation, `dailys`)
//   per-step generation series (`days`): kW, the average output over the step, so it shares the
//            chart axis with capacity (y max = capacity) and reference generation
// With these units "generation hours = energy / (10 × capa)" of SPEC §9 is Wh / W = hours.

/** A formatted quantity; the UI styles the unit separately. */
export interface Quantity {
  value: string;
  unit: string;
}

/** kW per raw capacity unit (SPEC §9 "capacity summed with factor 0.01"). */
export const CAPACITY_FACTOR = 0.01;
/** Month and year offsets are kept in kWh; × 1000 brings them to the Wh of the counters. */
export const OFFSET_SCALE = 1000;

const finiteOr0 = (value: number | null | undefined): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** What a missing figure shows. */
export const NO_VALUE = "–";

const grouped = new Map<number, Intl.NumberFormat>();
/**
 * The one number format of every screen, export text and the PDF (issue 26): thousands separators, a fixed number
 * of decimals ("28,648.30"), "–" for a missing value. Exports that write typed numbers (XLSX, CSV) keep numbers.
 */
export function formatNumber(value: number | null | undefined, decimals = 2): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return NO_VALUE;
  let f = grouped.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    grouped.set(decimals, f);
  }
  // -0.00 reads as a sign error: rounding to zero shows 0.
  const out = f.format(value);
  return /^-0(\.0+)?$/.test(out) ? out.slice(1) : out;
}

/** Raw capacity → kW. Division (not × 0.01) keeps 12345 → 123.45 exact. */
export function capacityKw(raw: number | null | undefined): number {
  return finiteOr0(raw) / 100;
}

/** Sum of raw capacities in kW; raws are summed first so rounding happens once. */
export function totalCapacityKw(raws: Iterable<number | null | undefined>): number {
  let sum = 0;
  for (const raw of raws) sum += finiteOr0(raw);
  return sum / 100;
}

/** Card capacity: kW with 2 decimals, e.g. raw 9980 → { '99.80', 'kW' }. */
export function formatCapacity(raw: number | null | undefined): Quantity {
  return { value: formatNumber(capacityKw(raw), 2), unit: "kW" };
}

/** Month/year offsets (kWh) → Wh. */
export function scaleOffset(offset: number | null | undefined): number {
  return finiteOr0(offset) * OFFSET_SCALE;
}

/** Power switches unit at 1e6 W (= 1 000 kW → MW) and 1e9 W (= 1 000 000 kW → GW). */
export const POWER_MW_THRESHOLD_W = 1e6;
export const POWER_GW_THRESHOLD_W = 1e9;

/** Power in W → kW / MW / GW with 2 decimals. Negative and missing values show 0. */
export function formatPower(watts: number | null | undefined): Quantity {
  const w = Math.max(0, finiteOr0(watts));
  if (w >= POWER_GW_THRESHOLD_W) return { value: formatNumber(w / 1e9), unit: "GW" };
  if (w >= POWER_MW_THRESHOLD_W) return { value: formatNumber(w / 1e6), unit: "MW" };
  return { value: formatNumber(w / 1e3), unit: "kW" };
}

/** A total of capacities (raw, 10 W units) as power: kW, from 1,000 kW MW, as the main page shows the fleet. */
export function formatCapacityTotal(raw: number | null | undefined): Quantity {
  return formatPower(capacityKw(raw) * 1000);
}

/** CO₂ in kg from this mass on shows in tonnes. */
export const CO2_TONNES_FROM_KG = 1000;

/** CO₂ avoided: kg with 1 decimal, from 1,000 kg t with 2 ("459.4 kg", "1,234.57 t"). */
export function formatCo2(kg: number | null | undefined): Quantity {
  const v = Math.max(0, finiteOr0(kg));
  return v >= CO2_TONNES_FROM_KG ? { value: formatNumber(v / 1000, 2), unit: "t" } : { value: formatNumber(v, 1), unit: "kg" };
}

/** Kinds whose voltage is medium voltage (VCB, 22.9 kV lines), shown in kV; the others in V. */
const MEDIUM_VOLTAGE_KINDS: readonly number[] = [7];

/**
 * A voltage with the unit of its level: a VCB's (22.9 kV grid) in kV with 2 decimals, an ACB's or a board's
 * (380 V, DC strings) in V with 1. Voltages of different levels are never averaged together (domain/monitoring.ts
 * gridPoint), so a column shows each plant's at its own level, with its unit.
 */
export function formatVoltage(volts: number | null | undefined, kind?: number | null): Quantity | null {
  if (typeof volts !== "number" || !Number.isFinite(volts)) return null;
  return kind !== undefined && kind !== null && MEDIUM_VOLTAGE_KINDS.includes(kind)
    ? { value: formatNumber(volts / 1000, 2), unit: "kV" }
    : { value: formatNumber(volts, 1), unit: "V" };
}

/** A share (0.825) as a percentage with 1 decimal ("82.5"), "–" when missing. */
export function formatPercent(share: number | null | undefined, decimals = 1): string {
  return typeof share === "number" && Number.isFinite(share) ? formatNumber(share * 100, decimals) : NO_VALUE;
}

/** SPEC §9 energy thresholds, in Wh: from 1e6 Wh MWh, from 1e9 Wh GWh. */
export const ENERGY_MWH_THRESHOLD_WH = 1e6;
export const ENERGY_GWH_THRESHOLD_WH = 1e9;
/** Below 50 Wh an accumulation shows '0.00' (rather than a misleading '0.05' from rounding up). */
export const ENERGY_ZERO_BELOW_WH = 50;

/** Energy in Wh → kWh / MWh / GWh with 2 decimals. Negative and missing values show '0.00 kWh'. */
export function formatEnergy(wattHours: number | null | undefined): Quantity {
  const wh = finiteOr0(wattHours);
  if (wh < ENERGY_ZERO_BELOW_WH) return { value: "0.00", unit: "kWh" };
  if (wh >= ENERGY_GWH_THRESHOLD_WH) return { value: formatNumber(wh / 1e9), unit: "GWh" };
  if (wh >= ENERGY_MWH_THRESHOLD_WH) return { value: formatNumber(wh / 1e6), unit: "MWh" };
  return { value: formatNumber(wh / 1e3), unit: "kWh" };
}

/**
 * Equivalent full-load hours: energy (Wh) / (10 × raw capa) = Wh / W.
 * 0 when the capacity is unknown; never negative.
 */
export function generationHours(energyWh: number | null | undefined, capaRaw: number | null | undefined): number {
  const capa = finiteOr0(capaRaw);
  if (capa <= 0) return 0;
  return Math.max(0, finiteOr0(energyWh) / (10 * capa));
}

/** Medium grid card: 2 decimals. */
export function formatGenerationHoursMedium(hours: number): string {
  return formatNumber(Math.max(0, finiteOr0(hours)), 2);
}

/** Small grid card: 1 decimal, cut to 4 characters; a dangling '.' after the cut is dropped. */
export function formatGenerationHoursSmall(hours: number): string {
  return Math.max(0, finiteOr0(hours)).toFixed(1).slice(0, 4).replace(/\.$/, "");
}
