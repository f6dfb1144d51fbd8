/**
 * The columns of each statistics report's tables, in one place for the page, the CSV and the XLSX: what a
 * column shows, its unit, and how a cell is read from a row. The page formats energy per SPEC §9 (kWh, MWh,
 * GWh, below 50 Wh 0.00); exports write typed numbers in the unit of the column head.
 */
import { PDF_DETAILS, type PdfDetail, type ReportKind, type RowTotal } from "./contract/statistics";
import type { WithheldReason } from "./performance";
import {
  bucketLabel,
  completenessPct,
  finalYield,
  formatIrradiation,
  formatPr,
  isGap,
  reportPr,
  reportRowSums,
  type ReportSummary,
  type StatUnit,
} from "./statistics";
import { formatCapacityTotal, formatCo2, formatEnergy, formatNumber, formatPower, NO_VALUE } from "./units";

export type Lang = "ko" | "en";

export interface Column {
  key: string;
  ko: string;
  en: string;
  /** The unit of the number as exported (and of the head); absent for text. */
  unit?: string;
  /** Base value: text, or a number in base units (W, Wh, Wh/m², raw capa). */
  get(row: Record<string, unknown>, info: RowInfo): string | number | null;
  /** Base value × scale = value in `unit`. */
  scale?: number;
  decimals?: number;
  /** Energy in Wh: shown with the SPEC §9 thresholds on the page. */
  energy?: boolean;
  /** Why the cell is withheld ("—" with this reason on the page, a footnote in the PDF), or null. */
  withheld?(row: Record<string, unknown>, info: RowInfo): WithheldReason | null;
}

export interface RowInfo {
  unit: StatUnit;
  name: string;
  plantName: string;
  /** Raw capacity of the row key (10 W units), or null. */
  capa: number | null;
}

const n = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const completeness = (r: Record<string, unknown>) => completenessPct(Number(r.samples ?? 0), Number(r.expected ?? 0));

const TIME: Column = { key: "ts", ko: "시간", en: "Time", get: (r, i) => bucketLabel(Number(r.ts), i.unit) };
const PLANT: Column = { key: "plant", ko: "발전소", en: "Plant", get: (_r, i) => i.plantName };
const CAPA: Column = {
  key: "capa",
  ko: "설비용량",
  en: "Capacity",
  unit: "kW",
  get: (_r, i) => i.capa,
  scale: 0.01,
  decimals: 2,
};
const ENERGY: Column = {
  key: "energy_wh",
  ko: "발전량",
  en: "Generation",
  unit: "kWh",
  get: (r) => n(r.energy_wh),
  scale: 0.001,
  decimals: 2,
  energy: true,
};
const HOURS: Column = {
  key: "genHours",
  ko: "발전시간",
  en: "Generation hours",
  unit: "h",
  decimals: 2,
  get: (r, i) => (i.capa && n(r.energy_wh) !== null ? finalYield(n(r.energy_wh)!, i.capa) : null),
};
const PEAK: Column = {
  key: "max_w",
  ko: "최대출력",
  en: "Peak power",
  unit: "kW",
  get: (r) => n(r.max_w),
  scale: 0.001,
  decimals: 2,
};
const IRR: Column = {
  key: "iis_wh",
  ko: "경사면 일사량",
  en: "POA irradiation",
  unit: "kWh/m²",
  get: (r) => n(r.iis_wh),
  scale: 0.001,
  decimals: 2,
};
const PR: Column = {
  key: "pr",
  ko: "PR",
  en: "PR",
  unit: "%",
  decimals: 1,
  scale: 100,
  get: (r, i) => rowPr(r, i).pr,
  withheld: (r, i) => rowPr(r, i).withheld,
};

