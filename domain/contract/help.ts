/** Contract of the help calls (SPEC §7 GET /help/file/{id}; the list and search GET /help/file is ours). */
import { z } from "zod";
import { HelpLang } from "./shared";
import { HELP_ID, HELP_LANGS, HELP_QUERY_MAX } from "../help";

export const HelpFileQuery = z.object({
  lang: z.enum(HELP_LANGS, { errorMap: () => ({ message: "invalid_lang" }) }).default("ko"),
});
export const HelpFileId = z.string().regex(HELP_ID, "invalid_id");
export const HelpListQuery = HelpFileQuery.extend({ q: z.string().trim().max(HELP_QUERY_MAX, "too_long").default("") });

export const HelpFile = z.object({
  id: z.string(),
  lang: HelpLang,
  title: z.string(),
  /** The article's Markdown source; the portal renders and sanitises it. */
  markdown: z.string(),
});
export type HelpFile = z.infer<typeof HelpFile>;

export const HelpListResponse = z.object({
  lang: HelpLang,
  q: z.string(),
  /** Every article in reading order, or with `q` the matching ones, best first, each with an excerpt. */
  helpList: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      excerpt: z.string().nullable(),
    }),
  ),
});
export type HelpListResponse = z.infer<typeof HelpListResponse>;
