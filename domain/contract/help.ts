/** Contract of the help calls (SPEC §7 GET /help/file/{id}; the list and search GET /help/file is ours). */
import { z } from "zod";
import { HELP_ID, HELP_LANGS, HELP_QUERY_MAX, type HelpLang } from "../help";

export const HelpFileQuery = z.object({
  lang: z.enum(HELP_LANGS, { errorMap: () => ({ message: "invalid_lang" }) }).default("ko"),
});
export const HelpFileId = z.string().regex(HELP_ID, "invalid_id");
export const HelpListQuery = HelpFileQuery.extend({ q: z.string().trim().max(HELP_QUERY_MAX, "too_long").default("") });

export interface HelpFile {
  id: string;
  lang: HelpLang;
  title: string;
  /** The article's Markdown source; the portal renders and sanitises it. */
  markdown: string;
}

export interface HelpListResponse {
  lang: HelpLang;
  q: string;
  /** Every article in reading order, or with `q` the matching ones, best first, each with an excerpt. */
  helpList: Array<{ id: string; title: string; excerpt: string | null }>;
}
