/**
 * A small streaming XLSX writer for the statistics exports: sheets of text and typed numbers written row by
 * row as SpreadsheetML into a ZIP that goes out as it is deflated, with the writer's backpressure honoured
 * at every step (a row waits while the deflater or the destination is full), so memory stays flat whatever
 * the number of rows.
 *
 * Why not exceljs's streaming WorkbookWriter (which this replaced): it builds a Row and Cell objects per row
 * and its internal stream buffers hand data on to archiver without waiting for it, so a year of hourly rows
 * of 100 inverters (876,000 rows) took minutes and hundreds of MB (bench/README.md, "Statistics reports").
 * Measured on the same machine, exceljs alone (no data access, awaiting between batches) wrote ~23,000
 * rows/s; this writer is bounded by deflate. The files are read back by exceljs in the API tests.
 *
 * What it writes is deliberately narrow: text, numbers, empty cells for null, a bold head row, frozen panes,
 * column widths, one number format per column. Text goes into the shared-string table (a report repeats a
 * few names and one label per step: the XML to deflate is about half as long), up to MAX_SHARED distinct
 * strings; after that, text is written inline, so the table never grows without bound.
 * ZIP entries are deflated with data descriptors (sizes known after the data); no ZIP64, so a part must stay
 * under 4 GiB (a sheet of 1,048,576 rows is far below); a table with more rows than a sheet holds continues on
 * further sheets ("시간별 (2)").
 */
import type { Writable } from "node:stream";
import { crc32, createDeflateRaw, type DeflateRaw } from "node:zlib";

/** Rows per sheet Excel accepts (the head row included). */
export const MAX_SHEET_ROWS = 1_048_576;
const FLUSH_CHARS = 64 * 1024;

/** Waits until `s` drains; fails when it is closed or errors first (a client that went away). */
export function drained(s: Writable): Promise<void> {
  if (s.destroyed || s.writableEnded) return Promise.reject(new Error("stream closed"));
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      s.off("drain", ok);
      s.off("close", closed);
      s.off("error", done);
      if (err) reject(err);
      else resolve();
    };
    const ok = () => done();
    const closed = () => done(new Error("stream closed"));
    // `once`, not `on`: the compression middleware hands a response's "drain" listeners to its gzip stream,
    // where `off` on the response cannot reach them; a once-listener goes away by itself.
    s.once("drain", ok);
    s.on("close", closed);
    s.on("error", done);
  });
}

/**
 * Ends `s` and waits until it has finished. Not `end(callback)`: the compression middleware's `res.end` takes
 * its first argument for a chunk.
 */
