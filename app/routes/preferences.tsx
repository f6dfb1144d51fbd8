/** Sets the theme (onThemeValue) or language cookie and returns to the page it came from. */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectTarget } from "~/auth/session.server";
import { assertCsrf } from "~/utils/csrf.server";
import { isLocale } from "~/i18n";
import { localeCookie, themeCookie } from "~/utils/preferences.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  await assertCsrf(form, request);
  const headers = new Headers();
  const theme = form.get("theme");
  if (theme === "dark" || theme === "default") headers.append("Set-Cookie", themeCookie(theme));
  const lang = form.get("lang");
  if (isLocale(lang)) headers.append("Set-Cookie", localeCookie(lang));
  return redirect(safeRedirectTarget(form.get("redirectTo"), request), { headers });
}
