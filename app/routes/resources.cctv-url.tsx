/**
 * A fresh signed stream URL and the camera's state for the camera player (GET /cctv/url through the portal,
 * which holds the member's token). A browser landing here as a document (Sec-Fetch-Dest) is sent to the camera screen.
 */
import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireSection } from "~/auth/section.server";
import { cameraUrl } from "~/models/cctv.server";
import { orNotFound, parseSearch } from "~/utils/form-action.server";

const Search = z.object({ uid: z.string().trim().min(1, "required").max(40, "too_long") });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { uid } = parseSearch(Search, request);
  // A browser's own navigation (not the player's fetcher) goes to the camera screen. Not by `_data`: Remix takes
  // that parameter off the URL before a loader sees it (see resources.alarm-scope.tsx).
  if (request.headers.get("sec-fetch-dest") === "document") return redirect(`/cctv?${new URLSearchParams({ camera: uid })}`);
  const { accessToken } = requireSection(request, context, "cctv");
  return json(await orNotFound(cameraUrl(accessToken, uid)), { headers: { "Cache-Control": "no-store" } });
}
