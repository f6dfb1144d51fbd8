/**
 * The /api contract of work orders (issue 29 §3): request schemas (the API parses with them; api/openapi-zod.ts
 * describes them) and the answers' types, imported by the API routes and the portal's model alike.
 */
import { z } from "zod";
import { parseSeoul } from "../seoul-time";
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATES, type WorkOrderPriority, type WorkOrderState } from "../work-order";
import { wholeNumber } from "./params";

/** A due day, 'YYYY-MM-DD' (Seoul); the schema checks it is a real day. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "not_a_date")
  .refine((s) => parseSeoul(s) !== null, "not_a_date");

const uid = z.string().trim().min(1, "required").max(64, "too_long");
const state = z.enum(WORK_ORDER_STATES, { errorMap: () => ({ message: "unknown_state" }) });
const priority = z.enum(WORK_ORDER_PRIORITIES, { errorMap: () => ({ message: "unknown_priority" }) });

export const WORK_ORDER_MAX_DEVICES = 50;
export const WORK_ORDER_MAX_ALARMS = 50;

const fields = {
  title: z.string().trim().min(1, "required").max(200, "too_long"),
  description: z.string().trim().max(4000, "too_long"),
  priority,
  assignee: uid.nullable(),
  dueDate: day.nullable(),
  devices: z.array(uid).max(WORK_ORDER_MAX_DEVICES, "too_many"),
  alarms: z
    .array(
      z
        .number()
        .int("not_a_number")
        .min(1, "too_small")
        .max(2 ** 31 - 1, "too_large"),
    )
    .max(WORK_ORDER_MAX_ALARMS, "too_many"),
};

export const WorkOrderCreateSchema = z
  .object({
    plant: uid,
    title: fields.title,
    description: fields.description.default(""),
    priority: priority.default("normal"),
    assignee: fields.assignee.optional().default(null),
    dueDate: fields.dueDate.optional().default(null),
    devices: fields.devices.default([]),
    alarms: fields.alarms.default([]),
  })
  .strict();
export type WorkOrderCreate = z.infer<typeof WorkOrderCreateSchema>;

/** The fields to change (at least one); the plant never changes. */
export const WorkOrderUpdateSchema = z
  .object({
    title: fields.title.optional(),
    description: fields.description.optional(),
    priority: priority.optional(),
    assignee: fields.assignee.optional(),
    dueDate: fields.dueDate.optional(),
    devices: fields.devices.optional(),
    alarms: fields.alarms.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "nothing_to_change", path: ["_"] });
export type WorkOrderUpdate = z.infer<typeof WorkOrderUpdateSchema>;

export const WorkOrderStateSchema = z
  .object({ state, note: z.string().trim().max(2000, "too_long").optional().default("") })
  .strict();
export const WorkOrderNoteSchema = z.object({ note: z.string().trim().min(1, "required").max(2000, "too_long") }).strict();

export const WORK_ORDER_PAGE_SIZES = [20, 50, 100] as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "too_long")
    .transform((s) => (s === "" ? undefined : s))
    .optional();

/** An empty query parameter (a form's "any" choice) is no filter. */
const blank = (v: unknown) => (v === "" ? undefined : v);

/** The list's filters (query parameters; also the portal's URL state). */
export const WorkOrderListQuerySchema = z.object({
  state: z.preprocess(blank, state.optional()),
  plant: optionalText(64),
  assignee: optionalText(64),
  priority: z.preprocess(blank, priority.optional()),
  dueBefore: z.preprocess(blank, day.optional()),
  q: optionalText(100),
  page: wholeNumber(1, 100_000).default(1),
  size: z.coerce
    .number({ invalid_type_error: "not_a_number" })
    .int("not_a_number")
    .refine((v) => (WORK_ORDER_PAGE_SIZES as readonly number[]).includes(v), "unknown_page_size")
    .default(50),
});
export type WorkOrderListQuery = z.infer<typeof WorkOrderListQuerySchema>;

export interface WorkOrderRow {
  id: number;
  plant_uid: string;
  plantName: string;
  title: string;
  description: string;
  priority: WorkOrderPriority;
  state: WorkOrderState;
  assignee: string | null;
  assigneeName: string | null;
  dueDate: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface WorkOrderHistoryEntry {
  seq: number;
  /** note: a note; state: a state change (from → to, with the note given with it); assigned: the assignee set. */
  kind: "created" | "note" | "state" | "assigned";
  author: string;
  authorName: string | null;
  at: number;
  note: string | null;
  fromState: WorkOrderState | null;
  toState: WorkOrderState | null;
  assignee: string | null;
}

export interface WorkOrderDetail extends WorkOrderRow {
  devices: Array<{ uid: string; name: string }>;
  alarms: Array<{ seq: number; code: number; level: number; raised_at: number; released_at: number | null }>;
  history: WorkOrderHistoryEntry[];
  /** Photos attached (their bytes at GET /workorder/{id}/photo/{seq}). */
  photos: Array<{ seq: number; contentType: string; size: number; author: string; at: number }>;
  /** The states it may move to now (domain/work-order.ts). */
  nextStates: WorkOrderState[];
}

export interface WorkOrderListResponse {
  workOrders: WorkOrderRow[];
  total: number;
  page: number;
  size: number;
}