/** PR of a row (a step, or a totals row carrying its own): domain/statistics.ts reportPr, the diagnosis' rule. */
function rowPr(r: Record<string, unknown>, i: RowInfo): { pr: number | null; withheld: WithheldReason | null } {
  if ("pr" in r) return { pr: n(r.pr), withheld: (r.pr_withheld as WithheldReason | null | undefined) ?? null };
  if (!i.capa) return { pr: null, withheld: null };
  return reportPr(reportRowSums([r], i.capa), i.capa);
}
const DATA: Column = { key: "completeness", ko: "데이터", en: "Data", unit: "%", decimals: 1, get: (r) => completeness(r) };

const nameCol = (ko: string, en: string): Column => ({ key: "name", ko, en, get: (_r, i) => i.name });

export const REPORT_COLUMNS: Record<ReportKind, Column[]> = {
  integrated: [TIME, PLANT, CAPA, ENERGY, HOURS, PEAK, IRR, PR, DATA],
  inverter: [TIME, PLANT, nameCol("인버터", "Inverter"), CAPA, ENERGY, HOURS, PEAK, DATA],
  env: [
    TIME,
    PLANT,
    nameCol("센서", "Sensor"),
    IRR,
    {
      key: "his_wh",
      ko: "수평면 일사량",
      en: "Horizontal irradiation",
      unit: "kWh/m²",
      get: (r) => n(r.his_wh),
      scale: 0.001,
      decimals: 2,
    },
    { key: "avg_sts", ko: "모듈 온도", en: "Module temperature", unit: "°C", get: (r) => n(r.avg_sts), decimals: 1 },
    { key: "avg_ats", ko: "외기 온도", en: "Ambient temperature", unit: "°C", get: (r) => n(r.avg_ats), decimals: 1 },
    DATA,
  ],
  vcb: breakerColumns("VCB"),
  acb: breakerColumns("ACB"),
};

function breakerColumns(label: string): Column[] {
  return [
    TIME,
    PLANT,
    nameCol(label, label),
    { key: "avg_v", ko: "전압", en: "Voltage", unit: "V", get: (r) => n(r.avg_v), decimals: 1 },
    { key: "avg_a", ko: "전류", en: "Current", unit: "A", get: (r) => n(r.avg_a), decimals: 1 },
    { key: "avg_w", ko: "평균 전력", en: "Mean power", unit: "kW", get: (r) => n(r.avg_w), scale: 0.001, decimals: 2 },
    PEAK,
    { ...ENERGY, ko: "전력량", en: "Energy" },
    { key: "avg_pf", ko: "역률", en: "Power factor", get: (r) => n(r.avg_pf), decimals: 3, unit: "" },
    { key: "operations", ko: "개폐 횟수", en: "Operations", get: (r) => n(r.operations), decimals: 0, unit: "" },
    { key: "max_gf_ma", ko: "지락 전류", en: "Ground-fault current", unit: "mA", get: (r) => n(r.max_gf_ma), decimals: 1 },
    DATA,
  ];
}

/** Columns of the per-key totals table: the row columns without the time. */
export function totalColumns(report: ReportKind): Column[] {
  return REPORT_COLUMNS[report].filter((c) => c.key !== "ts");
}

/** The head of a column in a language, with its unit: "발전량 (kWh)". */
export function columnHead(c: Column, lang: Lang): string {
  return c.unit ? `${c[lang]} (${c.unit})` : c[lang];
}

/** A cell as an export writes it: text, or a number in the column's unit (rounded to its decimals), or null. */
export function exportCell(c: Column, row: Record<string, unknown>, info: RowInfo): string | number | null {
  const v = c.get(row, info);
  if (v === null || typeof v === "string") return v;
  const scaled = v * (c.scale ?? 1);
  const f = 10 ** (c.decimals ?? 3);
  return Math.round(scaled * f) / f;
}

/** A totals row as a row of the table (its sums, and the completeness of the whole period). */
export function totalAsRow(t: RowTotal): Record<string, unknown> {
  return { ...t };
}

export const SHEET_NAMES: Record<Lang, { summary: string; totals: string; rows: string }> = {
  ko: { summary: "요약", totals: "합계", rows: "시간별" },
  en: { summary: "Summary", totals: "Totals", rows: "Steps" },
};

