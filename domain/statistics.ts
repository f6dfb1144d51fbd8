/**
 * Rules of the statistics reports (SPEC §2 Statistics, §3 Statistics responses, §9): report units and how
 * far each may reach, period presets in Seoul calendar time, the time steps of a report, data completeness,
 * and the summary figures — generation hours (IEC 61724 final yield Y_f), performance ratio, CO₂ avoided and
 * REC/SMP revenue with their constants. Pure: the API and the portal both use it.
 *
 * PR comes from domain/performance.ts, the diagnosis' function (reportRowSums, reportPr): one rule for both.
 */
import { addSeoul, DAY_MS, formatSeoul, HOUR_MS, parseSeoul, seoulDayStart, seoulPeriodStart, STEP_MS } from "./seoul-time";
import { figuresFromSums, performanceSums, reportBucket, type PerformanceSums, type WithheldReason } from "./performance";
import { formatNumber, formatPercent, generationHours } from "./units";

/** Report units: 10 minutes, 30 minutes (default, SPEC §9), hour, day, month. */
export const STAT_UNITS = ["10", "30", "60", "day", "month"] as const;
export type StatUnit = (typeof STAT_UNITS)[number];
export const DEFAULT_STAT_UNIT: StatUnit = "30";

export function isStatUnit(v: unknown): v is StatUnit {
  return typeof v === "string" && (STAT_UNITS as readonly string[]).includes(v);
}

/**
 * The longest period each unit may cover, in days. Units 10 and 30 are read from the raw 10-minute rows and
 * stay short; the hour unit reads the hourly rollup (a year and a bit), day and month the daily rollup.
 * A decade at unit 10 (≈ 525,000 steps per device) is refused, not attempted.
 */
export const MAX_SPAN_DAYS: Record<StatUnit, number> = { "10": 31, "30": 92, "60": 400, day: 3700, month: 7400 };

/** Where a unit's numbers come from (documented in the API answer and the README). */
export const UNIT_SOURCE: Record<StatUnit, "raw" | "hourly" | "daily"> = {
  "10": "raw",
  "30": "raw",
  "60": "hourly",
  day: "daily",
  month: "daily",
};

/** The fixed step of a unit in ms (months vary: null). */
export function unitStepMs(unit: StatUnit): number | null {
  switch (unit) {
    case "10":
      return STEP_MS;
    case "30":
      return 3 * STEP_MS;
    case "60":
      return HOUR_MS;
    case "day":
      return DAY_MS;
    case "month":
      return null;
  }
}

/** Start of the report step containing ts (Seoul calendar for day and month). */
export function bucketStart(ts: number, unit: StatUnit): number {
  if (unit === "day") return seoulDayStart(ts);
  if (unit === "month") return seoulPeriodStart(ts, "month");
  const step = unitStepMs(unit)!;
  // 10, 30 and 60 minutes divide the +9 h offset, so UTC alignment is Seoul alignment.
  return ts - (((ts % step) + step) % step);
}

/** The step after the one starting at `start`. */
export function nextBucket(start: number, unit: StatUnit): number {
  return unit === "month" ? addSeoul(start, 1, "month") : start + unitStepMs(unit)!;
}

/** Every step start of [from, to). */
export function bucketStarts(from: number, to: number, unit: StatUnit): number[] {
  const out: number[] = [];
  for (let b = bucketStart(from, unit); b < to; b = nextBucket(b, unit)) out.push(b);
  return out;
}

/**
 * The label of a step as a report shows it (Seoul, 24-hour clock). Made once per row of an export (876,000
 * rows for a year of hourly steps of 100 inverters): formatSeoul is a slice of toISOString, no zone lookup.
 */
export function bucketLabel(ts: number, unit: StatUnit): string {
  // An export writes the same step's label once per device (876,000 rows, 8,760 labels for a year at unit 60):
  // the labels of recent steps are remembered, a bounded map per unit.
  let memo = labelMemo.get(unit);
  if (!memo) labelMemo.set(unit, (memo = new Map()));
  let label = memo.get(ts);
  if (label === undefined) {
    label = formatSeoul(ts, unit === "month" ? "YYYY-MM" : unit === "day" ? "YYYY-MM-DD" : "YYYY-MM-DD HH:mm");
    if (memo.size >= 20_000) memo.clear();
    memo.set(ts, label);
  }
  return label;
}
const labelMemo = new Map<StatUnit, Map<number, string>>();

/** A step's short label for a chart axis: the time alone within one day, the day without the year. */
export function axisLabel(ts: number, unit: StatUnit, oneDay: boolean): string {
  return formatSeoul(ts, unit === "month" ? "YYYY-MM" : unit === "day" ? "MM-DD" : oneDay ? "HH:mm" : "MM-DD HH:mm");
}

