/**
 * The PDF of a report (issue 26): the summary, the totals per device and — at the detail the member chose —
 * every step by day or by hour, the same rows and the same formatted cells as the page (domain/statistics-table.ts
 * shownRow, domain/units.ts). Complete: no row cap.
 *
 * Two passes over the rows, both streamed from the store a chunk at a time (as the CSV and XLSX are):
 *   1. the totals, the summary, the number of rows and the widest text of each column;
 *   2. the pages: columns as wide as their widest cell, portrait or landscape (domain/report-pdf-layout.ts), the
 *      head row repeated on each page, "n / N쪽" on each (N from a dry run of the same page flow over the counts).
 * The document is PDFKit's (pdfkit: the file structure, the embedded TrueType font subset with its ToUnicode map,
 * the text and graphics operators); pages are not buffered (bufferPages false), so each page goes out when the
 * next begins and memory holds one page and one chunk of rows whatever the length. What PDFKit writes is passed
 * on to `out` as it comes; at each page break the writer waits for `out` to drain and lets the event loop have
 * its turn (setImmediate), as it does between chunks in pass 1, so a long report never holds the server for
 * more than one chunk's or one page's work (bench/report-pdf.ts).
 * Coordinates: the layout (domain/report-pdf-layout.ts) is in PDF space (y up from the page's foot, a text's y its
 * baseline); PDFKit's y runs down from the top, so every y is turned over here (Ink).
 * Rows that arrive between the passes (a report reaching the present) are left for the next report: the second
 * pass writes at most the first pass's count.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import type { Kysely } from "kysely";
import PDFDocument from "pdfkit";
import { IRRADIANCE_COVERAGE_MIN } from "../../domain/performance";
import {
  CELL_PAD,
  columnWidths,
  countPages,
  fitDocument,
  headHeight,
  MARGIN,
  PageFlow,
  pageBox,
  rowHeight,
} from "../../domain/report-pdf-layout";
import { formatSeoul } from "../../domain/seoul-time";
import {
  PDF_TEXTS,
  pdfHead,
  REPORT_COLUMNS,
  REPORT_TITLES,
  shownRow,
  summaryFacts,
  totalColumns,
  type Lang,
  type PdfDetail,
  type ShownRow,
} from "../../domain/statistics-table";
import { formatNumber } from "../../domain/units";
import type { Database } from "../store/schema";
import { CHUNK_ROWS, rowInfos } from "./export";
import { drained } from "./xlsx-stream";
import { newTotals, reportChunks, summaryOf, type PreparedReport } from "./report";

export interface PdfOptions {
  lang: Lang;
  detail: PdfDetail;
  by: string;
  at: number;
  /** The TrueType font file (pdfFontPath). */
  fontPath: string;
}

const FONT_CANDIDATES = [
  "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
  "/usr/share/fonts/truetype/nanum/NanumBarunGothic.ttf",
  "/usr/share/fonts/truetype/nanum/NanumSquareR.ttf",
];

/**
 * The font file the PDF report uses, or null when there is none (the API then answers 404 no_font): Hangul
 * needs a font of its own, embedded (PDFKit embeds the subset of glyphs a document used). `PDF_FONT` names a
 * TrueType font file; without it Debian's NanumGothic (package fonts-nanum, which `.ci/run` installs for the
 * screenshots anyway).
 */
export function pdfFontPath(): string | null {
  const configured = process.env.PDF_FONT;
  if (configured) return existsSync(configured) ? configured : null;
  return FONT_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

const fontFiles = new Map<string, Promise<Buffer>>();
/** The font file's bytes, read once per process (PDFKit parses them for each document). */
function reportFontFile(path: string): Promise<Buffer> {
  let file = fontFiles.get(path);
  if (!file) {
    file = readFile(path);
    file.catch(() => fontFiles.delete(path));
    fontFiles.set(path, file);
  }
  return file;
}

/** Lets the event loop run (timers, I/O, other requests) before the next slice of work. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const FOOTNOTE_LINE = 11;
const FOOTNOTE_SIZE = 7;

/** Width of a line of text at size 1, in the document's font (PDFKit's measure). */
type Measure = (s: string) => number;

/** A table's heads, which columns are numbers, and the widest text of each column at size 1. */
class TableShape {
  readonly natural: number[];
  constructor(
    readonly heads: Array<[string, string]>,
    readonly num: boolean[],
    private readonly width: Measure,
  ) {
    this.natural = heads.map(([a, b]) => Math.max(width(a), width(b)));
  }
  measure(cells: string[]): void {
    for (let i = 0; i < cells.length; i++) {
      const w = this.width(cells[i]!);
      if (w > this.natural[i]!) this.natural[i] = w;
    }
  }
}

/** A row's cells as printed: a withheld figure "—*", a row with a gap "▲" after its last cell. */
function printedCells(r: ShownRow): string[] {
  const cells = r.withheld ? r.cells.map((c, j) => (r.withheld!.includes(j) ? `${c}*` : c)) : r.cells;
  if (!r.gap) return cells;
  const out = [...cells];
  out[out.length - 1] = `${out[out.length - 1]} ▲`;
  return out;
}

/** A gray (0 black … 1 white) as PDFKit takes a colour. */
const gray = (g: number) => {
  const v = Math.round(g * 255);
  return [v, v, v] as [number, number, number];
};

/** Drawing on the current page in the layout's coordinates (PDF space: y up, a text's y its baseline). */
class Ink {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly height: number,
  ) {}
  text(x: number, y: number, s: string, size: number, align: "left" | "right" = "left", shade = 0): void {
    if (!s) return;
    const doc = this.doc.fontSize(size);
    const at = align === "right" ? x - doc.widthOfString(s) : x;
    doc.fillColor(gray(shade)).text(s, at, this.height - y, { lineBreak: false, baseline: "alphabetic" });
  }
  rect(x: number, y: number, w: number, h: number, shade: number): void {
    this.doc.rect(x, this.height - y - h, w, h).fill(gray(shade));
  }
  rule(x1: number, y: number, x2: number, width = 0.5, shade = 0.5): void {
    this.doc
      .moveTo(x1, this.height - y)
      .lineTo(x2, this.height - y)
      .lineWidth(width)
      .stroke(gray(shade));
  }
}

