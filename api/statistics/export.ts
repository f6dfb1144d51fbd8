/**
 * Exports of a report, exactly the tables the page shows: the steps (device × time), the totals per device,
 * and the summary. Both formats stream: rows are written chunk by chunk of devices as the store yields them.
 *
 * - CSV (csv-stringify): UTF-8 with a BOM so spreadsheet programs read Hangul; cells that a spreadsheet would
 *   take for a formula (=, +, -, @, tab, CR) are escaped; the steps, then the totals (time column "합계").
 * - XLSX (exceljs streaming writer): one sheet per table, typed numbers with the unit in the column head,
 *   a frozen head row. The summary sheet comes first in the book but is written last (its figures are the
 *   totals of the rows): exceljs opens a sheet's part only when it is first written, so nothing is buffered.
 */
import type { Writable } from "node:stream";
import { stringify } from "csv-stringify";
import ExcelJS from "exceljs";
import type { Kysely } from "kysely";
import { formatSeoul } from "../../domain/seoul-time";
import {
  type ReportSummary,
  CO2_KG_PER_KWH,
  REC_WEIGHT,
  REC_WON_PER_REC,
  SMP_WON_PER_KWH,
} from "../../domain/statistics";
import {
  columnHead,
  exportCell,
  REPORT_COLUMNS,
  REPORT_TITLES,
  SHEET_NAMES,
  totalColumns,
  type Lang,
  type RowInfo,
} from "../../domain/statistics-table";
import type { Database } from "../store/schema";
import { newTotals, reportChunks, summaryOf, type PreparedReport } from "./report";

const TOTAL_LABEL: Record<Lang, string> = { ko: "합계", en: "Total" };

function infoOf(p: PreparedReport, key: string): Omit<RowInfo, "unit"> {
  return { name: p.names[key] ?? key, plantName: p.plantNames[key] ?? "", capa: p.capas[key] ?? null };
}

/** Writes the CSV of a report to `out` and ends it. */
export async function writeCsv(db: Kysely<Database>, p: PreparedReport, lang: Lang, out: Writable): Promise<void> {
  const columns = REPORT_COLUMNS[p.report];
  const csv = stringify({ bom: true, escape_formulas: true, record_delimiter: "\r\n" });
  csv.pipe(out);
  const write = async (record: unknown[]) => {
    if (!csv.write(record)) await new Promise((r) => csv.once("drain", r));
  };
  await write(columns.map((c) => columnHead(c, lang)));
  const totals = newTotals(p);
  for await (const chunk of reportChunks(db, p)) {
    totals.add(chunk);
    for (const row of chunk) {
      const info = { unit: p.ctx.unit, ...infoOf(p, row.device_uid) };
      await write(columns.map((c) => exportCell(c, row, info) ?? ""));
    }
  }
  for (const t of totals.list()) {
    const info = { unit: p.ctx.unit, ...infoOf(p, t.device_uid) };
    await write(columns.map((c) => (c.key === "ts" ? TOTAL_LABEL[lang] : exportCell(c, t as unknown as Record<string, unknown>, info) ?? "")));
  }
  await new Promise<void>((resolve, reject) => {
    out.once("finish", resolve);
    out.once("error", reject);
    csv.end();
  });
}

