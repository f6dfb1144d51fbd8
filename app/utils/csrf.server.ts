/** CSRF protection for every cookie-authenticated form post (signed double-submit token). */
import { createCookie } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { sessionSecret } from "./env.server";

let csrf: CSRF | undefined;
function instance(): CSRF {
  csrf ??= new CSRF({
    cookie: createCookie("csrf", { path: "/", httpOnly: true, sameSite: "lax", secure: false, secrets: [sessionSecret()] }),
    formDataKey: "csrf",
    secret: sessionSecret(),
  });
  return csrf;
}

export function commitCsrfToken(request: Request) {
  return instance().commitToken(request);
}

/** Throws a 403 response when the form's token does not match the cookie. */
export async function assertCsrf(form: FormData, request: Request): Promise<void> {
  try {
    await instance().validate(form, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) throw new Response("Invalid form token. Reload the page and try again.", { status: 403 });
    throw error;
  }
}
