/**
 * The TrueType font of the PDF report (issue 26): Hangul needs a font of its own, embedded. `PDF_FONT` names a
 * TrueType (glyf) font file; without it Debian's NanumGothic (package fonts-nanum, which `.ci/run` installs for
 * the screenshots anyway) is used. The font is read once; a document embeds only the glyphs it used (a subset:
 * the other glyphs are emptied, so glyph ids stay those of the font and the PDF's CIDToGIDMap is Identity).
 *
 * What is read: head (units per em, loca format), hhea + hmtx (advance widths), maxp (glyph count), cmap
 * (format 4 or 12, Unicode), loca + glyf (the outlines, composite glyphs with their parts). No shaping, no
 * kerning: a table cell is one line of text laid out by advance widths.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";

const CANDIDATES = [
  "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
  "/usr/share/fonts/truetype/nanum/NanumBarunGothic.ttf",
  "/usr/share/fonts/truetype/nanum/NanumSquareR.ttf",
];

/** The font file the PDF report uses, or null when there is none (the API then answers 404 no_font). */
export function pdfFontPath(): string | null {
  const configured = process.env.PDF_FONT;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

interface Table {
  offset: number;
  length: number;
}

export class TrueTypeFont {
  readonly unitsPerEm: number;
  readonly ascent: number;
  readonly descent: number;
  readonly bbox: [number, number, number, number];
  readonly name: string;
  private readonly tables = new Map<string, Table>();
  private readonly numGlyphs: number;
  private readonly numHMetrics: number;
  private readonly longLoca: boolean;
  private readonly cmapLookup: (code: number) => number;
  private readonly gidCache = new Map<number, number>();

  constructor(private readonly data: Buffer) {
    const numTables = data.readUInt16BE(4);
    for (let i = 0; i < numTables; i++) {
      const at = 12 + i * 16;
      const tag = data.toString("latin1", at, at + 4);
      this.tables.set(tag, { offset: data.readUInt32BE(at + 8), length: data.readUInt32BE(at + 12) });
    }
    for (const t of ["head", "hhea", "hmtx", "maxp", "cmap", "loca", "glyf"])
      if (!this.tables.has(t)) throw new Error(`not a TrueType (glyf) font: no ${t} table`);
    const head = this.table("head").offset;
    this.unitsPerEm = data.readUInt16BE(head + 18);
    this.bbox = [
      data.readInt16BE(head + 36),
      data.readInt16BE(head + 38),
      data.readInt16BE(head + 40),
      data.readInt16BE(head + 42),
    ];
    this.longLoca = data.readInt16BE(head + 50) === 1;
    const hhea = this.table("hhea").offset;
    this.ascent = data.readInt16BE(hhea + 4);
    this.descent = data.readInt16BE(hhea + 6);
    this.numHMetrics = data.readUInt16BE(hhea + 34);
    this.numGlyphs = data.readUInt16BE(this.table("maxp").offset + 4);
    this.cmapLookup = this.readCmap();
    this.name = "PortalSans";
  }

  static async load(path: string): Promise<TrueTypeFont> {
    return new TrueTypeFont(await readFile(path));
  }

  private table(tag: string): Table {
    return this.tables.get(tag)!;
  }

  /** The Unicode cmap: format 12 (full Unicode) when there is one, else format 4 (the BMP). */
  private readCmap(): (code: number) => number {
    const d = this.data;
    const cmap = this.table("cmap").offset;
    const n = d.readUInt16BE(cmap + 2);
    let f4 = -1;
    let f12 = -1;
    for (let i = 0; i < n; i++) {
      const platform = d.readUInt16BE(cmap + 4 + i * 8);
      const encoding = d.readUInt16BE(cmap + 6 + i * 8);
      const sub = cmap + d.readUInt32BE(cmap + 8 + i * 8);
      const format = d.readUInt16BE(sub);
      const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
      if (!unicode) continue;
      if (format === 12 && f12 < 0) f12 = sub;
      if (format === 4 && f4 < 0) f4 = sub;
    }
    if (f12 >= 0) {
      const groups = d.readUInt32BE(f12 + 12);
      return (code) => {
        let lo = 0;
        let hi = groups - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const at = f12 + 16 + mid * 12;
          const start = d.readUInt32BE(at);
          const end = d.readUInt32BE(at + 4);
          if (code < start) hi = mid - 1;
          else if (code > end) lo = mid + 1;
          else return d.readUInt32BE(at + 8) + (code - start);
        }
        return 0;
      };
    }
    if (f4 < 0) throw new Error("font has no Unicode cmap");
    const segX2 = d.readUInt16BE(f4 + 6);
    const ends = f4 + 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const ranges = deltas + segX2;
    return (code) => {
      if (code > 0xffff) return 0;
      let lo = 0;
      let hi = segX2 / 2 - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const end = d.readUInt16BE(ends + mid * 2);
        const start = d.readUInt16BE(starts + mid * 2);
        if (code > end) lo = mid + 1;
        else if (code < start) hi = mid - 1;
        else {
          const delta = d.readUInt16BE(deltas + mid * 2);
          const rangeAt = ranges + mid * 2;
          const range = d.readUInt16BE(rangeAt);
          if (range === 0) return (code + delta) & 0xffff;
          const gid = d.readUInt16BE(rangeAt + range + (code - start) * 2);
          return gid === 0 ? 0 : (gid + delta) & 0xffff;
        }
      }
      return 0;
    };
  }

  /** The glyph of a code point (0, the missing glyph, when the font has none). */
  glyph(code: number): number {
    let g = this.gidCache.get(code);
    if (g === undefined) {
      g = this.cmapLookup(code);
      if (g >= this.numGlyphs) g = 0;
      this.gidCache.set(code, g);
    }
    return g;
  }

  /** Advance width of a glyph in font units. */
  advance(gid: number): number {
    const hmtx = this.table("hmtx").offset;
    return this.data.readUInt16BE(hmtx + Math.min(gid, this.numHMetrics - 1) * 4);
  }

  /** Width of a line of text at a size (points). */
  width(text: string, size: number): number {
    let w = 0;
    for (const ch of text) w += this.advance(this.glyph(ch.codePointAt(0)!));
    return (w * size) / this.unitsPerEm;
  }

  private glyphRange(gid: number): [number, number] {
    const loca = this.table("loca").offset;
    if (this.longLoca) return [this.data.readUInt32BE(loca + gid * 4), this.data.readUInt32BE(loca + gid * 4 + 4)];
    return [this.data.readUInt16BE(loca + gid * 2) * 2, this.data.readUInt16BE(loca + gid * 2 + 2) * 2];
  }

  /** The parts of a composite glyph. */
  private components(gid: number): number[] {
    const [from, to] = this.glyphRange(gid);
    if (to - from < 10) return [];
    const at = this.table("glyf").offset + from;
    if (this.data.readInt16BE(at) >= 0) return [];
    const out: number[] = [];
    let p = at + 10;
    for (;;) {
      const flags = this.data.readUInt16BE(p);
      out.push(this.data.readUInt16BE(p + 2));
      p += 4 + (flags & 0x1 ? 4 : 2);
      if (flags & 0x8) p += 2;
      else if (flags & 0x40) p += 4;
      else if (flags & 0x80) p += 8;
      if (!(flags & 0x20)) break;
    }
    return out;
  }

  /**
   * A font file with only `used` glyphs' outlines (and glyph 0 and the parts of composites); the tables a PDF
   * TrueType font needs, the glyph ids unchanged.
   */
  subset(used: Iterable<number>): Buffer {
    const keep = new Set<number>([0]);
    const todo = [...used];
    while (todo.length) {
      const g = todo.pop()!;
      if (keep.has(g) || g >= this.numGlyphs) continue;
      keep.add(g);
      todo.push(...this.components(g));
    }
    const glyfAt = this.table("glyf").offset;
    const parts: Buffer[] = [];
    const loca = Buffer.alloc((this.numGlyphs + 1) * 4);
    let offset = 0;
    for (let g = 0; g < this.numGlyphs; g++) {
      loca.writeUInt32BE(offset, g * 4);
      if (!keep.has(g)) continue;
      const [from, to] = this.glyphRange(g);
      if (to <= from) continue;
      const bytes = this.data.subarray(glyfAt + from, glyfAt + to);
      parts.push(bytes);
      offset += bytes.length;
      if (offset % 4) {
        const pad = 4 - (offset % 4);
        parts.push(Buffer.alloc(pad));
        offset += pad;
      }
    }
    loca.writeUInt32BE(offset, this.numGlyphs * 4);
    const head = Buffer.from(this.slice("head")!);
    head.writeUInt32BE(0, 8); // checkSumAdjustment: not recomputed (viewers do not check it)
    head.writeInt16BE(1, 50); // long loca offsets
    const out: Array<[string, Buffer]> = [
      ["cvt ", this.slice("cvt ")],
      ["fpgm", this.slice("fpgm")],
      ["glyf", Buffer.concat(parts)],
      ["head", head],
      ["hhea", this.slice("hhea")],
      ["hmtx", this.slice("hmtx")],
      ["loca", loca],
      ["maxp", this.slice("maxp")],
      ["prep", this.slice("prep")],
    ].filter((e): e is [string, Buffer] => e[1] !== null && e[1].length > 0);
    return sfnt(out);
  }

  private slice(tag: string): Buffer | null {
    const t = this.tables.get(tag);
    return t ? this.data.subarray(t.offset, t.offset + t.length) : null;
  }
}

