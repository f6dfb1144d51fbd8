/** Help calls of the portal (SPEC §7 GET /help/file/{id}; GET /help/file lists and searches). */
import type { HelpFile, HelpListResponse } from "../../domain/contract/help";
import type { HelpLang } from "../../domain/help";
import { api } from "./api.server";

export const helpList = (token: string, lang: HelpLang, q: string) =>
  api<HelpListResponse>("/help/file", { token, query: { lang, q: q || undefined } });

export const helpFile = (token: string, id: string, lang: HelpLang) =>
  api<HelpFile>(`/help/file/${encodeURIComponent(id)}`, { token, query: { lang } });
