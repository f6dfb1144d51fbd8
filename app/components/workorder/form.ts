/**
 * The work order form as the portal submits it (strings; repeated checkboxes), turned into the API's body:
 * an empty assignee or due day is none. The API checks the rest again (domain/contract/work-order.ts).
 */
import { z } from "zod";
import { WORK_ORDER_PRIORITIES } from "../../../domain/work-order";

const list = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
const orNull = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "too_long")
    .optional()
    .transform((s) => (s ? s : null));

export const WorkOrderForm = z.object({
  title: z.string().trim().min(1, "required").max(200, "too_long"),
  description: z.string().trim().max(4000, "too_long").optional().default(""),
  priority: z.enum(WORK_ORDER_PRIORITIES, { errorMap: () => ({ message: "unknown_priority" }) }).default("normal"),
  assignee: orNull(64),
  dueDate: orNull(10).refine((s) => s === null || /^\d{4}-\d{2}-\d{2}$/.test(s), "not_a_date"),
  devices: list,
  alarms: list.transform((v, ctx) => {
    const out = v.map(Number);
    if (out.some((n) => !Number.isInteger(n) || n < 1)) ctx.addIssue({ code: "custom", message: "invalid" });
    return out;
  }),
});

export const NoteForm = z.object({ note: z.string().trim().min(1, "required").max(2000, "too_long") });
export const MoveForm = z.object({ note: z.string().trim().max(2000, "too_long").optional().default("") });
