/**
 * /statistics/pdf?<the report's search> — the printed report as a PDF, rendered by Chromium (app/pdf.server.ts).
 * The page is fetched here once with the member's current access token (so the headless browser never holds
 * the refresh token, whose rotation belongs to the member's own browser) and printed with the print stylesheet.
 * Without Chromium: 404, and the report page tells how to print to PDF from the browser.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireSection } from "~/auth/section.server";
import { chromiumPath, renderPdf } from "~/pdf.server";
import { readPreferences } from "~/utils/preferences.server";
import { parseSearch } from "~/utils/form-action.server";
import { APP_PROMO_CLOSED_COOKIE } from "../../domain/app-promo";
import { resolveView, StatisticsViewSchema, viewSearch } from "../../domain/statistics-view";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = requireSection(request, context, "statistics");
  if (!chromiumPath()) throw new Response("no_chromium", { status: 404 });
  const view = resolveView(parseSearch(StatisticsViewSchema, request), Date.now());
  const { locale } = readPreferences(request);
  const origin = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  const url = `${origin}/statistics?${viewSearch(view, { print: true, page: 1 })}`;
  const pdf = await renderPdf(url, [
    { name: "accessToken", value: auth.accessToken },
    { name: "lang", value: locale },
    // Printed on white whatever the screen's theme.
    { name: "onThemeValue", value: "default" },
    // A fresh headless browser would get the app promotion pop-up over the first page (closed for its session).
    { name: APP_PROMO_CLOSED_COOKIE, value: "1" },
  ]);
  const name = `statistics-${view.report}-${view.start}.pdf`;
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
