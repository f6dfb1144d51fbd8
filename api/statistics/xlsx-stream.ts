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
 * The ZIP container is archiver's (the zip writer under exceljs): each part is an entry fed from a stream, so
 * only the SpreadsheetML is written here; a table with more rows than a sheet holds continues on further sheets
 * ("시간별 (2)").
 */
import archiver, { type Archiver } from "archiver";
import { PassThrough, type Writable } from "node:stream";

/** Rows per sheet Excel accepts (the head row included). */
export const MAX_SHEET_ROWS = 1_048_576;
const FLUSH_BYTES = 64 * 1024;

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

/**
 * The ZIP container, by archiver (the zip writer exceljs itself uses): entries are added one after another, each
 * from a stream this writer fills; archiver deflates it and writes to `out` through a pipe, so a full `out` stops
 * the deflater and a full deflater stops the rows (EntryWriter waits for the entry stream's drain).
 */
class ZipOut {
  private archive: Archiver;
  private done: Promise<void>;
  private failed: Error | null = null;
  /** The entry being read by archiver (one at a time), settled by its 'entry' event or an error. */
  private current: { resolve(): void; reject(e: Error): void } | null = null;

  constructor(
    out: Writable,
    private at: Date,
    level: number,
  ) {
    this.archive = archiver("zip", { zlib: { level } });
    const fail = (e: Error) => {
      this.failed ??= e;
      this.current?.reject(e);
      this.current = null;
    };
    this.archive.on("error", fail);
    this.archive.on("warning", fail);
    this.archive.on("entry", () => {
      this.current?.resolve();
      this.current = null;
    });
    this.done = new Promise<void>((resolve, reject) => {
      out.once("finish", resolve);
      out.once("close", () => (out.writableFinished ? resolve() : reject(this.failed ?? new Error("stream closed"))));
      out.once("error", reject);
      this.archive.once("error", reject);
    });
    this.done.catch(() => undefined);
    out.once("close", () => fail(new Error("stream closed")));
    this.archive.pipe(out);
  }

  /** Opens an entry (only one at a time); text written to it goes to archiver; `close()` ends it. */
  async open(name: string): Promise<EntryWriter> {
    if (this.failed) throw this.failed;
    const body = new PassThrough({ highWaterMark: FLUSH_BYTES * 2 });
    const entryDone = new Promise<void>((resolve, reject) => (this.current = { resolve, reject }));
    entryDone.catch(() => undefined);
    this.archive.append(body, { name, date: this.at });
    return new EntryWriter(
      body,
      async () => {
        body.end();
        await entryDone;
      },
      () => this.failed,
    );
  }

  /** Writes a whole small entry. */
  async file(name: string, text: string): Promise<void> {
    if (this.failed) throw this.failed;
    this.archive.append(Buffer.from(text, "utf8"), { name, date: this.at });
  }

  /** The central directory; then `out` ends. */
  async finish(): Promise<void> {
    await this.archive.finalize();
    await this.done;
  }
}

/** Room kept in a batch buffer past FLUSH_BYTES: a row's bytes are written before the batch is checked. */
const BATCH_BYTES = FLUSH_BYTES + 16 * 1024;

/** ASCII text as bytes, for the fixed pieces of SpreadsheetML a row is made of. */
const ascii = (s: string): Uint8Array => Buffer.from(s, "latin1");

/**
 * Bytes into one ZIP entry, batched into buffers of ~64 KB; waits while the entry's stream is full.
 * Rows are written as bytes straight into the batch (fixed pieces copied, numbers as digits), not as strings:
 * a string per number goes through V8's number-to-string cache, which keeps it alive across young-generation
 * collections, so a year of rows left tens of MB of promoted garbage in the old generation (bench/README.md,
 * session 11). A full batch is handed to the entry's stream and a new one started.
 */
class EntryWriter {
  private buf = Buffer.allocUnsafeSlow(BATCH_BYTES);
  private pos = 0;
  private full: Buffer[] = [];
  constructor(
    private body: PassThrough,
    private ending: () => Promise<void>,
    private failure: () => Error | null,
  ) {}

  /** Queues text; flushes (and may wait) once a batch is full. */
  write(text: string): Promise<void> | undefined {
    if (text.length * 3 > this.buf.length - this.pos) {
      this.cut();
      if (text.length * 3 > this.buf.length) {
        this.full.push(Buffer.from(text, "utf8"));
        return this.flush();
      }
    }
    this.text(text);
    return this.pos >= FLUSH_BYTES ? this.flush() : undefined;
  }

  /** Makes room for `n` bytes written by the byte methods below (which do not check). */
  reserve(n: number): void {
    if (n <= this.buf.length - this.pos) return;
    this.cut();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafeSlow(n);
  }

  /** Text, after `reserve` (3 bytes a UTF-16 unit at most). */
  text(s: string): void {
    this.pos += this.buf.write(s, this.pos, "utf8");
  }

