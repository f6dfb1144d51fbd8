/**
 * A PDF file written front to back into a stream (issue 26): objects go out as they are made, their offsets
 * kept for the cross-reference table at the end, so a document of a thousand pages is never held whole. Text is
 * set in one embedded TrueType font (./pdf-font.ts) as a CID font (Identity-H, two bytes a glyph), with a
 * ToUnicode map so the text can be searched and copied (and read back by pdftotext in the tests). The font, its
 * widths and the page tree come last: by then the glyphs used and the pages are known.
 */
import type { Writable } from "node:stream";
import { deflateSync } from "node:zlib";
import type { TrueTypeFont } from "./pdf-font";
import { drained } from "./xlsx-stream";

const enc = (s: string) => Buffer.from(s, "latin1");

/** A text string of the document's info (UTF-16BE with its byte order mark). */
function infoText(s: string): string {
  const b = Buffer.from(`\ufeff${s}`, "utf16le").swap16();
  return `<${b.toString("hex")}>`;
}

/** Numbers as PDF writes them: at most 2 decimals, no exponent. */
export const num = (v: number) => (Math.round(v * 100) / 100).toString();

export class PdfWriter {
  private readonly offsets: number[] = [];
  private pos = 0;
  private next = 1;
  private readonly pages: number[] = [];
  private readonly used = new Map<number, number>();
  readonly pagesRef: number;
  readonly fontRef: number;

  constructor(
    private readonly out: Writable,
    readonly font: TrueTypeFont,
  ) {
    this.pagesRef = this.alloc();
    this.fontRef = this.alloc();
  }

  alloc(): number {
    return this.next++;
  }

  private async write(b: Buffer): Promise<void> {
    this.pos += b.length;
    if (!this.out.write(b)) await drained(this.out);
  }

  async begin(): Promise<void> {
    await this.write(Buffer.concat([enc("%PDF-1.7\n%"), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), enc("\n")]));
  }

  async object(ref: number, body: string): Promise<void> {
    this.offsets[ref] = this.pos;
    await this.write(enc(`${ref} 0 obj\n${body}\nendobj\n`));
  }

  async stream(ref: number, dict: string, data: Buffer): Promise<void> {
    const z = deflateSync(data);
    this.offsets[ref] = this.pos;
    await this.write(enc(`${ref} 0 obj\n<< ${dict} /Length ${z.length} /Filter /FlateDecode >>\nstream\n`));
    await this.write(z);
    await this.write(enc("\nendstream\nendobj\n"));
  }

  /** A text string in the font: glyph ids as hex (the glyphs are remembered for the subset and ToUnicode). */
  text(s: string): string {
    let hex = "";
    for (const ch of s) {
      const code = ch.codePointAt(0)!;
      const g = this.font.glyph(code);
      if (!this.used.has(g)) this.used.set(g, code);
      hex += g.toString(16).padStart(4, "0");
    }
    return `<${hex}>`;
  }

  /** A page of the given size whose content is `ops` (PDF content operators). */
  async page(width: number, height: number, ops: string): Promise<void> {
    const content = this.alloc();
    const page = this.alloc();
    await this.stream(content, "", Buffer.from(ops, "latin1"));
    await this.object(
      page,
      `<< /Type /Page /Parent ${this.pagesRef} 0 R /MediaBox [0 0 ${num(width)} ${num(height)}] ` +
        `/Resources << /Font << /F1 ${this.fontRef} 0 R >> >> /Contents ${content} 0 R >>`,
    );
    this.pages.push(page);
  }

  get pageCount(): number {
    return this.pages.length;
  }

  /** The font (subset), the page tree, the catalogue, the info and the cross-reference table; ends the stream. */
  async finish(info: { title: string; author: string; created: Date }): Promise<void> {
    const f = this.font;
    const scale = 1000 / f.unitsPerEm;
    const gids = [...this.used.keys()].sort((a, b) => a - b);
    const tag = "PVRPT" + String.fromCharCode(65 + (gids.length % 26));
    const base = `${tag}+${f.name}`;
    const file = this.alloc();
    const descriptor = this.alloc();
    const cid = this.alloc();
    const toUnicode = this.alloc();
    const sub = f.subset(gids);
    await this.stream(file, `/Length1 ${sub.length}`, sub);
    await this.object(
      descriptor,
      `<< /Type /FontDescriptor /FontName /${base} /Flags 4 /FontBBox [${f.bbox.map((v) => Math.round(v * scale)).join(" ")}] ` +
        `/ItalicAngle 0 /Ascent ${Math.round(f.ascent * scale)} /Descent ${Math.round(f.descent * scale)} ` +
        `/CapHeight ${Math.round(f.ascent * scale)} /StemV 80 /FontFile2 ${file} 0 R >>`,
    );
    const widths = gids.map((g) => `${g} [${Math.round(f.advance(g) * scale)}]`).join(" ");
    await this.object(
      cid,
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${base} ` +
        `/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> ` +
        `/FontDescriptor ${descriptor} 0 R /DW 1000 /W [${widths}] /CIDToGIDMap /Identity >>`,
    );
    await this.stream(toUnicode, "", Buffer.from(toUnicodeCmap(this.used), "latin1"));
    await this.object(
      this.fontRef,
      `<< /Type /Font /Subtype /Type0 /BaseFont /${base} /Encoding /Identity-H ` +
        `/DescendantFonts [${cid} 0 R] /ToUnicode ${toUnicode} 0 R >>`,
    );
    await this.object(
      this.pagesRef,
      `<< /Type /Pages /Count ${this.pages.length} /Kids [${this.pages.map((p) => `${p} 0 R`).join(" ")}] >>`,
    );
    const catalog = this.alloc();
    await this.object(catalog, `<< /Type /Catalog /Pages ${this.pagesRef} 0 R >>`);
    const infoRef = this.alloc();
    const d = info.created;
    const pad = (n: number) => String(n).padStart(2, "0");
    const date = `D:${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
    await this.object(
      infoRef,
      `<< /Title ${infoText(info.title)} /Author ${infoText(info.author)} /Producer (solar-portal) /CreationDate (${date}) >>`,
    );
    const xref = this.pos;
    let table = `xref\n0 ${this.next}\n0000000000 65535 f \n`;
    for (let i = 1; i < this.next; i++) table += `${String(this.offsets[i] ?? 0).padStart(10, "0")} 00000 n \n`;
    await this.write(
      enc(`${table}trailer\n<< /Size ${this.next} /Root ${catalog} 0 R /Info ${infoRef} 0 R >>\nstartxref\n${xref}\n%%EOF\n`),
    );
    await new Promise<void>((resolve, reject) => {
      this.out.once("error", reject);
      this.out.end(resolve);
    });
  }
}

/** The glyph → Unicode map of the glyphs used. */
function toUnicodeCmap(used: Map<number, number>): string {
  const entries = [...used.entries()].sort((a, b) => a[0] - b[0]);
  const hex4 = (n: number) => n.toString(16).padStart(4, "0");
  const utf16 = (code: number) => Buffer.from(String.fromCodePoint(code), "utf16le").swap16().toString("hex");
  let body = "";
  for (let i = 0; i < entries.length; i += 100) {
    const part = entries.slice(i, i + 100);
    body += `${part.length} beginbfchar\n${part.map(([g, c]) => `<${hex4(g)}> <${utf16(c)}>`).join("\n")}\nendbfchar\n`;
  }
  return (
    "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n" +
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
    "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n" +
    "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n" +
    body +
    "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
  );
}
