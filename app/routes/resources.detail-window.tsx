/**
 * Opens a detail window (SPEC §1, §2 Detail window) from the main host: asks the API for a one-time
 * handover code for this plant or member (POST /api/member/detail) and redirects the new window to the
 * detail host's /setNewToken/{newPlantWindow|newMemberWindow}/ with name, uid, theme (and the code).
 * A plain link with target=_blank works without JS. When the API refuses (204) the window still goes
 * there without a code, so it shows the Korean error of SPEC §2 and closes.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireAuth } from "~/auth/session.server";
import { detailUrlFor, isDetailHost } from "~/utils/detail-host.server";
import { handoverCode } from "~/models/detail.server";
import { readPreferences } from "~/utils/preferences.server";
import { parseSearch } from "~/utils/form-action.server";

const Query = z.object({
  kind: z.enum(["plant", "member"]),
  uid: z.string().trim().min(1).max(64),
  name: z.string().trim().max(100).default(""),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (isDetailHost(request)) throw new Response("forbidden", { status: 403 });
  const { kind, uid, name } = parseSearch(Query, request);
  const auth = requireAuth(request, context);
  const code = await handoverCode(auth.accessToken, kind === "plant" ? { plant: uid } : { member: uid });
  const theme = readPreferences(request).theme === "dark" ? "dark" : "default";
  const target = detailUrlFor(request, kind === "plant" ? "newPlantWindow" : "newMemberWindow", {
    name: name || uid,
    uid,
    theme,
  });
  if (!target) throw new Response("the detail window needs a host name (not an IP address)", { status: 400 });
  const url = new URL(target);
  if (code) url.searchParams.set("code", code);
  return redirect(url.toString(), { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}