export const REPORT_TITLES: Record<ReportKind, Record<Lang, string>> = {
  integrated: { ko: "통합 보고서", en: "Integrated report" },
  inverter: { ko: "인버터 이력 보고서", en: "Inverter history report" },
  env: { ko: "환경 센서 보고서", en: "Environment sensor report" },
  vcb: { ko: "VCB 보고서", en: "VCB report" },
  acb: { ko: "ACB 보고서", en: "ACB report" },
};

/** What a withheld figure shows (its reason in a title on the page, a footnote in the PDF). */
export const WITHHELD = "—";

/** A row as the page and the PDF show it: its cells as text, whether it has a gap, which cells are withheld. */
export interface ShownRow {
  gap: boolean;
  cells: string[];
  withheld?: number[];
}

/** A cell as the page and the PDF show it: energy with the SPEC §9 thresholds, other numbers in the column's unit. */
export function displayCell(c: Column, row: Record<string, unknown>, info: RowInfo): string {
  const v = c.get(row, info);
  if (v === null) return NO_VALUE;
  if (typeof v === "string") return v;
  if (c.energy) {
    const q = formatEnergy(v);
    return `${q.value} ${q.unit}`;
  }
  return formatNumber(v * (c.scale ?? 1), c.decimals ?? 2);
}

/** A row of a table as shown (a withheld figure: "—"). */
export function shownRow(
  columns: Column[],
  row: Record<string, unknown> & { samples: number; expected: number },
  info: RowInfo,
): ShownRow {
  const withheld: number[] = [];
  const cells = columns.map((c, j) => {
    if (!c.withheld?.(row, info)) return displayCell(c, row, info);
    withheld.push(j);
    return WITHHELD;
  });
  return { gap: isGap(row.samples, row.expected), cells, ...(withheld.length ? { withheld } : {}) };
}

/** The head of a column on the page and in the PDF: energy's unit is in each cell (kWh, MWh, GWh), not the head. */
export function pageHead(c: Column, lang: Lang): string {
  return c.unit && !c.energy ? `${c[lang]} (${c.unit})` : c[lang];
}

/** The PDF's head of a column in two lines: the name, then the unit in brackets (so a unit never wraps). */
export function pdfHead(c: Column, lang: Lang): [string, string] {
  return [c[lang], c.unit && !c.energy ? `(${c.unit})` : ""];
}

export { PDF_DETAILS, type PdfDetail };

/** The step of the PDF's step table at a detail; the summary keeps the screen's unit (its totals do not depend on it). */
export function detailUnit(detail: PdfDetail, screenUnit: StatUnit): StatUnit {
  return detail === "day" ? "day" : detail === "hour" ? "60" : screenUnit;
}

/** The detail a screen's unit suggests: its own rows when it shows days or hours, hours below, days above. */
export function detailOfUnit(unit: StatUnit): PdfDetail {
  return unit === "day" || unit === "month" ? "day" : "hour";
}

/** The PDF's own words (the page's are in app/i18n; the API writes the PDF, as it writes the XLSX's). */
export const PDF_TEXTS: Record<
  Lang,
  {
    summary: string;
    totals: string;
    steps: Record<PdfDetail, string>;
    rows: (n: string) => string;
    item: string;
    value: string;
    /** The period, and the unit of the steps (none: summary only). */
    period: (start: string, end: string, unit: string | null) => string;
    units: Record<StatUnit, string>;
    generated: (at: string, by: string) => string;
    page: (n: number, of: number) => string;
    gapNote: string;
    withheld: (pct: number) => string;
    facts: {
      capacity: string;
      generation: string;
      energy: string;
      genHours: string;
      peak: string;
      irradiation: string;
      pr: string;
      co2: string;
      revenue: string;
      completeness: string;
      hours: string;
      won: string;
      tonnes: string;
    };
  }
