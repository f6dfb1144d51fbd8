/**
 * Layout of the PDF report (issue 26), pure: how wide each column is, portrait or landscape A4, the font size,
 * and where the pages break. The writer (api/statistics/pdf-report.ts) measures the text it will write and asks
 * here; a dry run of the same flow over the row counts gives the number of pages before the first is written
 * ("n / N쪽" on every page without holding the document).
 *
 * Rules: a cell is one line, never wrapped — a column is as wide as its widest cell or head line, plus padding;
 * a head is two lines (the name, then the unit in brackets), so a unit never wraps either. A document whose
 * widest table fits a portrait page is portrait; else landscape; a table still too wide for landscape is set in
 * a smaller type (down to MIN_SIZE; a table wider than landscape even then runs past the right margin — no report
 * has one: the widest, VCB/ACB's 12 columns, fits landscape at the base size). Leftover width is shared out to
 * the columns, up to the page's width.
 */

/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;
export const MARGIN = 28;
/** Type size of the tables. */
export const BASE_SIZE = 8;
export const MIN_SIZE = 5.5;
/** Space each side of a cell's text, in points. */
export const CELL_PAD = 3.5;
/** The page's running head (title, scope, period) and foot (page number, generated): heights in points. */
export const PAGE_HEAD = 34;
export const PAGE_FOOT = 20;
/** A section's title above its table. */
export const SECTION_TITLE = 20;
/** Space after a table. */
export const TABLE_GAP = 10;

export interface TableFit {
  landscape: boolean;
  size: number;
  /** Width of each column in points, padding included. */
  widths: number[];
}

export interface PageBox {
  width: number;
  height: number;
}

export const pageBox = (landscape: boolean): PageBox =>
  landscape ? { width: A4.height, height: A4.width } : { width: A4.width, height: A4.height };

/** Width a table's columns may take on a page. */
export const usableWidth = (landscape: boolean) => pageBox(landscape).width - 2 * MARGIN;

/**
 * Whether the table with these natural column widths (the widest text of each column at size 1) needs landscape,
 * and at what size it fits. `landscape`: the page is landscape already (another table of the document needed it).
 */
export function fitOrientation(natural: readonly number[], landscape = false): { landscape: boolean; size: number } {
  const total = (size: number) => natural.reduce((a, w) => a + w * size + 2 * CELL_PAD, 0);
  if (!landscape && total(BASE_SIZE) <= usableWidth(false)) return { landscape: false, size: BASE_SIZE };
  if (total(BASE_SIZE) <= usableWidth(true)) return { landscape: true, size: BASE_SIZE };
  const text = natural.reduce((a, w) => a + w, 0);
  const size = (usableWidth(true) - natural.length * 2 * CELL_PAD) / text;
  return { landscape: true, size: Math.max(MIN_SIZE, Math.floor(size * 10) / 10) };
}

/**
 * Column widths of a table on a page of the given orientation at a size: each column its natural width plus
 * padding, and the room left over shared equally (a table at most `maxFill` of the usable width wider than it needs).
 */
export function columnWidths(natural: readonly number[], landscape: boolean, size: number, maxFill = 1.6): number[] {
  const widths = natural.map((w) => Math.ceil((w * size + 2 * CELL_PAD) * 10) / 10);
  const need = widths.reduce((a, w) => a + w, 0);
  const room = Math.min(usableWidth(landscape), need * maxFill) - need;
  if (room <= 0 || widths.length === 0) return widths;
  const each = Math.floor((room / widths.length) * 10) / 10;
  return widths.map((w) => w + each);
}

/** The document's orientation and size: the widest of its tables decides (one orientation for all pages). */
export function fitDocument(tables: ReadonlyArray<readonly number[]>): { landscape: boolean; size: number } {
  let landscape = false;
  for (const t of tables) if (fitOrientation(t).landscape) landscape = true;
  let size = BASE_SIZE;
  for (const t of tables) size = Math.min(size, fitOrientation(t, landscape).size);
  return { landscape, size };
}

/** Heights of a table's parts at a type size. */
export const rowHeight = (size: number) => Math.round(size * 1.55 * 100) / 100;
export const headHeight = (size: number) => Math.round(size * 2.9 * 100) / 100;

/**
 * Where things go down the pages: the tables one after another, a table's head repeated at the top of each page
 * it continues on, a title kept with its head and first row. Used twice: dry (to count the pages) and to draw.
 */
export class PageFlow {
  page = 0;
  y = 0;
  private readonly top: number;
  private readonly bottom: number;

  constructor(
    readonly box: PageBox,
    readonly size: number,
  ) {
    this.top = box.height - MARGIN - PAGE_HEAD;
    this.bottom = MARGIN + PAGE_FOOT;
  }

  private newPage(): void {
    this.page++;
    this.y = this.top;
  }

  /** A table begins: its title and head (a new page first when they and one row do not fit). */
  table(): { newPage: boolean; titleY: number; headY: number } {
    const need = SECTION_TITLE + headHeight(this.size) + rowHeight(this.size);
    const newPage = this.page === 0 || this.y - need < this.bottom;
    if (newPage) this.newPage();
    const titleY = this.y;
    this.y -= SECTION_TITLE;
    const headY = this.y;
    this.y -= headHeight(this.size);
    return { newPage, titleY, headY };
  }

  /** A row of the current table: on a new page (its head repeated at headY) when it does not fit. */
  row(): { newPage: boolean; headY: number; y: number } {
    let newPage = false;
    let headY = 0;
    if (this.y - rowHeight(this.size) < this.bottom) {
      this.newPage();
      newPage = true;
      headY = this.y;
      this.y -= headHeight(this.size);
    }
    const y = this.y;
    this.y -= rowHeight(this.size);
    return { newPage, headY, y };
  }

  /** A line of text (a footnote) after the tables. */
  line(height: number): { newPage: boolean; y: number } {
    const newPage = this.page === 0 || this.y - height < this.bottom;
    if (newPage) this.newPage();
    const y = this.y;
    this.y -= height;
    return { newPage, y };
  }

  endTable(): void {
    this.y -= TABLE_GAP;
  }
}

/** Pages of a document of tables with these row counts (and `lines` lines of footnote of `lineHeight`). */
export function countPages(box: PageBox, size: number, tableRows: readonly number[], lines = 0, lineHeight = 12): number {
  const flow = new PageFlow(box, size);
  for (const rows of tableRows) {
    flow.table();
    // Row by row, as the writer places them (100,000 rows take a few milliseconds).
    for (let i = 0; i < rows; i++) flow.row();
    flow.endTable();
  }
  for (let i = 0; i < lines; i++) flow.line(lineHeight);
  return Math.max(1, flow.page);
}