// ---- Periods ----

export const PERIOD_PRESETS = ["day", "week", "month", "year", "custom"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** The unit a preset starts with when the URL gives none (SPEC §9 default 30 for a day). */
export const PRESET_DEFAULT_UNIT: Record<PeriodPreset, StatUnit> = {
  day: "30",
  week: "60",
  month: "day",
  year: "month",
  custom: "day",
};

export interface Period {
  /** Inclusive start, epoch ms (Seoul midnight for presets). */
  start: number;
  /** Exclusive end, epoch ms. */
  end: number;
}

/** The period of a preset containing the Seoul date `anchor` (weeks start on Monday). */
export function presetPeriod(preset: Exclude<PeriodPreset, "custom">, anchor: number): Period {
  const start = seoulPeriodStart(anchor, preset);
  return { start, end: addSeoul(start, 1, preset) };
}

/** The anchor date of the preset period `n` periods before or after the one containing `date`. */
export function addPeriod(date: string, preset: Exclude<PeriodPreset, "custom">, n: number): string {
  const anchor = parseSeoul(date);
  if (anchor === null) return date;
  return formatSeoul(addSeoul(presetPeriod(preset, anchor).start, n, preset), "YYYY-MM-DD");
}

/** 'YYYY-MM-DD' of the last day of a period (its end is exclusive). */
export function lastDayOf(period: Period): string {
  return formatSeoul(seoulDayStart(period.end - 1), "YYYY-MM-DD");
}

/**
 * The `start`/`end` of a report request: Seoul wall time, 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm[:ss]'. A bare end
 * date includes that whole day (start=2026-01-01&end=2026-12-31 is the year); an end with a time is exclusive.
 */
export function parsePeriod(startText: string, endText: string): Period | { error: "start" | "end" | "order" } {
  const start = parseSeoul(startText);
  if (start === null) return { error: "start" };
  const endBase = parseSeoul(endText);
  if (endBase === null) return { error: "end" };
  const end = /^\d{4}-\d{2}-\d{2}$/.test(endText.trim()) ? addSeoul(endBase, 1, "day") : endBase;
  if (end <= start) return { error: "order" };
  return { start, end };
}

/** Why a period does not fit a unit, or null when it does. */
export function spanProblem(period: Period, unit: StatUnit): "period_too_long_for_unit" | null {
  return period.end - period.start > MAX_SPAN_DAYS[unit] * DAY_MS ? "period_too_long_for_unit" : null;
}

// ---- Completeness ----

const stepsIn = (a: number, b: number) => (b > a ? Math.ceil(b / STEP_MS) - Math.ceil(a / STEP_MS) : 0);

/**
 * Expected readings per step of a report: step i is [bounds[i], bounds[i+1]) clipped to [from, to), counting
 * only the time inside the (sorted, disjoint) daylight windows when they are given.
 */
export function expectedByBucket(
  bounds: readonly number[],
  from: number,
  to: number,
  daylight?: ReadonlyArray<readonly [number, number]> | null,
): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const a = Math.max(bounds[i]!, from);
    const b = Math.min(bounds[i + 1]!, to);
    if (b <= a) {
      out.push(0);
      continue;
    }
    if (!daylight) {
      out.push(stepsIn(a, b));
      continue;
    }
    while (j < daylight.length && daylight[j]![1] <= a) j++;
    let n = 0;
    for (let k = j; k < daylight.length && daylight[k]![0] < b; k++)
      n += stepsIn(Math.max(a, daylight[k]![0]), Math.min(b, daylight[k]![1]));
    out.push(n);
  }
  return out;
}

/** Share of the expected data a figure is built from, 0–100 with one decimal; null when nothing was expected. */
export function completenessPct(samples: number, expected: number): number | null {
  if (expected <= 0) return null;
  return Math.round(Math.min(1, samples / expected) * 1000) / 10;
}

/** A step is a gap when less than all its expected data arrived. */
export function isGap(samples: number, expected: number): boolean {
  return expected > 0 && samples < expected;
}

// ---- Summary figures ----

/**
 * Avoided CO₂ per kWh fed in: 0.4594 kgCO₂/kWh, the Korean national power-grid emission factor (GIR/KPX
 * figure used for domestic emission-reduction projects). A fixed constant here; a report states the factor it used.
 */
export const CO2_KG_PER_KWH = 0.4594;
/**
 * Revenue assumptions (₩): SMP (system marginal price) per kWh sold and the REC price per certificate
 * (1 REC = 1 MWh × weight; 1.0 for ground-mounted plants 100 kW–3 MW). Indicative values, stated on every
 * report beside the figure so nobody takes them for settlement prices.
 */
export const SMP_WON_PER_KWH = 130;
export const REC_WON_PER_REC = 70_000;
export const REC_WEIGHT = 1.0;

