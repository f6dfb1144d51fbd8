import { z } from "zod";
/** The body of every refusal of the /api (SPEC §5): a message code, field errors for forms, details. */
export const ApiErrorBody = z.object({
  message: z.string(),
  /** Field errors keyed by field name, for forms. */
  fields: z.record(z.string(), z.string()).optional(),
  isLogin: z.literal(false).optional(),
  retryAfter: z.number().optional(),
  /** Names that explain a refusal, e.g. what still depends on a group that cannot be deleted. */
  details: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
