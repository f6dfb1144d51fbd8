/**
 * The three session cookies of SPEC §3 Storage: accessToken, refreshToken, sessionId.
 * HttpOnly, SameSite=Lax, Secure when the portal is served over https; they live as long as the session.
 */
import { parse, serialize } from "cookie";
import { decodeTokenPayload, type LoginResponse } from "../../domain/contract/auth";

export const AUTH_COOKIES = ["accessToken", "refreshToken", "sessionId"] as const;

export function readCookies(header: string | null | undefined): Record<string, string | undefined> {
  return parse(header ?? "");
}

export function isHttps(url: string): boolean {
  return url.startsWith("https:");
}

/** The login throttle's device cookie (api/auth/device-token.ts): kept a year, across logouts. */
export const DEVICE_COOKIE = "device";

export function authCookieHeaders(tokens: LoginResponse, secure: boolean): string[] {
  const refresh = decodeTokenPayload<{ exp?: number }>(tokens.refreshToken);
  const maxAge = refresh?.exp ? Math.max(0, refresh.exp - Math.floor(Date.now() / 1000)) : undefined;
  const options = { httpOnly: true, sameSite: "lax" as const, secure, path: "/", maxAge };
  return [
    serialize("accessToken", tokens.accessToken, options),
    serialize("refreshToken", tokens.refreshToken, options),
    serialize("sessionId", tokens.sessionId, options),
    ...(tokens.deviceToken ? [serialize(DEVICE_COOKIE, tokens.deviceToken, { ...options, maxAge: 365 * 86_400 })] : []),
  ];
}

export function clearAuthCookieHeaders(secure: boolean): string[] {
  return AUTH_COOKIES.map((name) =>
    serialize(name, "", { httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: 0, expires: new Date(0) }),
  );
}

export function withCookies(cookies: string[], headers: HeadersInit = {}): Headers {
  const h = new Headers(headers);
  for (const c of cookies) h.append("Set-Cookie", c);
  return h;
}
