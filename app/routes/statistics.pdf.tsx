/**
 * /statistics/pdf?<the report's search>&detail=summary|day|hour — the report as a PDF (issue 26): written by the
 * API page by page (GET /api/statistics/export?format=pdf, api/statistics/pdf-report.ts) and streamed through here
 * to the browser without being held. Complete: the summary, the totals and, at the detail chosen on the screen's
 * PDF form, every step by day or by hour. The form is a plain GET form, so it works without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireSection } from "~/auth/section.server";
import { statisticsExport } from "~/models/statistics.server";
import { readPreferences } from "~/utils/preferences.server";
import { orNotFound, parseSearch } from "~/utils/form-action.server";
import { resolveView, StatisticsViewSchema } from "../../domain/statistics-view";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = requireSection(request, context, "statistics");
  const view = resolveView(parseSearch(StatisticsViewSchema, request), Date.now());
  const { locale } = readPreferences(request);
  const file = await orNotFound(statisticsExport(auth.accessToken, view, "pdf", locale, view.detail));
  const headers = new Headers({ "Content-Type": file.contentType, "Cache-Control": "private, no-store" });
  if (file.disposition) headers.set("Content-Disposition", file.disposition);
  return new Response(file.body, { status: 200, headers });
}
