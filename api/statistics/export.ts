/**
 * Exports of a report, exactly the tables the page shows: the steps (device × time), the totals per device,
 * and the summary. Both formats stream: rows come from the store in chunks of a few devices (a bounded number
 * of rows, api/store/statistics.ts), and each row waits while the output is full, so a year of hourly rows of a
 * hundred inverters goes out with flat memory (bench/statistics.ts measures it).
 *
 * - CSV (csv-stringify): UTF-8 with a BOM so spreadsheet programs read Hangul; cells that a spreadsheet would
 *   take for a formula (=, +, -, @, tab, CR) are escaped; the steps, then the totals (time column "합계").
 * - XLSX (./xlsx-stream.ts, a streaming SpreadsheetML writer): one sheet per table, typed numbers with the
 *   unit in the column head, a frozen head row. The summary sheet comes first in the book but is written
 *   last (its figures are the totals of the rows): each sheet is one ZIP part written whole, in any order.
 */
import type { Writable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import type { Kysely } from "kysely";
import { formatSeoul } from "../../domain/seoul-time";
import { type ReportSummary, CO2_KG_PER_KWH, REC_WEIGHT, REC_WON_PER_REC, SMP_WON_PER_KWH } from "../../domain/statistics";
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
import { drained, ended, MAX_SHEET_ROWS, XlsxWriter, type XlsxCell } from "./xlsx-stream";

const TOTAL_LABEL: Record<Lang, string> = { ko: "합계", en: "Total" };

/**
 * Rows of a chunk read from the store while an export is written (a JSON report reads ~10,000 at a time). A chunk
 * lives while its rows wait for the deflater and the client, long enough for V8 to move it into the old generation,
 * where it stays as garbage until the next full collection: smaller chunks, less of it (a year of hours of 100
 * inverters, in process: peak heap ~105 MB at 10,000 or 2,000 rows a chunk, ~75 MB at 1,000; bench/README.md).
 */
export const CHUNK_ROWS = 1_000;

/** The names and capacity of a row key (one object per key, made once). */
export function rowInfos(p: PreparedReport): (key: string) => RowInfo {
  const made = new Map<string, RowInfo>();
  return (key) => {
    let info = made.get(key);
    if (!info)
      made.set(
        key,
        (info = { unit: p.ctx.unit, name: p.names[key] ?? key, plantName: p.plantNames[key] ?? "", capa: p.capas[key] ?? null }),
      );
    return info;
  };
}

/** Writes the CSV of a report to `out` and ends it. */
export async function writeCsv(db: Kysely<Database>, p: PreparedReport, lang: Lang, out: Writable): Promise<void> {
  const columns = REPORT_COLUMNS[p.report];
  // csv-stringify's synchronous form, a chunk of rows at a time: its stream form costs a Transform write per record.
  const options = { escape_formulas: true, record_delimiter: "\r\n" } as const;
  const send = async (records: unknown[][]) => {
    if (!out.write(stringify(records, options))) await drained(out);
  };
  if (!out.write("\ufeff")) await drained(out);
  await send([columns.map((c) => columnHead(c, lang))]);
  const totals = newTotals(p);
  const info = rowInfos(p);
  for await (const chunk of reportChunks(db, p, "plant", CHUNK_ROWS)) {
    totals.add(chunk);
    const records: unknown[][] = [];
    for (const row of chunk) {
      const i = info(row.device_uid);
      records.push(columns.map((c) => exportCell(c, row, i) ?? ""));
    }
    await send(records);
  }
  await send(
    totals.list().map((t) => {
      const i = info(t.device_uid);
      return columns.map((c) =>
        c.key === "ts" ? TOTAL_LABEL[lang] : (exportCell(c, t as unknown as Record<string, unknown>, i) ?? ""),
      );
    }),
  );
  await ended(out);
}

/** The summary as label/value/unit lines (shared by the XLSX sheet and the mail text). */
export function summaryLines(
  p: PreparedReport,
  s: ReportSummary,
  lang: Lang,
  by: string,
  at: number,
): Array<[string, string | number | null, string]> {
  const ko = lang === "ko";
  const lines: Array<[string, string | number | null, string]> = [
    [ko ? "보고서" : "Report", REPORT_TITLES[p.report][lang], ""],
    [ko ? "범위" : "Scope", p.resolved.scope.name, ""],
    [
      ko ? "기간" : "Period",
      `${formatSeoul(p.ctx.period.start, "YYYY-MM-DD HH:mm")} – ${formatSeoul(p.ctx.period.end, "YYYY-MM-DD HH:mm")}`,
      "",
    ],
    [ko ? "단위" : "Unit", p.ctx.unit, ""],
    [ko ? "작성" : "Generated", `${formatSeoul(at, "YYYY-MM-DD HH:mm")} · ${by}`, ""],
    [ko ? "설비용량" : "Capacity", round(s.capa / 100, 2), "kW"],
  ];
  if (p.report !== "env") {
    lines.push([ko ? "발전량" : "Generation", round(s.energy_wh / 1000, 2), "kWh"]);
    if (p.report === "integrated" || p.report === "inverter")
      lines.push([ko ? "발전시간" : "Generation hours", round(s.genHours, 2), "h"]);
    lines.push([ko ? "최대출력" : "Peak power", s.peak_w === null ? null : round(s.peak_w / 1000, 2), "kW"]);
  }
  if (p.report !== "vcb" && p.report !== "acb") {
    lines.push([
      ko ? "경사면 일사량" : "POA irradiation",
      s.irradiation_wh === null ? null : round(s.irradiation_wh / 1000, 2),
      "kWh/m²",
    ]);
  }
  if (p.report === "integrated" || p.report === "inverter") lines.push(["PR", s.pr === null ? null : round(s.pr * 100, 1), "%"]);
  if (s.co2_kg !== undefined)
    lines.push([ko ? `CO₂ 저감 (${CO2_KG_PER_KWH} kg/kWh)` : `CO₂ avoided (${CO2_KG_PER_KWH} kg/kWh)`, round(s.co2_kg, 1), "kg"]);
  if (s.revenue) {
    lines.push([ko ? `SMP 수익 (${SMP_WON_PER_KWH} ₩/kWh)` : `SMP revenue (${SMP_WON_PER_KWH} ₩/kWh)`, s.revenue.smp, "₩"]);
    lines.push([
      ko ? `REC 수익 (${REC_WON_PER_REC} ₩/REC, ×${REC_WEIGHT})` : `REC revenue (${REC_WON_PER_REC} ₩/REC, ×${REC_WEIGHT})`,
      s.revenue.rec,
      "₩",
    ]);
  }
  lines.push([ko ? "데이터 완전성" : "Data completeness", s.completeness, "%"]);
  return lines;
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

/** Writes the XLSX of a report to `out` and ends it. */
export async function writeXlsx(
  db: Kysely<Database>,
  p: PreparedReport,
  lang: Lang,
  out: Writable,
  by: string,
  at: number,
): Promise<void> {
  const names = SHEET_NAMES[lang];
  const book = new XlsxWriter(out, { creator: by, created: new Date(at) });
  const info = rowInfos(p);
  // The steps first (streamed as the store yields them), then the totals, then the summary (the totals' sums);
  // the book lists them summary, totals, steps.
  const columns = REPORT_COLUMNS[p.report];
  const heads = columns.map((c) => ({
    head: columnHead(c, lang),
    width: c.key === "ts" ? 18 : c.unit === undefined ? 22 : 14,
    decimals: c.unit !== undefined ? (c.decimals ?? 0) : undefined,
  }));
  let part = 1;
  let rows = await book.sheet(names.rows, 3, heads);
  const totals = newTotals(p);
  const cells: XlsxCell[] = new Array(columns.length);
  for await (const chunk of reportChunks(db, p, "plant", CHUNK_ROWS)) {
    totals.add(chunk);
    for (const row of chunk) {
      if (rows.rows >= MAX_SHEET_ROWS) {
        await rows.end();
        rows = await book.sheet(`${names.rows} (${++part})`, 3 + part / 1000, heads);
      }
      const i = info(row.device_uid);
      for (let k = 0; k < columns.length; k++) cells[k] = exportCell(columns[k]!, row, i);
      const wait = rows.add(cells);
      if (wait) await wait;
    }
  }
  await rows.end();

  const tcols = totalColumns(p.report);
  const totalsSheet = await book.sheet(
    names.totals,
    2,
    tcols.map((c) => ({
      head: columnHead(c, lang),
      width: c.unit === undefined ? 22 : 14,
      decimals: c.unit !== undefined ? (c.decimals ?? 0) : undefined,
    })),
  );
  for (const t of totals.list()) {
    const wait = totalsSheet.add(tcols.map((c) => exportCell(c, t as unknown as Record<string, unknown>, info(t.device_uid))));
    if (wait) await wait;
  }
  await totalsSheet.end();

  const summary = await summaryOf(db, p, totals);
  const summarySheet = await book.sheet(names.summary, 1, [
    { head: lang === "ko" ? "항목" : "Item", width: 36 },
    { head: lang === "ko" ? "값" : "Value", width: 30 },
    { head: lang === "ko" ? "단위" : "Unit", width: 10 },
  ]);
  for (const line of summaryLines(p, summary, lang, by, at)) await summarySheet.add(line);
  await summarySheet.end();
  await book.finish();
}

export function exportFileName(p: PreparedReport, format: "csv" | "xlsx"): string {
  const day = formatSeoul(p.ctx.period.start, "YYYY-MM-DD");
  return `statistics-${p.report}-${p.ctx.unit}-${day}.${format}`;
}
