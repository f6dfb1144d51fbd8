/**
 * Login through remix-auth's form strategy: the verify step calls POST /api/member/login and
 * hands back the API's tokens; the route stores them in the session cookies.
 */
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { LoginResponse } from "../../domain/contract/auth";
import { GUEST_ID, GUEST_PASSWORD } from "../../domain/guest";
import { ApiFailure } from "../models/api.server";
import { DEVICE_COOKIE, readCookies } from "./cookies.server";
import { login } from "../models/member.server";

export type LoginError =
  { kind: "required" } | { kind: "failure" } | { kind: "tooMany"; retryAfter: number } | { kind: "unavailable" };

export class LoginRejected extends Error {
  constructor(public reason: LoginError) {
    super(reason.kind);
  }
}

export function createAuthenticator(clientIp: string): Authenticator<LoginResponse> {
  const authenticator = new Authenticator<LoginResponse>();
  authenticator.use(
    new FormStrategy(async ({ form, request }) => {
      const guest = form.get("intent") === "guest";
      const id = guest ? GUEST_ID : String(form.get("id") ?? "").trim();
      const password = guest ? GUEST_PASSWORD : String(form.get("password") ?? "");
      if (!id || !password) throw new LoginRejected({ kind: "required" });
      try {
        return await login(id, password, clientIp, readCookies(request.headers.get("cookie"))[DEVICE_COOKIE]);
      } catch (error) {
        if (error instanceof ApiFailure && error.status === 429) {
          throw new LoginRejected({ kind: "tooMany", retryAfter: error.body.retryAfter ?? 1 });
        }
        if (error instanceof ApiFailure && error.status < 500) throw new LoginRejected({ kind: "failure" });
        throw new LoginRejected({ kind: "unavailable" });
      }
    }),
    "form",
  );
  return authenticator;
}