export async function writePdf(db: Kysely<Database>, p: PreparedReport, o: PdfOptions, out: Writable): Promise<void> {
  const { lang } = o;
  const T = PDF_TEXTS[lang];
  // The document exists from the start (its font measures pass 1's text); nothing of it reaches `out` before
  // pass 2: PDFKit's output waits in the document's own stream until it is read.
  const doc = new PDFDocument({ autoFirstPage: false, bufferPages: false, margin: 0, compress: true });
  doc.font(await reportFontFile(o.fontPath));
  const width: Measure = (s) => doc.fontSize(1).widthOfString(s);
  const columns = REPORT_COLUMNS[p.report];
  const tcols = totalColumns(p.report);
  const info = rowInfos(p);
  const withSteps = o.detail !== "summary";
  const numeric = (cols: typeof columns) => cols.map((c) => c.unit !== undefined);
  const steps = new TableShape(
    columns.map((c) => pdfHead(c, lang)),
    numeric(columns),
    width,
  );
  const totalsShape = new TableShape(
    tcols.map((c) => pdfHead(c, lang)),
    numeric(tcols),
    width,
  );

  // Pass 1: totals, summary, the count and the widths of the step table.
  const totals = newTotals(p);
  let count = 0;
  let gaps = false;
  let withheld = false;
  for await (const chunk of reportChunks(db, p, "plant", CHUNK_ROWS)) {
    totals.add(chunk);
    if (withSteps) {
      for (const row of chunk) {
        const r = shownRow(columns, row, info(row.device_uid));
        steps.measure(printedCells(r));
        gaps ||= r.gap;
        withheld ||= r.withheld !== undefined;
        count++;
      }
    }
    await turn();
  }
  const totalRows = totals
    .list()
    .map((t) => shownRow(tcols, t as unknown as Record<string, unknown> & typeof t, info(t.device_uid)));
  for (const r of totalRows) {
    totalsShape.measure(printedCells(r));
    gaps ||= r.gap;
    withheld ||= r.withheld !== undefined;
  }
  const summary = await summaryOf(db, p, totals);
  const facts = summaryFacts(summary, p.report, lang);
  withheld ||= Boolean(summary.pr_withheld);
  const factsShape = new TableShape(
    [
      [T.item, ""],
      [T.value, ""],
    ],
    [false, true],
    width,
  );
  for (const f of facts) factsShape.measure(f);

  // Layout: one orientation and type size for the document, the widths of each table, the number of pages.
  const tables = withSteps ? [factsShape, totalsShape, steps] : [factsShape, totalsShape];
  const { landscape, size } = fitDocument(tables.map((t) => t.natural));
  const box = pageBox(landscape);
  const widths = tables.map((t) => columnWidths(t.natural, landscape, size));
  const notes = [...(withheld ? [T.withheld(Math.round(IRRADIANCE_COVERAGE_MIN * 100))] : []), ...(gaps ? [T.gapNote] : [])];
  const rowCounts = withSteps ? [facts.length, totalRows.length, count] : [facts.length, totalRows.length];
  const pages = countPages(box, size, rowCounts, notes.length, FOOTNOTE_LINE);

  // Pass 2: the pages, passed on to `out` as PDFKit writes them.
  const ink = new Ink(doc, box.height);
  const ended = new Promise<void>((resolve, reject) => {
    doc.once("end", resolve);
    doc.once("error", reject);
  });
  doc.on("data", (chunk: Buffer) => out.write(chunk));
  const flow = new PageFlow(box, size);
  const title = `${REPORT_TITLES[p.report][lang]} · ${p.resolved.scope.name}`;
  const period = T.period(
    formatSeoul(p.ctx.period.start, "YYYY-MM-DD"),
    formatSeoul(p.ctx.period.end - 1, "YYYY-MM-DD"),
    withSteps ? T.units[p.ctx.unit] : null,
  );
  const generated = T.generated(formatSeoul(o.at, "YYYY-MM-DD HH:mm"), o.by);
  let open = false;

  const startPage = async () => {
    if (open && out.writableNeedDrain) await drained(out);
    open = true;
    await turn();
    doc.addPage({ size: [box.width, box.height], margin: 0 });
    const top = box.height - MARGIN;
    ink.text(MARGIN, top - 11, title, 11);
    ink.text(box.width - MARGIN, top - 11, generated, 7, "right", 0.35);
    ink.text(MARGIN, top - 24, period, 8, "left", 0.2);
    ink.rule(MARGIN, top - 29, box.width - MARGIN, 0.6, 0.3);
    ink.text(box.width - MARGIN, MARGIN, T.page(flow.page, pages), 7.5, "right", 0.2);
    ink.text(MARGIN, MARGIN, REPORT_TITLES[p.report][lang], 7, "left", 0.45);
  };

  const drawHead = (shape: TableShape, w: number[], y: number) => {
    const right = MARGIN + w.reduce((a, b) => a + b, 0);
    ink.rect(MARGIN, y - headHeight(size), right - MARGIN, headHeight(size), 0.9);
    let x = MARGIN;
    shape.heads.forEach(([a, b], i) => {
      const cw = w[i]!;
      const right = shape.num[i];
      const tx = right ? x + cw - CELL_PAD : x + CELL_PAD;
      ink.text(tx, y - size * 1.2, a, size, right ? "right" : "left");
      ink.text(tx, y - size * 2.4, b, size, right ? "right" : "left", 0.3);
      x += cw;
    });
    ink.rule(MARGIN, y - headHeight(size), right, 0.6, 0.2);
  };

  let stripe = 0;
  const drawRow = (shape: TableShape, w: number[], y: number, cells: string[]) => {
    if (stripe++ % 2 === 1)
      ink.rect(
        MARGIN,
        y - rowHeight(size),
        w.reduce((a, b) => a + b, 0),
        rowHeight(size),
        0.96,
      );
    let x = MARGIN;
    cells.forEach((c, i) => {
      const cw = w[i]!;
      if (shape.num[i]) ink.text(x + cw - CELL_PAD, y - size * 1.15, c, size, "right");
      else ink.text(x + CELL_PAD, y - size * 1.15, c, size);
      x += cw;
    });
  };

  const table = async (shape: TableShape, w: number[], caption: string, rows: AsyncIterable<string[]> | Iterable<string[]>) => {
    const at = flow.table();
    if (at.newPage) await startPage();
    ink.text(MARGIN, at.titleY - 13, caption, 10);
    drawHead(shape, w, at.headY);
    stripe = 0;
    for await (const cells of rows) {
      const r = flow.row();
      if (r.newPage) {
        await startPage();
        drawHead(shape, w, r.headY);
        stripe = 0;
      }
      drawRow(shape, w, r.y, cells);
    }
    flow.endTable();
  };

  await table(factsShape, widths[0]!, T.summary, facts);
  await table(totalsShape, widths[1]!, T.totals, totalRows.map(printedCells));
  if (withSteps) {
    async function* stepRows() {
      let written = 0;
      for await (const chunk of reportChunks(db, p, "plant", CHUNK_ROWS)) {
        for (const row of chunk) {
          if (written++ >= count) return;
          yield printedCells(shownRow(columns, row, info(row.device_uid)));
        }
      }
    }
    await table(steps, widths[2]!, `${T.steps[o.detail]} (${T.rows(formatNumber(count, 0))})`, stepRows());
  }
  for (const note of notes) {
    const at = flow.line(FOOTNOTE_LINE);
    if (at.newPage) await startPage();
    ink.text(MARGIN, at.y - FOOTNOTE_SIZE - 2, note, FOOTNOTE_SIZE, "left", 0.25);
  }
  doc.info.Title = `${title} (${period})`;
  doc.info.Author = o.by;
  doc.info.Producer = "solar-portal (PDFKit)";
  doc.info.Creator = "solar-portal";
  doc.info.CreationDate = new Date(o.at);
  doc.end();
  await ended;
  await new Promise<void>((resolve, reject) => {
    out.once("error", reject);
    out.end(resolve);
  });
}

/** The name of a report's PDF. */
export function pdfFileName(p: PreparedReport, detail: PdfDetail): string {
  const day = formatSeoul(p.ctx.period.start, "YYYY-MM-DD");
  return `statistics-${p.report}-${detail === "summary" ? "summary" : p.ctx.unit}-${day}.pdf`;
}
