import type { Locale } from "../i18n";
import { readPreferences } from "./preferences.server";

/** The member's chosen language, for flash messages written by actions. */
export function localeOf(request: Request): Locale {
  return readPreferences(request).locale;
}
