/**
 * Lenient search-param fields for the schemas given to `parseSearch` (form-action.server.ts). Not a .server module:
 * route modules build their search schemas at module level, and the browser's copy of a route module must be able to
 * evaluate them (the compiler empties .server modules in the client bundle).
 */
import { z } from "zod";
import { searchText } from "../../domain/search-text";

/**
 * Lenient fields for a list's filters in its URL (a GET form): a value that is absent, repeated or not one of the
 * allowed ones reads as the default, so a stale bookmark shows the unfiltered list rather than an error page.
 * Use them in the schema given to `parseSearch`; a field that must be right (an id the page is about) is written
 * strictly and answers 400.
 */
export const searchParam = {
  /** Free text without control characters (the API refuses NUL), trimmed and cut to `max` characters; "" when absent. */
  text: (max = 100) =>
    z
      .string()
      .transform((s) => searchText(s, max))
      .catch(""),
  /** One of `values`, else `fallback` ("" = no filter). */
  oneOf: <const T extends string, const F extends string = "">(values: readonly T[], fallback: F = "" as F) =>
    z
      .string()
      .transform((v): T | F => ((values as readonly string[]).includes(v) ? (v as T) : fallback))
      .catch(fallback),
  /** Digits only (a sequence number kept as the URL wrote it), at most `maxLength` of them; else "". */
  digits: (maxLength = 15) =>
    z
      .string()
      .regex(new RegExp(`^\\d{1,${maxLength}}$`))
      .catch(""),
  /** A whole number written in digits, at least `min` (a sequence number: 1); else undefined. */
  id: (min = 1) =>
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number)
      .refine((n) => n >= min)
      .optional()
      .catch(undefined),
};
