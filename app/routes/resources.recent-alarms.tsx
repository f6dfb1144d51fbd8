/**
 * Recent alarms for the dashboard's fetcher (every 660 000 ms, SPEC §9). A browser without JS that
 * submits the refresh form lands here as a document request and is sent back to the dashboard.
 */
import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAuth } from "~/auth/session.server";
import { shownMinute } from "~/components/status/format";
import { alarmCount, recentAlarms } from "~/models/status.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  // A browser's own navigation (not the fetcher's request) is a person wanting the page again. Not by `_data`:
  // Remix takes that parameter off the URL before a loader sees it (see resources.alarm-scope.tsx).
  if (request.headers.get("sec-fetch-dest") === "document") return redirect("/");
  const { accessToken } = requireAuth(request, context);
  const [alarms, count] = await Promise.all([recentAlarms(accessToken), alarmCount(accessToken)]);
  return json(
    { alarms, open: count.alarm_count, at: shownMinute(Date.now()) },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}
