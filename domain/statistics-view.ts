/**
 * The state of the statistics screen, all in the URL so a bookmarked report renders the same report:
 * `/statistics?report=&plant=|group=&period=&date=|start=&end=&unit=&sunRise=1&page=`. The schema gives
 * defaults for what is left out; a present, wrong value is refused (400 naming the field).
 */
import { z } from "zod";
import { PDF_DETAILS, REPORT_KINDS, type PdfDetail, type ReportKind } from "./contract/statistics";
import { detailOfUnit } from "./statistics-table";
import { UID_PATTERN } from "./fleet";
import { parseSeoul } from "./seoul-time";
import {
  PERIOD_PRESETS,
  PRESET_DEFAULT_UNIT,
  STAT_UNITS,
  lastDayOf,
  presetPeriod,
  seoulDate,
  type PeriodPreset,
  type StatUnit,
} from "./statistics";

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const date = z.preprocess(
  blank,
  z
    .string()
    .trim()
    .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && parseSeoul(s) !== null, "invalid_date")
    .optional(),
);

export const StatisticsViewSchema = z.object({
  report: z.preprocess(blank, z.enum(REPORT_KINDS, { errorMap: () => ({ message: "unknown_report" }) }).default("integrated")),
  plant: z.preprocess(blank, z.string().trim().regex(UID_PATTERN, "not_an_id").optional()),
  group: z.preprocess(
    blank,
    z.coerce.number({ invalid_type_error: "not_an_id" }).int("not_an_id").min(0, "not_an_id").optional(),
  ),
  period: z.preprocess(blank, z.enum(PERIOD_PRESETS, { errorMap: () => ({ message: "unknown_period" }) }).default("day")),
  date,
  start: date,
  end: date,
  unit: z.preprocess(blank, z.enum(STAT_UNITS, { errorMap: () => ({ message: "unknown_unit" }) }).optional()),
  sunRise: z.preprocess(blank, z.enum(["1", "0"]).optional()),
  page: z.preprocess(blank, z.coerce.number().int().min(1).max(100_000).default(1)),
  print: z.preprocess(blank, z.enum(["1"]).optional()),
  /** The PDF's detail (its form's choice, kept in the URL so a bookmark or a reload keeps it). */
  detail: z.preprocess(blank, z.enum(PDF_DETAILS, { errorMap: () => ({ message: "unknown_detail" }) }).optional()),
});

export interface StatisticsView {
  report: ReportKind;
  plant?: string;
  group?: number;
  period: PeriodPreset;
  /** Anchor day of a preset period. */
  date: string;
  /** First and last day (inclusive) of the period. */
  start: string;
  end: string;
  unit: StatUnit;
  sunRise: boolean;
  page: number;
  print: boolean;
  /** What the PDF holds: summary only, or the steps by day or by hour (default: the screen's unit's, detailOfUnit). */
  detail: PdfDetail;
}

/** The view of a parsed URL, with the defaults filled in (today's day, the preset's unit). */
export function resolveView(input: z.infer<typeof StatisticsViewSchema>, now: number): StatisticsView {
  const today = seoulDate(now);
  const anchor = input.date ?? today;
  let start: string;
  let end: string;
  if (input.period === "custom") {
    start = input.start ?? input.date ?? today;
    end = input.end ?? start;
  } else {
    const p = presetPeriod(input.period, parseSeoul(anchor)!);
    start = seoulDate(p.start);
    end = lastDayOf(p);
  }
  return {
    report: input.report,
    plant: input.group === undefined ? input.plant : undefined,
    group: input.group,
    period: input.period,
    date: anchor,
    start,
    end,
    unit: input.unit ?? PRESET_DEFAULT_UNIT[input.period],
    sunRise: input.sunRise === "1",
    page: input.page,
    print: input.print === "1",
    detail: input.detail ?? detailOfUnit(input.unit ?? PRESET_DEFAULT_UNIT[input.period]),
  };
}

/** The search of a view, only what differs from the defaults; `over` replaces fields. */
export function viewSearch(view: StatisticsView, over: Partial<StatisticsView> = {}): string {
  const v = { ...view, ...over };
  const s = new URLSearchParams();
  if (v.report !== "integrated") s.set("report", v.report);
  if (v.group !== undefined) s.set("group", String(v.group));
  else if (v.plant) s.set("plant", v.plant);
  s.set("period", v.period);
  if (v.period === "custom") {
    s.set("start", v.start);
    s.set("end", v.end);
  } else s.set("date", v.date);
  if (v.unit !== PRESET_DEFAULT_UNIT[v.period]) s.set("unit", v.unit);
  if (v.sunRise) s.set("sunRise", "1");
  if (v.page > 1) s.set("page", String(v.page));
  if (v.print) s.set("print", "1");
  if (v.detail !== detailOfUnit(v.unit)) s.set("detail", v.detail);
  return s.toString();
}

/** The API's query of a view (SPEC §7 statistics parameters). */
export function apiQuery(view: StatisticsView): Record<string, string | number> {
  const q: Record<string, string | number> = { unit: view.unit, start: view.start, end: view.end };
  if (view.group !== undefined) {
    q.isGroup = 1;
    q.group = view.group;
  } else if (view.plant) q.plant = view.plant;
  if (view.sunRise) q.sunRise = 1;
  return q;
}

/** Rows of the step table per page on screen (the whole table is in the exports). */
export const STEP_ROWS_PER_PAGE = 100;
/** Rows per page of the print view (`print=1`): what a printed page run and the PDF hold. */
export const PRINT_ROWS_PER_PAGE = 500;

/** Rows of the step table per page of a view. */
export const rowsPerPage = (view: Pick<StatisticsView, "print">) => (view.print ? PRINT_ROWS_PER_PAGE : STEP_ROWS_PER_PAGE);

/** The page of the print view that holds the first row of a screen page (and back: print → screen). */
export function pageIn(view: Pick<StatisticsView, "page" | "print">, print: boolean): number {
  const first = (view.page - 1) * rowsPerPage(view);
  return Math.floor(first / rowsPerPage({ print })) + 1;
}
