/**
 * One-time confirmation after a successful post: the action redirects with a flash cookie,
 * the next page shows it once (works without JavaScript, no double submit on reload).
 */
import { redirect } from "@remix-run/node";
import { serialize } from "cookie";
import { readCookies } from "../auth/cookies.server";

const NAME = "flash";

export function redirectWithFlash(to: string, message: string, init: { headers?: Headers } = {}) {
  const headers = new Headers(init.headers);
  headers.append(
    "Set-Cookie",
    serialize(NAME, encodeURIComponent(message), { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 }),
  );
  return redirect(to, { headers });
}

/** Reads and clears the flash message; the Set-Cookie must go on the loader's response. */
export function takeFlash(request: Request): { message: string | null; clear: string | null } {
  const value = readCookies(request.headers.get("cookie"))[NAME];
  if (!value) return { message: null, clear: null };
  let message: string | null = null;
  try {
    message = decodeURIComponent(value);
  } catch {
    message = null;
  }
  return { message, clear: serialize(NAME, "", { path: "/", maxAge: 0 }) };
}