export function ended(s: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    s.once("finish", resolve);
    s.once("error", reject);
    s.end();
  });
}

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: (Math.max(0, d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

interface ZipEntry {
  name: Buffer;
  offset: number;
  crc: number;
  size: number;
  compressed: number;
}

/** ZIP written entry after entry to a stream (no seeking back: sizes go in a data descriptor). */
class ZipOut {
  private offset = 0;
  private entries: ZipEntry[] = [];
  private stamp: { time: number; date: number };

  constructor(private out: Writable, at: Date) {
    this.stamp = dosTime(at);
  }

  private async raw(buf: Buffer): Promise<void> {
    this.offset += buf.length;
    if (!this.out.write(buf)) await drained(this.out);
  }

  /** Opens an entry; text written to it is deflated and sent on; `close()` ends it. */
  async open(name: string, level: number): Promise<EntryWriter> {
    const entry: ZipEntry = { name: Buffer.from(name, "utf8"), offset: this.offset, crc: 0, size: 0, compressed: 0 };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0x0808, 6); // data descriptor follows; UTF-8 names
    head.writeUInt16LE(8, 8); // deflate
    head.writeUInt16LE(this.stamp.time, 10);
    head.writeUInt16LE(this.stamp.date, 12);
    head.writeUInt16LE(entry.name.length, 26);
    await this.raw(Buffer.concat([head, entry.name]));
    const deflate = createDeflateRaw({ level });
    let failed: Error | null = null;
    deflate.on("data", (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.offset += chunk.length;
      if (!this.out.write(chunk)) {
        deflate.pause();
        drained(this.out).then(() => deflate.resume(), (e: Error) => {
          failed = e;
          deflate.destroy(e);
        });
      }
    });
    deflate.on("error", (e) => (failed = e));
    const ended = new Promise<void>((resolve, reject) => {
      deflate.once("end", resolve);
      deflate.once("error", reject);
      deflate.once("close", () => (failed ? reject(failed) : undefined));
    });
    ended.catch(() => undefined);
    return new EntryWriter(deflate, entry, async () => {
      deflate.end();
      await ended;
      if (entry.size > 0xffffffff || entry.compressed > 0xffffffff || this.offset > 0xffffffff) throw new Error("xlsx part too large (no ZIP64)");
      const desc = Buffer.alloc(16);
      desc.writeUInt32LE(0x08074b50, 0);
      desc.writeUInt32LE(entry.crc >>> 0, 4);
      desc.writeUInt32LE(entry.compressed, 8);
      desc.writeUInt32LE(entry.size, 12);
      await this.raw(desc);
      this.entries.push(entry);
    }, () => failed);
  }

  /** Writes a whole small entry. */
  async file(name: string, text: string): Promise<void> {
    const w = await this.open(name, 6);
    await w.write(text);
    await w.close();
  }

  /** The central directory and its end record; then ends the stream. */
  async finish(): Promise<void> {
    const start = this.offset;
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(this.stamp.time, 12);
      h.writeUInt16LE(this.stamp.date, 14);
      h.writeUInt32LE(e.crc >>> 0, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      parts.push(h, e.name);
    }
    const dir = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(dir.length, 12);
    end.writeUInt32LE(start, 16);
    await this.raw(Buffer.concat([dir, end]));
    await ended(this.out);
  }
}

/** Text into one ZIP entry, batched into buffers of ~64 KB; waits while the deflater is full. */
class EntryWriter {
  private pending: string[] = [];
  private chars = 0;
  constructor(private deflate: DeflateRaw, private entry: ZipEntry, private ending: () => Promise<void>, private failure: () => Error | null) {}

  /** Queues text; flushes (and may wait) once a batch is full. */
  write(text: string): Promise<void> | undefined {
    this.pending.push(text);
    this.chars += text.length;
    return this.chars >= FLUSH_CHARS ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    const err = this.failure();
    if (err) throw err;
    if (!this.pending.length) return;
    const buf = Buffer.from(this.pending.join(""), "utf8");
    this.pending = [];
    this.chars = 0;
    this.entry.crc = crc32(buf, this.entry.crc);
    this.entry.size += buf.length;
    if (!this.deflate.write(buf)) await drained(this.deflate);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.ending();
  }
}

// ---- SpreadsheetML ----

export interface XlsxColumn {
  head: string;
  width: number;
  /** Decimals of the number format of a numeric column; undefined for text. */
  decimals?: number;
}

export type XlsxCell = string | number | null | undefined;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const XML_ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
export function xmlText(s: string): string {
  return s.replace(INVALID_XML, "").replace(/[&<>"]/g, (c) => XML_ESC[c]!);
}

function columnLetters(i: number): string {
  let n = i + 1;
  let s = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** Style ids of styles.xml: 0 plain, 1 bold head, 2 + d a number with d decimals (0–3). */
const STYLE_BOLD = 1;
const styleOfDecimals = (d: number | undefined) => (d === undefined ? 0 : 2 + Math.max(0, Math.min(3, d)));

const STYLES = `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">`
  + '<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.0"/><numFmt numFmtId="165" formatCode="#,##0.000"/></numFmts>'
  + '<fonts count="2"><font><sz val="11"/><name val="Malgun Gothic"/><family val="2"/></font><font><b/><sz val="11"/><name val="Malgun Gothic"/><family val="2"/></font></fonts>'
  + '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
  + '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
  + '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
  + '<cellXfs count="6">'
  + '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
  + '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
  + '<xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
  + '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
  + '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
  + '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
  + "</cellXfs>"
  + '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
  + "</styleSheet>";

/** Distinct strings kept in the shared-string table at most. */
const MAX_SHARED = 100_000;

class SharedStrings {
  private index = new Map<string, number>();
  readonly list: string[] = [];
  /** The string's index in the table, or -1 when the table is full. */
  of(s: string): number {
    let i = this.index.get(s);
    if (i !== undefined) return i;
    if (this.list.length >= MAX_SHARED) return -1;
    i = this.list.length;
    this.list.push(s);
    this.index.set(s, i);
    return i;
  }
}

function inlineString(ref: string, style: string, text: string): string {
  const t = xmlText(text);
  const space = t !== t.trim() ? ' xml:space="preserve"' : "";
  return `<c r="${ref}"${style} t="inlineStr"><is><t${space}>${t}</t></is></c>`;
}

/** One sheet being written: rows in order, each a list of cells matching the columns. */
export class SheetWriter {
  private row = 1;
  private letters: string[];
  private styles: string[];
  constructor(private w: EntryWriter, columns: XlsxColumn[], private shared: SharedStrings) {
    this.letters = columns.map((_c, i) => columnLetters(i));
    this.styles = columns.map((c) => {
      const s = styleOfDecimals(c.decimals);
      return s ? ` s="${s}"` : "";
    });
  }

  static async start(w: EntryWriter, columns: XlsxColumn[], shared: SharedStrings): Promise<SheetWriter> {
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join("");
    await w.write(`${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">`
      + '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
      + '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>'
      + `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`);
    const sheet = new SheetWriter(w, columns, shared);
    const head = columns.map((c, i) => inlineString(`${sheet.letters[i]}1`, ` s="${STYLE_BOLD}"`, c.head)).join("");
    await w.write(`<row r="1">${head}</row>`);
    return sheet;
  }

  get rows(): number {
    return this.row;
  }

  /** Adds a row; the promise (when there is one) must be awaited before the next row: it is the backpressure. */
  add(cells: readonly XlsxCell[]): Promise<void> | undefined {
    const r = ++this.row;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i];
      if (v === null || v === undefined) continue;
      if (typeof v === "number") {
        if (!Number.isFinite(v)) continue;
        xml += `<c r="${this.letters[i]}${r}"${this.styles[i] ?? ""}><v>${v}</v></c>`;
      } else {
        const k = this.shared.of(v);
        xml += k >= 0 ? `<c r="${this.letters[i]}${r}" t="s"><v>${k}</v></c>` : inlineString(`${this.letters[i]}${r}`, "", v);
      }
    }
    return this.w.write(`${xml}</row>`);
  }

  async end(): Promise<void> {
    await this.w.write("</sheetData></worksheet>");
    await this.w.close();
  }
}

/**
 * A workbook written part by part. Sheets are declared in the order the book shows them but may be written
 * in any order (each sheet is one ZIP entry written at once); `finish()` adds the workbook, its relations,
 * the styles and the document properties.
 */
export class XlsxWriter {
  private zip: ZipOut;
  private sheets: Array<{ name: string; order: number; part: number }> = [];
  private parts = 0;
  private shared = new SharedStrings();
  constructor(out: Writable, private opts: { creator: string; created: Date; level?: number }) {
    this.zip = new ZipOut(out, opts.created);
  }

  /**
   * Starts a sheet. `order`: its place in the book (sheets are listed by it). Only one sheet may be open
   * at a time: end it before starting the next.
   */
  async sheet(name: string, order: number, columns: XlsxColumn[]): Promise<SheetWriter> {
    const part = ++this.parts;
    this.sheets.push({ name, order, part });
    const entry = await this.zip.open(`xl/worksheets/sheet${part}.xml`, this.opts.level ?? 1);
    return SheetWriter.start(entry, columns, this.shared);
  }

  async finish(): Promise<void> {
    const sheets = [...this.sheets].sort((a, b) => a.order - b.order || a.part - b.part);
    const n = sheets.length;
    const strings = this.shared.list;
    if (strings.length) {
      const w = await this.zip.open("xl/sharedStrings.xml", 6);
      await w.write(`${XML_HEAD}<sst xmlns="${NS_MAIN}" count="${strings.length}" uniqueCount="${strings.length}">`);
      for (const text of strings) {
        const t = xmlText(text);
        const wait = w.write(t !== t.trim() ? `<si><t xml:space="preserve">${t}</t></si>` : `<si><t>${t}</t></si>`);
        if (wait) await wait;
      }
      await w.write("</sst>");
      await w.close();
    }
    const overrides = sheets.map((s) => `<Override PartName="/xl/worksheets/sheet${s.part}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join("");
    await this.zip.file("[Content_Types].xml", `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`
      + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      + '<Default Extension="xml" ContentType="application/xml"/>'
      + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
      + overrides
      + (strings.length ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : "")
      + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
      + '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
      + '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>'
      + "</Types>");
    await this.zip.file("_rels/.rels", `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">`
      + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
      + '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
      + '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>'
      + "</Relationships>");
    const iso = this.opts.created.toISOString().replace(/\.\d{3}Z$/, "Z");
    const creator = xmlText(this.opts.creator);
    await this.zip.file("docProps/core.xml", `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" `
      + 'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" '
      + `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>${creator}</dc:creator><cp:lastModifiedBy>${creator}</cp:lastModifiedBy>`
      + `<dcterms:created xsi:type="dcterms:W3CDTF">${iso}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${iso}</dcterms:modified>`
      + "</cp:coreProperties>");
    await this.zip.file("docProps/app.xml", `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" `
      + 'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>Microsoft Excel</Application></Properties>');
    await this.zip.file("xl/workbook.xml", `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">`
      + '<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="12000" windowHeight="24000"/></bookViews><sheets>'
      + sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")
      + "</sheets></workbook>");
    await this.zip.file("xl/_rels/workbook.xml.rels", `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">`
      + sheets.map((s, i) => `<Relationship Id="rId${i + 1}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${s.part}.xml"/>`).join("")
      + `<Relationship Id="rId${n + 1}" Type="${NS_REL}/styles" Target="styles.xml"/>`
      + (strings.length ? `<Relationship Id="rId${n + 2}" Type="${NS_REL}/sharedStrings" Target="sharedStrings.xml"/>` : "")
      + "</Relationships>");
    await this.zip.file("xl/styles.xml", STYLES);
    await this.zip.finish();
  }
}
