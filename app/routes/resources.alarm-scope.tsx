/**
 * Names of the member's plants and groups that hold `q`, for the alarm screen's scope field while typing
 * (ScopeFinder's fetcher). A browser navigating here (Sec-Fetch-Dest: document) is a person wanting the alarm screen.
 */
import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireSection } from "~/auth/section.server";
import { alarmScope } from "~/models/alarm.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // A browser's own navigation (not the fetcher's request) goes to the alarm screen. Not by `_data`: Remix takes that
  // parameter off the URL before a loader sees it, so every fetcher answer was a redirect that navigated the page
  // to /alarm 250 ms after typing (and threw away a scope just chosen).
  if (request.headers.get("sec-fetch-dest") === "document") return redirect("/alarm");
  const { accessToken } = requireSection(request, context, "alarm");
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  if (!q) return json({ names: [] as string[] });
  const { matches } = await alarmScope(accessToken, { q, limit: 10 });
  const names = matches ? [...matches.plants.map((p) => p.name), ...matches.groups.map((g) => g.name)] : [];
  return json({ names }, { headers: { "Cache-Control": "private, max-age=30" } });
}
