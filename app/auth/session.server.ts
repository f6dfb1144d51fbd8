/** Guards for loaders and actions: who is signed in, and where to send those who are not. */
import { redirect, type AppLoadContext } from "@remix-run/node";
import { localRedirectTarget } from "../../domain/redirect-target";
import type { PortalAuth } from "./load-context.server";

export const PASSWORD_CHANGE_PATH = "/modify";

function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return back === "/" || back.startsWith("/login") ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`;
}

/**
 * The signed-in member, or a redirect to /login. A member who must change the password
 * is held on the password page until it is done (pwd_yn).
 */
export function requireAuth(
  request: Request,
  context: AppLoadContext,
  opts: { allowPendingPassword?: boolean } = {},
): PortalAuth {
  const auth = context.auth;
  if (!auth) throw redirect(loginUrl(request));
  if (auth.user.pwd_yn === 1 && !opts.allowPendingPassword) {
    throw redirect(`${PASSWORD_CHANGE_PATH}?required=1`);
  }
  return auth;
}

/** Only targets on our own origin, read as the browser will read them, are allowed (else "/"). */
export function safeRedirectTarget(value: FormDataEntryValue | string | null | undefined, request: Request): string {
  return localRedirectTarget(value, new URL(request.url).origin);
}
