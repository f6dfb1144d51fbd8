import { describe, expect, it } from "vitest";
import {
  BASE_SIZE,
  CELL_PAD,
  columnWidths,
  countPages,
  fitDocument,
  fitOrientation,
  headHeight,
  MIN_SIZE,
  PageFlow,
  pageBox,
  rowHeight,
  usableWidth,
} from "./report-pdf-layout";

/** Natural widths (text at size 1) of n columns of w each. */
const cols = (n: number, w: number) => Array.from({ length: n }, () => w);

describe("PDF report layout", () => {
  it("keeps a table that fits portrait portrait, at the base size", () => {
    expect(fitOrientation(cols(5, 5))).toEqual({ landscape: false, size: BASE_SIZE });
  });

  it("turns a table too wide for portrait landscape, and shrinks the type only past landscape", () => {
    const wide = cols(12, 6); // 12 × (48 + 7) = 660 pt: more than portrait's 539, less than landscape's 786
    expect(fitOrientation(wide)).toEqual({ landscape: true, size: BASE_SIZE });
    const wider = cols(16, 6); // 16 × 55 = 880 pt at 8 pt
    const fit = fitOrientation(wider);
    expect(fit.landscape).toBe(true);
    expect(fit.size).toBeLessThan(BASE_SIZE);
    expect(columnWidths(wider, true, fit.size).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(usableWidth(true) + 0.5);
    expect(fitOrientation(cols(60, 10)).size).toBe(MIN_SIZE);
  });

  it("gives every column at least its widest text plus padding, never less (no wrapping)", () => {
    const natural = [7.2, 18.4, 3.1];
    const widths = columnWidths(natural, false, BASE_SIZE);
    natural.forEach((w, i) => expect(widths[i]!).toBeGreaterThanOrEqual(w * BASE_SIZE + 2 * CELL_PAD));
    expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(usableWidth(false));
  });

  it("lets the widest table decide the document's orientation", () => {
    expect(fitDocument([cols(2, 5), cols(12, 6)]).landscape).toBe(true);
    expect(fitDocument([cols(2, 5), cols(5, 5)]).landscape).toBe(false);
  });

  it("counts pages as the flow places rows, the head repeated on each page", () => {
    const box = pageBox(false);
    expect(countPages(box, BASE_SIZE, [0])).toBe(1);
    const flow = new PageFlow(box, BASE_SIZE);
    flow.table();
    let pages = 1;
    let heads = 1;
    for (let i = 0; i < 2000; i++) {
      const r = flow.row();
      if (r.newPage) {
        pages++;
        heads++;
        // The repeated head sits at the top of the new page, the row right below it.
        expect(r.y).toBeCloseTo(r.headY - headHeight(BASE_SIZE), 5);
      }
    }
    expect(flow.page).toBe(pages);
    expect(heads).toBe(pages);
    expect(countPages(box, BASE_SIZE, [2000])).toBe(pages);
    // About as many rows a page as the page's height allows.
    const perPage = Math.floor((box.height - 150) / rowHeight(BASE_SIZE));
    expect(pages).toBeLessThanOrEqual(Math.ceil(2000 / (perPage - 5)));
  });

  it("keeps a table's title with its head and first row", () => {
    const box = pageBox(false);
    const flow = new PageFlow(box, BASE_SIZE);
    flow.table();
    // Fill the page to its last row.
    while (!flow.row().newPage);
    while (flow.y - rowHeight(BASE_SIZE) >= 48 + rowHeight(BASE_SIZE)) flow.row();
    const page = flow.page;
    flow.endTable();
    const next = flow.table();
    expect(next.newPage).toBe(true);
    expect(flow.page).toBe(page + 1);
  });
});

describe("PDF detail", () => {
  it("maps the detail to the step table's unit, and a screen's unit to its default detail", async () => {
    const { detailOfUnit, detailUnit } = await import("./statistics-table");
    expect(detailUnit("hour", "10")).toBe("60");
    expect(detailUnit("day", "60")).toBe("day");
    expect(detailUnit("summary", "30")).toBe("30");
    expect(detailOfUnit("60")).toBe("hour");
    expect(detailOfUnit("10")).toBe("hour");
    expect(detailOfUnit("day")).toBe("day");
    expect(detailOfUnit("month")).toBe("day");
  });

  it("keeps the detail in the URL only when it is not the unit's default, and refuses an unknown one", async () => {
    const { resolveView, StatisticsViewSchema, viewSearch } = await import("./statistics-view");
    const now = Date.UTC(2026, 10, 28, 3);
    const view = (q: Record<string, string>) => resolveView(StatisticsViewSchema.parse(q), now);
    expect(view({ unit: "60" }).detail).toBe("hour");
    expect(view({ period: "month" }).detail).toBe("day");
    expect(viewSearch(view({ unit: "60", detail: "hour" }))).not.toContain("detail");
    expect(viewSearch(view({ unit: "60", detail: "summary" }))).toContain("detail=summary");
    expect(StatisticsViewSchema.safeParse({ detail: "minute" }).success).toBe(false);
  });
});
