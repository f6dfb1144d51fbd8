/** Theme (cookie onThemeValue, SPEC §3) and language preferences, readable without JS. */
import { serialize } from "cookie";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../i18n";
import { readCookies } from "../auth/cookies.server";

export type Theme = "default" | "dark";
const YEAR = 365 * 24 * 3600;

export function readPreferences(request: Request): { theme: Theme; locale: Locale } {
  const cookies = readCookies(request.headers.get("cookie"));
  const theme: Theme = cookies.onThemeValue === "dark" ? "dark" : "default";
  const locale = isLocale(cookies.lang) ? cookies.lang : DEFAULT_LOCALE;
  return { theme, locale };
}

export function themeCookie(theme: Theme): string {
  return serialize("onThemeValue", theme, { path: "/", maxAge: YEAR, sameSite: "lax" });
}

export function localeCookie(locale: Locale): string {
  return serialize("lang", locale, { path: "/", maxAge: YEAR, sameSite: "lax" });
}
