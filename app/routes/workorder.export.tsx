/**
 * /workorder/export?<the list's search> — the filtered work orders as CSV, written by the API (GET
 * /api/workorder/export: every page, UTF-8 with a BOM, formula-like cells escaped) in the reader's language.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireSection } from "~/auth/section.server";
import { ApiFailure } from "~/models/api.server";
import { workOrderExport } from "~/models/workorder.server";
import { parseSearch } from "~/utils/form-action.server";
import { readPreferences } from "~/utils/preferences.server";
import { WorkOrderListQuerySchema } from "../../domain/contract/work-order";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "workorder");
  const q = parseSearch(WorkOrderListQuerySchema, request);
  try {
    const file = await workOrderExport(accessToken, q, readPreferences(request).locale);
    const headers = new Headers({ "Content-Type": file.contentType, "Cache-Control": "private, no-store" });
    if (file.disposition) headers.set("Content-Disposition", file.disposition);
    return new Response(file.body, { headers });
  } catch (error) {
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500)
      throw new Response(error.body.message, { status: error.status });
    throw error;
  }
}
