/**
 * The /api contract of the tamper-evident command and acknowledgement log (issue 29 §1; domain/audit-chain.ts):
 * GET /audit (a page of entries of a plant and period) and GET /audit/verify (is the chain intact).
 */
import { z } from "zod";
import { AUDIT_KINDS, type BrokenReason } from "../audit-chain";
import { parseSeoul } from "../seoul-time";
import { wholeNumber } from "./params";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "not_a_date")
  .refine((s) => parseSeoul(s) !== null, "not_a_date");

/** The longest period one page of the log covers. */
export const AUDIT_MAX_PERIOD_DAYS = 366;
export const AUDIT_PAGE_SIZES = [50, 100, 500] as const;

export const AuditQuerySchema = z
  .object({
    plant: z
      .string()
      .trim()
      .max(64, "too_long")
      .transform((s) => (s === "" ? undefined : s))
      .optional(),
    start: day,
    end: day,
    kind: z.enum(AUDIT_KINDS, { errorMap: () => ({ message: "unknown_kind" }) }).optional(),
    page: wholeNumber(1, 100_000).default(1),
    size: wholeNumber(1, 500).default(50),
  })
  .superRefine((q, ctx) => {
    if (q.start > q.end) ctx.addIssue({ code: "custom", path: ["end"], message: "end_before_start" });
    else if ((parseSeoul(q.end)! - parseSeoul(q.start)!) / 86_400_000 >= AUDIT_MAX_PERIOD_DAYS)
      ctx.addIssue({ code: "custom", path: ["end"], message: "period_too_long" });
  });
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export interface AuditRow {
  seq: number;
  at: number;
  kind: (typeof AUDIT_KINDS)[number];
  plant_uid: string | null;
  plantName: string | null;
  ref_seq: number | null;
  member_id: string | null;
  /** The entry's recorded fields (command, outcome, acknowledgement note), parsed from the hashed JSON text. */
  detail: Record<string, unknown>;
  hash: string;
}

export interface AuditListResponse {
  rows: AuditRow[];
  total: number;
  page: number;
  size: number;
}

export interface AuditVerifyResponse {
  intact: boolean;
  /** Entries found good before the first broken one (all of them when intact). */
  checked: number;
  broken: { seq: number; reason: BrokenReason; at: number | null } | null;
  verifiedAt: number;
}