> = {
  ko: {
    summary: "요약",
    totals: "장치별 합계",
    steps: { summary: "", day: "일별 자료", hour: "시간별 자료" },
    rows: (n) => `전체 ${n}행`,
    item: "항목",
    value: "값",
    period: (start, end, unit) => `${start} ~ ${end}${unit ? ` · 단위 ${unit}` : " · 요약"}`,
    units: { "10": "10분", "30": "30분", "60": "1시간", day: "일", month: "월" },
    generated: (at, by) => `작성 ${at} · ${by}`,
    page: (n, of) => `${n} / ${of}쪽`,
    gapNote: "▲ 결측: 기대한 10분 자료가 빠진 행입니다.",
    withheld: (pct) => `* —: 일사량이 측정된 발전 구간이 ${pct}% 미만이라(일사 센서 통신 장애 등) PR을 계산하지 않았습니다.`,
    facts: {
      capacity: "설비용량",
      generation: "발전량",
      energy: "전력량",
      genHours: "발전시간",
      peak: "최대출력",
      irradiation: "경사면 일사량",
      pr: "PR",
      co2: "CO₂ 저감",
      revenue: "REC·SMP 수익",
      completeness: "데이터 완전성",
      hours: "시간",
      won: "원",
      tonnes: "톤",
    },
  },
  en: {
    summary: "Summary",
    totals: "Totals per device",
    steps: { summary: "", day: "Daily steps", hour: "Hourly steps" },
    rows: (n) => `${n} rows`,
    item: "Item",
    value: "Value",
    period: (start, end, unit) => `${start} – ${end}${unit ? ` · unit ${unit}` : " · summary"}`,
    units: { "10": "10 min", "30": "30 min", "60": "1 hour", day: "Day", month: "Month" },
    generated: (at, by) => `Generated ${at} · ${by}`,
    page: (n, of) => `Page ${n} / ${of}`,
    gapNote: "▲ gap: rows missing some of the expected 10-minute data.",
    withheld: (pct) =>
      `* —: irradiance was measured for less than ${pct}% of the generation (an irradiance sensor's communication fault, say), so no PR is given.`,
    facts: {
      capacity: "Capacity",
      generation: "Generation",
      energy: "Energy",
      genHours: "Generation hours",
      peak: "Peak power",
      irradiation: "POA irradiation",
      pr: "PR",
      co2: "CO₂ avoided",
      revenue: "REC/SMP revenue",
      completeness: "Data completeness",
      hours: "h",
      won: "₩",
      tonnes: "t",
    },
  },
};

/** The summary's figures as the page shows them (label, value), with the one formatter (domain/units.ts). */
export function summaryFacts(s: ReportSummary, report: ReportKind, lang: Lang): Array<[string, string]> {
  const f = PDF_TEXTS[lang].facts;
  const gen = report === "integrated" || report === "inverter";
  const capa = formatCapacityTotal(s.capa);
  const out: Array<[string, string]> = [[f.capacity, `${capa.value} ${capa.unit}`]];
  if (report !== "env") {
    const energy = formatEnergy(s.energy_wh);
    out.push([gen ? f.generation : f.energy, `${energy.value} ${energy.unit}`]);
    if (gen) out.push([f.genHours, `${formatNumber(s.genHours, 2)} ${f.hours}`]);
    const peak = formatPower(s.peak_w ?? 0);
    out.push([f.peak, s.peak_w === null ? NO_VALUE : `${peak.value} ${peak.unit}`]);
  }
  if (report !== "vcb" && report !== "acb") out.push([f.irradiation, `${formatIrradiation(s.irradiation_wh)} kWh/m²`]);
  if (gen) out.push([f.pr, s.pr_withheld ? `${WITHHELD}*` : `${formatPr(s.pr)} %`]);
  if (s.co2_kg !== undefined) {
    const co2 = formatCo2(s.co2_kg);
    out.push([f.co2, `${co2.value} ${co2.unit === "t" ? f.tonnes : co2.unit}`]);
  }
  if (s.revenue) out.push([f.revenue, `${formatNumber(s.revenue.total, 0)} ${f.won}`]);
  out.push([f.completeness, s.completeness === null ? NO_VALUE : `${formatNumber(s.completeness, 1)} %`]);
  return out;
}