export function co2AvoidedKg(energyWh: number): number {
  return (Math.max(0, energyWh) / 1000) * CO2_KG_PER_KWH;
}

export function revenueWon(energyWh: number): { smp: number; rec: number; total: number } {
  const kwh = Math.max(0, energyWh) / 1000;
  const smp = Math.round(kwh * SMP_WON_PER_KWH);
  const rec = Math.round((kwh / 1000) * REC_WEIGHT * REC_WON_PER_REC);
  return { smp, rec, total: smp + rec };
}

/** Y_f = E / P0 in hours (SPEC "generation hours": Wh / (10 × raw capa)). */
export const finalYield = generationHours;

/** Y_r = H_POA / G_STC in hours, from plane-of-array irradiation in Wh/m². */
export function referenceYield(poaWhPerM2: number | null | undefined): number | null {
  return typeof poaWhPerM2 === "number" && Number.isFinite(poaWhPerM2) && poaWhPerM2 > 0 ? poaWhPerM2 / 1000 : null;
}

/**
 * The performance sums of report rows (one plant or the scope per step): each row a domain/performance.ts bucket,
 * so PR is computed by the diagnosis' own function — a row missing energy or irradiance (or whose irradiance
 * coverage is below IRRADIANCE_COVERAGE_MIN) is dropped from both sums.
 */
export function reportRowSums(
  rows: ReadonlyArray<{ energy_wh?: unknown; iis_wh?: unknown; iis_cov?: unknown }>,
  capaRaw: number,
): PerformanceSums {
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  return performanceSums(
    rows.map((r) => reportBucket({ capaRaw, energyWh: n(r.energy_wh), poaWhPerM2: n(r.iis_wh), coverage: n(r.iis_cov) })),
  );
}

/** PR (a fraction, 0.82) of report sums and why it is withheld, if it is (P0: raw capacity, 10 W units). */
export function reportPr(sums: PerformanceSums, capaRaw: number): { pr: number | null; withheld: WithheldReason | null } {
  const f = figuresFromSums(sums, capaRaw / 100);
  return { pr: capaRaw > 0 ? f.performanceRatio : null, withheld: f.withheld };
}

export interface ReportSummary {
  /** Raw capacity (10 W units, SPEC §9) of the devices or plants in the report. */
  capa: number;
  energy_wh: number;
  /** Generation hours = Y_f, h. */
  genHours: number;
  peak_w: number | null;
  /** Plane-of-array irradiation, Wh/m² (mean over the sensors of the scope). */
  irradiation_wh: number | null;
  /** PR over the steps with energy and irradiance (reportRowSums); null when unknown or withheld. */
  pr: number | null;
  /** Why PR is withheld ("—" with this reason), or null. */
  pr_withheld?: WithheldReason | null;
  /** Absent when the member's service bit co2Hide (7) is set. */
  co2_kg?: number;
  /** Absent when recSmpHide (8) is set. */
  revenue?: { smp: number; rec: number; total: number };
  samples: number;
  expected: number;
  completeness: number | null;
}

export function summarise(input: {
  capa: number;
  energyWh: number;
  peakW: number | null;
  irradiationWh: number | null;
  /** The report's performance sums (reportRowSums), or null for a report without PR. */
  sums: PerformanceSums | null;
  samples: number;
  expected: number;
  hideCo2: boolean;
  hideRevenue: boolean;
}): ReportSummary {
  const out: ReportSummary = {
    capa: input.capa,
    energy_wh: input.energyWh,
    genHours: finalYield(input.energyWh, input.capa),
    peak_w: input.peakW,
    irradiation_wh: input.irradiationWh,
    pr: null,
    samples: input.samples,
    expected: input.expected,
    completeness: completenessPct(input.samples, input.expected),
  };
  if (input.sums) {
    const { pr, withheld } = reportPr(input.sums, input.capa);
    out.pr = pr;
    out.pr_withheld = withheld;
  }
  if (!input.hideCo2) out.co2_kg = co2AvoidedKg(input.energyWh);
  if (!input.hideRevenue) out.revenue = revenueWon(input.energyWh);
  return out;
}

/** Irradiation as shown: kWh/m² with 2 decimals. */
export function formatIrradiation(whPerM2: number | null | undefined): string {
  return typeof whPerM2 === "number" && Number.isFinite(whPerM2) ? formatNumber(Math.max(0, whPerM2) / 1000, 2) : "–";
}

/** PR as shown: a percentage with 1 decimal. */
export function formatPr(pr: number | null | undefined): string {
  return formatPercent(pr);
}

/** Today's Seoul date as 'YYYY-MM-DD'. */
export function seoulDate(ts: number): string {
  return formatSeoul(ts, "YYYY-MM-DD");
}