/** An sfnt file of tables (sorted by tag), each 4-byte aligned, with their checksums. */
function sfnt(tables: Array<[string, Buffer]>): Buffer {
  const n = tables.length;
  let pow = 1;
  let log = 0;
  while (pow * 2 <= n) {
    pow *= 2;
    log++;
  }
  const header = Buffer.alloc(12 + n * 16);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(n, 4);
  header.writeUInt16BE(pow * 16, 6);
  header.writeUInt16BE(log, 8);
  header.writeUInt16BE(n * 16 - pow * 16, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  tables.forEach(([tag, data], i) => {
    const padded = data.length % 4 ? Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]) : data;
    const at = 12 + i * 16;
    header.write(tag, at, "latin1");
    header.writeUInt32BE(checksum(padded), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    bodies.push(padded);
    offset += padded.length;
  });
  return Buffer.concat([header, ...bodies]);
}

function checksum(b: Buffer): number {
  let sum = 0;
  for (let i = 0; i + 3 < b.length; i += 4) sum = (sum + b.readUInt32BE(i)) >>> 0;
  return sum;
}

let loaded: Promise<TrueTypeFont> | null = null;
/** The report font, read once per process. */
export function reportFont(path: string): Promise<TrueTypeFont> {
  loaded ??= TrueTypeFont.load(path).catch((e) => {
    loaded = null;
    throw e;
  });
  return loaded;
}