  /** Fixed bytes. */
  bytes(a: Uint8Array): void {
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < a.length; i++) b[p++] = a[i]!;
    this.pos = p;
  }

  /** A whole number ≥ 0 below 2^53, as decimal digits. */
  digits(n: number): void {
    const b = this.buf;
    let len = 1;
    for (let t = n; t >= 10; t = Math.floor(t / 10)) len++;
    let p = this.pos + len;
    this.pos = p;
    do {
      b[--p] = 48 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
  }

  /**
   * A finite number as SpreadsheetML's `<v>` holds it. Whole numbers and numbers of up to 6 decimals (what the
   * reports write) are written as digits: `k / 10^d`, with `k` the nearest integer to v·10^d and the smallest d
   * for which that division gives v back, is the decimal that parses to v exactly. Anything else as String(v).
   */
  number(v: number): void {
    let a = v;
    if (a < 0) {
      this.buf[this.pos++] = 45; // "-"
      a = -a;
    }
    if (a < 1e15 && Number.isInteger(a)) return this.digits(a);
    if (a >= 1e-6 && a < 1e9) {
      for (let d = 1, f = 10; d <= 6; d++, f *= 10) {
        const k = Math.round(a * f);
        if (k / f !== a) continue;
        const whole = Math.trunc(a);
        this.digits(whole);
        const b = this.buf;
        let frac = k - whole * f;
        let p = this.pos + d;
        b[this.pos] = 46; // "."
        for (let i = 0; i < d; i++) {
          b[p--] = 48 + (frac % 10);
          frac = Math.floor(frac / 10);
        }
        p = this.pos + d;
        while (b[p] === 48) p--;
        this.pos = p + 1;
        return;
      }
    }
    this.pos += this.buf.write(String(a), this.pos, "latin1");
  }

  /** Flushes (and may wait) once the batch is full; call between rows. */
  check(): Promise<void> | undefined {
    return this.pos >= FLUSH_BYTES ? this.flush() : undefined;
  }

  /** The batch so far goes to the queue of full buffers; a new batch starts. */
  private cut(): void {
    if (!this.pos) return;
    this.full.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafeSlow(BATCH_BYTES);
    this.pos = 0;
  }

  async flush(): Promise<void> {
    const err = this.failure();
    if (err) throw err;
    this.cut();
    const full = this.full;
    if (!full.length) return;
    this.full = [];
    let room = true;
    for (const b of full) room = this.body.write(b);
    if (!room) await drained(this.body);
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

const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.0"/><numFmt numFmtId="165" formatCode="#,##0.000"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Malgun Gothic"/><family val="2"/></font><font><b/><sz val="11"/><name val="Malgun Gothic"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="6">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  "</cellXfs>" +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  "</styleSheet>";

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

/** `ref`: the cell's ` r="…"` attribute, or "" when a reader infers it. */
function inlineString(ref: string, style: string, text: string): string {
  const t = xmlText(text);
  const space = t !== t.trim() ? ' xml:space="preserve"' : "";
  return `<c${ref}${style} t="inlineStr"><is><t${space}>${t}</t></is></c>`;
}

const NO_BYTES = new Uint8Array(0);
const ROW_OPEN = ascii('<row r="');
const TAG_END = ascii('">');
const CELL_OPEN = ascii("<c");
const REF_OPEN = ascii(' r="');
const QUOTE = ascii('"');
const NUMBER_OPEN = ascii("><v>");
const SHARED_OPEN = ascii(' t="s"><v>');
const CELL_CLOSE = ascii("</v></c>");
const ROW_CLOSE = ascii("</row>");
/** Bytes a cell other than inline text takes at most (`<c r="XFD1048576" s="5" t="s"><v>` … `</v></c>`). */
const CELL_MAX_BYTES = 96;

/** One sheet being written: rows in order, each a list of cells matching the columns. */
export class SheetWriter {
  private row = 1;
  private letters: string[];
  private letterBytes: Uint8Array[];
  private styleBytes: Uint8Array[];
  constructor(
    private w: EntryWriter,
    columns: XlsxColumn[],
    private shared: SharedStrings,
  ) {
    this.letters = columns.map((_c, i) => columnLetters(i));
    this.letterBytes = this.letters.map(ascii);
    this.styleBytes = columns.map((c) => {
      const s = styleOfDecimals(c.decimals);
      return ascii(s ? ` s="${s}"` : "");
    });
  }

  static async start(w: EntryWriter, columns: XlsxColumn[], shared: SharedStrings): Promise<SheetWriter> {
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join("");
    await w.write(
      `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
        `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`,
    );
    const sheet = new SheetWriter(w, columns, shared);
    const head = columns.map((c, i) => inlineString(` r="${sheet.letters[i]}1"`, ` s="${STYLE_BOLD}"`, c.head)).join("");
    await w.write(`<row r="1">${head}</row>`);
    return sheet;
  }

  get rows(): number {
    return this.row;
  }

  /**
   * Adds a row; the promise (when there is one) must be awaited before the next row: it is the backpressure.
   * A cell names its reference (`r="C7"`) only where a reader cannot infer it: the row's first cell and the
   * cell after an empty one (not written). The reference is optional in SpreadsheetML (ECMA-376 §18.3.1.4: a
   * cell without it is the next column); leaving it out of the other cells makes a year of hourly rows about a
   * third less XML to build, encode and deflate.
   */
  add(cells: readonly XlsxCell[]): Promise<void> | undefined {
    const r = ++this.row;
    const w = this.w;
    w.reserve(32 + cells.length * CELL_MAX_BYTES);
    w.bytes(ROW_OPEN);
    w.digits(r);
    w.bytes(TAG_END);
    let gap = true;
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i];
      if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v))) {
        gap = true;
        continue;
      }
      const k = typeof v === "number" ? 0 : this.shared.of(v);
      if (k < 0) {
        // Inline text (the shared-string table is full): written as a string.
        const text = inlineString(gap ? ` r="${this.letters[i]}${r}"` : "", "", v as string);
        w.reserve(text.length * 3 + (cells.length - i) * CELL_MAX_BYTES + ROW_CLOSE.length);
        w.text(text);
        gap = false;
        continue;
      }
      w.bytes(CELL_OPEN);
      if (gap) {
        w.bytes(REF_OPEN);
        w.bytes(this.letterBytes[i]!);
        w.digits(r);
        w.bytes(QUOTE);
      }
      gap = false;
      if (typeof v === "number") {
        w.bytes(this.styleBytes[i] ?? NO_BYTES);
        w.bytes(NUMBER_OPEN);
        w.number(v);
      } else {
        w.bytes(SHARED_OPEN);
        w.digits(k);
      }
      w.bytes(CELL_CLOSE);
    }
    w.bytes(ROW_CLOSE);
    return w.check();
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
  constructor(
    out: Writable,
    private opts: { creator: string; created: Date; level?: number },
  ) {
    this.zip = new ZipOut(out, opts.created, opts.level ?? 1);
  }

  /**
   * Starts a sheet. `order`: its place in the book (sheets are listed by it). Only one sheet may be open
   * at a time: end it before starting the next.
   */
  async sheet(name: string, order: number, columns: XlsxColumn[]): Promise<SheetWriter> {
    const part = ++this.parts;
    this.sheets.push({ name, order, part });
    const entry = await this.zip.open(`xl/worksheets/sheet${part}.xml`);
    return SheetWriter.start(entry, columns, this.shared);
  }

  async finish(): Promise<void> {
    const sheets = [...this.sheets].sort((a, b) => a.order - b.order || a.part - b.part);
    const n = sheets.length;
    const strings = this.shared.list;
    if (strings.length) {
      const w = await this.zip.open("xl/sharedStrings.xml");
      await w.write(`${XML_HEAD}<sst xmlns="${NS_MAIN}" count="${strings.length}" uniqueCount="${strings.length}">`);
      for (const text of strings) {
        const t = xmlText(text);
        const wait = w.write(t !== t.trim() ? `<si><t xml:space="preserve">${t}</t></si>` : `<si><t>${t}</t></si>`);
        if (wait) await wait;
      }
      await w.write("</sst>");
      await w.close();
    }
    const overrides = sheets
      .map(
        (s) =>
          `<Override PartName="/xl/worksheets/sheet${s.part}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join("");
    await this.zip.file(
      "[Content_Types].xml",
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        overrides +
        (strings.length
          ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
          : "") +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
        '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
        "</Types>",
    );
    await this.zip.file(
      "_rels/.rels",
      `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
        '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>' +
        "</Relationships>",
    );
    const iso = this.opts.created.toISOString().replace(/\.\d{3}Z$/, "Z");
    const creator = xmlText(this.opts.creator);
    await this.zip.file(
      "docProps/core.xml",
      `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" ' +
        `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>${creator}</dc:creator><cp:lastModifiedBy>${creator}</cp:lastModifiedBy>` +
        `<dcterms:created xsi:type="dcterms:W3CDTF">${iso}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${iso}</dcterms:modified>` +
        "</cp:coreProperties>",
    );
    await this.zip.file(
      "docProps/app.xml",
      `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
        'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>Microsoft Excel</Application></Properties>',
    );
    await this.zip.file(
      "xl/workbook.xml",
      `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
        '<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="12000" windowHeight="24000"/></bookViews><sheets>' +
        sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("") +
        "</sheets></workbook>",
    );
    await this.zip.file(
      "xl/_rels/workbook.xml.rels",
      `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
        sheets
          .map((s, i) => `<Relationship Id="rId${i + 1}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${s.part}.xml"/>`)
          .join("") +
        `<Relationship Id="rId${n + 1}" Type="${NS_REL}/styles" Target="styles.xml"/>` +
        (strings.length ? `<Relationship Id="rId${n + 2}" Type="${NS_REL}/sharedStrings" Target="sharedStrings.xml"/>` : "") +
        "</Relationships>",
    );
    await this.zip.file("xl/styles.xml", STYLES);
    await this.zip.finish();
  }
}
