/**
 * The app promotion pop-up's two doors (SPEC §2 App promotion pop-up, §8 QR row):
 * - POST: "hide for 1 week" (`week`) sets NewAppOpenPop for 7 days; the other button closes (for this browser
 *   session without script). A plain form post redirects back; the dialog posts with `stay` and gets JSON.
 * - GET ?platform=android|ios: a click on a QR without script. On a device of that platform it goes to the
 *   store; elsewhere back to the page with the alert's text as the flash message.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { isPlatform, storeLinkDecision } from "../../domain/app-promo";
import { safeRedirectTarget } from "~/auth/session.server";
import { appPromoMessages } from "~/i18n/app-promo";
import { appPromoCloseCookie, storeUrl } from "~/models/app-promo.server";
import { assertCsrf } from "~/utils/csrf.server";
import { parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { redirectWithFlash } from "~/utils/flash.server";
import { readPreferences } from "~/utils/preferences.server";

const Search = z.object({ platform: searchParam.text(16), redirectTo: z.string().optional().catch(undefined) });

export async function loader({ request }: LoaderFunctionArgs) {
  const { platform, redirectTo } = parseSearch(Search, request);
  const back = safeRedirectTarget(redirectTo, request);
  if (!isPlatform(platform)) return redirect(back);
  const decision = storeLinkDecision(platform, { userAgent: request.headers.get("user-agent") });
  if (decision.open) return redirect(storeUrl(platform));
  const t = appPromoMessages(readPreferences(request).locale).appPromo;
  return redirectWithFlash(back, decision.alert === "android_only" ? t.androidOnly : t.iosOnly);
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  await assertCsrf(form, request);
  const headers = { "Set-Cookie": appPromoCloseCookie(form.get("week") === "1") };
  if (form.get("stay")) return json({ ok: true }, { headers });
  return redirect(safeRedirectTarget(form.get("redirectTo"), request), { headers });
}
