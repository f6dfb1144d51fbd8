/**
 * Names that hold `q`, for a screen's name search field while typing (components/NameFinder.tsx's fetcher):
 * `in=alarm` (and `in=control`) the member's plants and groups (the alarm and control screens' scope), `in=measurement` the member's plants with
 * devices. A browser navigating here (Sec-Fetch-Dest: document) is a person wanting that screen.
 */
import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireSection } from "~/auth/section.server";
import { alarmScope } from "~/models/alarm.server";
import { measurementDevices } from "~/models/measurement.server";
import { searchText } from "../../domain/search-text";

export type NameSection = "alarm" | "measurement" | "control";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("in");
  const section: NameSection = asked === "measurement" || asked === "control" ? asked : "alarm";
  // A browser's own navigation (not the fetcher's request) goes to the screen. Not by `_data`: Remix takes that
  // parameter off the URL before a loader sees it, so every fetcher answer would be a redirect that navigates.
  if (request.headers.get("sec-fetch-dest") === "document") return redirect(`/${section}`);
  const { accessToken } = requireSection(request, context, section);
  const q = searchText(url.searchParams.get("q"), 100);
  if (!q) return json({ names: [] as string[] });
  let names: string[];
  // The control screen's scope is the alarm screen's: the member's plants and groups.
  if (section === "alarm" || section === "control") {
    const { matches } = await alarmScope(accessToken, { q, limit: 10 });
    names = matches ? [...matches.plants.map((p) => p.name), ...matches.groups.map((g) => g.name)] : [];
  } else {
    const { matches } = await measurementDevices(accessToken, { q, limit: 10 });
    names = matches ? matches.plants.map((p) => p.name) : [];
  }
  return json({ names }, { headers: { "Cache-Control": "private, max-age=30" } });
}
