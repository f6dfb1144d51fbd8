/**
 * Contract of the curtailment and output-limit orders (issue 28 §3): a plant's orders from the grid (KPX, the grid
 * operator) or its owner to hold its output at or below a limit over [start, end). Payload types and the zod schemas
 * shared by the API routes (api/routes/curtailment.ts) and the portal's settings screen. Times are Seoul wall-clock
 * 'YYYY-MM-DD HH:mm' (seconds allowed), like every period of the API.
 */
import { z } from "zod";
import { parseSeoul } from "../seoul-time";

export const CURTAILMENT_SOURCES = ["kpx", "grid_operator", "owner"] as const;
export type CurtailmentSource = (typeof CURTAILMENT_SOURCES)[number];
/** A limit in kW, or in % of the plant's capacity. */
export const LIMIT_UNITS = ["kw", "pct"] as const;
export type LimitUnit = (typeof LIMIT_UNITS)[number];

/** Most rows one CSV import takes. */
export const CURTAILMENT_IMPORT_MAX_ROWS = 1_000;
export const CURTAILMENT_NOTE_MAX = 200;

const when = z
  .string({ required_error: "required", invalid_type_error: "required" })
  .trim()
  .min(1, "required")
  .max(19, "too_long")
  .refine((v) => parseSeoul(v) !== null, "bad_date");

/** One order as the API takes it (POST, PUT). Capacity-dependent checks: orderProblems. */
export const CurtailmentOrderBody = z
  .object({
    start: when,
    end: when,
    limitValue: z
      .number({ required_error: "required", invalid_type_error: "not_a_number" })
      .finite("not_a_number")
      .gt(0, "too_small"),
    limitUnit: z.enum(LIMIT_UNITS, { errorMap: () => ({ message: "bad_unit" }) }),
    source: z.enum(CURTAILMENT_SOURCES, { errorMap: () => ({ message: "bad_source" }) }),
    note: z.string({ invalid_type_error: "required" }).trim().max(CURTAILMENT_NOTE_MAX, "too_long").default(""),
  })
  .strict();
export type CurtailmentOrderInput = z.infer<typeof CurtailmentOrderBody>;

/** GET /plants/{uid}/curtailment?start&end: the orders overlapping the window (all of them without one). */
export const CurtailmentListQuery = z.object({
  start: when.optional(),
  end: when.optional(),
});

/** POST /plants/{uid}/curtailment/import: the CSV text (header start,end,limit,unit,source,note). */
export const CurtailmentImportBody = z
  .object({ csv: z.string({ required_error: "required" }).min(1, "required").max(200_000, "too_long") })
  .strict();

export const CurtailmentOrder = z.object({
  id: z.number(),
  plantUid: z.string(),
  /** Seoul 'YYYY-MM-DD HH:mm'. */
  start: z.string(),
  end: z.string(),
  /** Epoch ms of start and end. */
  from: z.number(),
  to: z.number(),
  limitValue: z.number(),
  limitUnit: z.enum(LIMIT_UNITS),
  /** The limit in kW (a % limit over the plant's capacity now). */
  limitKw: z.number(),
  source: z.enum(CURTAILMENT_SOURCES),
  note: z.string(),
});
export type CurtailmentOrder = z.infer<typeof CurtailmentOrder>;

export const CurtailmentListResponse = z.object({
  plantUid: z.string(),
  capacityKw: z.number(),
  orders: z.array(CurtailmentOrder),
});
export type CurtailmentListResponse = z.infer<typeof CurtailmentListResponse>;

export const CurtailmentImportResponse = z.object({ imported: z.number() });
export type CurtailmentImportResponse = z.infer<typeof CurtailmentImportResponse>;

/** A row of a refused import: its line in the file (1 = the header) and its field errors. */
export interface CurtailmentImportRowError {
  line: number;
  fields: Record<string, string>;
}

/**
 * The checks an order's schema cannot make alone: end after start, and the limit within the plant's capacity (a kW
 * limit at most the capacity, a % limit at most 100). Field → problem; empty when the order is sound.
 */
export function orderProblems(o: CurtailmentOrderInput, capacityKw: number): Record<string, string> {
  const out: Record<string, string> = {};
  const from = parseSeoul(o.start);
  const to = parseSeoul(o.end);
  if (from !== null && to !== null && !(to > from)) out.end = "end_before_start";
  if (o.limitUnit === "pct" && o.limitValue > 100) out.limitValue = "above_100_pct";
  if (o.limitUnit === "kw" && capacityKw > 0 && o.limitValue > capacityKw) out.limitValue = "above_capacity";
  return out;
}

/** The limit of an order in kW. */
export function limitKw(value: number, unit: LimitUnit, capacityKw: number): number {
  return unit === "pct" ? (capacityKw * value) / 100 : value;
}
