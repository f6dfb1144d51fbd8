/**
 * Closes the after-login notice pop-up. "Don't show for a week" sets onWeekCloseModal for 7 days
 * (SPEC §3 Storage, path /); a plain close hides it for the rest of this session. A plain form post
 * (no JS) redirects back; the JS dialog posts with `stay` and gets JSON.
 */
import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { withCookies } from "~/auth/cookies.server";
import { requireAuth, safeRedirectTarget } from "~/auth/session.server";
import { assertCsrf } from "~/utils/csrf.server";
import { noticeCloseCookies } from "~/models/notices.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = requireAuth(request, context, { allowPendingPassword: true });
  const form = await request.formData();
  await assertCsrf(form, request);
  const headers = withCookies(noticeCloseCookies(auth, !!form.get("week")));
  if (form.get("stay")) return json({ ok: true }, { headers });
  return redirect(safeRedirectTarget(form.get("redirectTo"), request), { headers });
}