/** The summary as label/value/unit lines (shared by the XLSX sheet and the mail text). */
export function summaryLines(p: PreparedReport, s: ReportSummary, lang: Lang, by: string, at: number): Array<[string, string | number | null, string]> {
  const ko = lang === "ko";
  const lines: Array<[string, string | number | null, string]> = [
    [ko ? "보고서" : "Report", REPORT_TITLES[p.report][lang], ""],
    [ko ? "범위" : "Scope", p.resolved.scope.name, ""],
    [ko ? "기간" : "Period", `${formatSeoul(p.ctx.period.start, "YYYY-MM-DD HH:mm")} – ${formatSeoul(p.ctx.period.end, "YYYY-MM-DD HH:mm")}`, ""],
    [ko ? "단위" : "Unit", p.ctx.unit, ""],
    [ko ? "작성" : "Generated", `${formatSeoul(at, "YYYY-MM-DD HH:mm")} · ${by}`, ""],
    [ko ? "설비용량" : "Capacity", round(s.capa / 100, 2), "kW"],
  ];
  if (p.report !== "env") {
    lines.push([ko ? "발전량" : "Generation", round(s.energy_wh / 1000, 2), "kWh"]);
    if (p.report === "integrated" || p.report === "inverter") lines.push([ko ? "발전시간" : "Generation hours", round(s.genHours, 2), "h"]);
    lines.push([ko ? "최대출력" : "Peak power", s.peak_w === null ? null : round(s.peak_w / 1000, 2), "kW"]);
  }
  if (p.report !== "vcb" && p.report !== "acb") {
    lines.push([ko ? "경사면 일사량" : "POA irradiation", s.irradiation_wh === null ? null : round(s.irradiation_wh / 1000, 2), "kWh/m²"]);
  }
  if (p.report === "integrated" || p.report === "inverter") lines.push(["PR", s.pr === null ? null : round(s.pr * 100, 1), "%"]);
  if (s.co2_kg !== undefined) lines.push([ko ? `CO₂ 저감 (${CO2_KG_PER_KWH} kg/kWh)` : `CO₂ avoided (${CO2_KG_PER_KWH} kg/kWh)`, round(s.co2_kg, 1), "kg"]);
  if (s.revenue) {
    lines.push([ko ? `SMP 수익 (${SMP_WON_PER_KWH} ₩/kWh)` : `SMP revenue (${SMP_WON_PER_KWH} ₩/kWh)`, s.revenue.smp, "₩"]);
    lines.push([ko ? `REC 수익 (${REC_WON_PER_REC} ₩/REC, ×${REC_WEIGHT})` : `REC revenue (${REC_WON_PER_REC} ₩/REC, ×${REC_WEIGHT})`, s.revenue.rec, "₩"]);
  }
  lines.push([ko ? "데이터 완전성" : "Data completeness", s.completeness, "%"]);
  return lines;
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

function numFmt(decimals: number | undefined): string {
  return decimals ? `#,##0.${"0".repeat(decimals)}` : "#,##0";
}

/** Writes the XLSX of a report to `out` (the workbook writer ends it). */
export async function writeXlsx(db: Kysely<Database>, p: PreparedReport, lang: Lang, out: Writable, by: string, at: number): Promise<void> {
  const names = SHEET_NAMES[lang];
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  book.creator = by;
  book.created = new Date(at);
  const frozen: Partial<ExcelJS.WorksheetView>[] = [{ state: "frozen", ySplit: 1 }];
  const summarySheet = book.addWorksheet(names.summary, { views: frozen });
  const totalsSheet = book.addWorksheet(names.totals, { views: frozen });
  const rowsSheet = book.addWorksheet(names.rows, { views: frozen });

  const columns = REPORT_COLUMNS[p.report];
  rowsSheet.columns = columns.map((c) => ({ header: columnHead(c, lang), key: c.key, width: c.key === "ts" ? 18 : c.unit === undefined ? 22 : 14, style: c.unit !== undefined ? { numFmt: numFmt(c.decimals) } : {} }));
  rowsSheet.getRow(1).font = { bold: true };
  const totals = newTotals(p);
  for await (const chunk of reportChunks(db, p)) {
    totals.add(chunk);
    for (const row of chunk) {
      const info = { unit: p.ctx.unit, ...infoOf(p, row.device_uid) };
      rowsSheet.addRow(columns.map((c) => exportCell(c, row, info))).commit();
    }
  }
  rowsSheet.commit();

  const tcols = totalColumns(p.report);
  totalsSheet.columns = tcols.map((c) => ({ header: columnHead(c, lang), key: c.key, width: c.unit === undefined ? 22 : 14, style: c.unit !== undefined ? { numFmt: numFmt(c.decimals) } : {} }));
  totalsSheet.getRow(1).font = { bold: true };
  for (const t of totals.list()) {
    const info = { unit: p.ctx.unit, ...infoOf(p, t.device_uid) };
    totalsSheet.addRow(tcols.map((c) => exportCell(c, t as unknown as Record<string, unknown>, info))).commit();
  }
  totalsSheet.commit();

  const summary = await summaryOf(db, p, totals);
  summarySheet.columns = [
    { header: lang === "ko" ? "항목" : "Item", width: 36 },
    { header: lang === "ko" ? "값" : "Value", width: 30 },
    { header: lang === "ko" ? "단위" : "Unit", width: 10 },
  ];
  summarySheet.getRow(1).font = { bold: true };
  for (const line of summaryLines(p, summary, lang, by, at)) summarySheet.addRow(line).commit();
  summarySheet.commit();
  await book.commit();
}

export function exportFileName(p: PreparedReport, format: "csv" | "xlsx"): string {
  const day = formatSeoul(p.ctx.period.start, "YYYY-MM-DD");
  return `statistics-${p.report}-${p.ctx.unit}-${day}.${format}`;
}
