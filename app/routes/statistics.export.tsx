/**
 * /statistics/export?format=csv|xlsx&lang=&<the report's search> — the report the page shows as a file,
 * streamed from the API (GET /api/statistics/export) to the browser without being held here.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireSection } from "~/auth/section.server";
import { statisticsExport } from "~/models/statistics.server";
import { orNotFound, parseSearch } from "~/utils/form-action.server";
import { z } from "zod";
import { resolveView, StatisticsViewSchema } from "../../domain/statistics-view";

const ExportSearch = StatisticsViewSchema.extend({
  format: z.enum(["csv", "xlsx"], { errorMap: () => ({ message: "unknown_format" }) }),
  lang: z.enum(["ko", "en"]).default("ko"),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = requireSection(request, context, "statistics");
  const search = parseSearch(ExportSearch, request);
  const view = resolveView(search, Date.now());
  const file = await orNotFound(statisticsExport(auth.accessToken, view, search.format, search.lang));
  const headers = new Headers({ "Content-Type": file.contentType, "Cache-Control": "private, no-store" });
  if (file.disposition) headers.set("Content-Disposition", file.disposition);
  return new Response(file.body, { status: 200, headers });
}
