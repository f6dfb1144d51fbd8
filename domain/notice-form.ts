/** Notices (SPEC §3 Notice: content, use, seq): one schema for the API and the notice forms. */
import { z } from "zod";
import { flag, toInt } from "./member-form";

export const NOTICE_MAX = 2000;

export const NoticeFields = z.object({
  content: z
    .string({ required_error: "required", invalid_type_error: "required" })
    .trim()
    .min(1, "required")
    .max(NOTICE_MAX, "too_long"),
  use: flag,
});
export type NoticeInput = z.infer<typeof NoticeFields>;

/** DELETE /api/notice: one seq or many (noticesSeq), plus the typed confirmation. */
export const NoticeDeleteFields = z.object({
  noticesSeq: z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === "") return undefined;
      const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : [v];
      return list.map(toInt);
    },
    z
      .array(z.number().int().positive(), { required_error: "required", invalid_type_error: "invalid" })
      .min(1, "required")
      .max(500, "invalid"),
  ),
  confirm: z.unknown(),
});

export type { NoticeRow } from "./contract/admin";
