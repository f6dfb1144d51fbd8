/** Logout (SPEC §4): call the API's logout, clear the token cookies, land on /login. */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { clearAuthCookieHeaders, isHttps, withCookies } from "~/auth/cookies.server";
import { assertCsrf } from "~/utils/csrf.server";
import { logout } from "~/models/member.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  await assertCsrf(await request.formData(), request);
  if (context.auth) {
    // The session ends on our side whatever the API answers.
    await logout(context.auth.accessToken).catch(() => undefined);
  }
  return redirect("/login", { headers: withCookies(clearAuthCookieHeaders(isHttps(request.url))) });
}
