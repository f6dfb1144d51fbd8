/**
 * The one way an action answers (and a loader reads its URL): parse the form or the search params with a
 * zod schema; a refused form comes back as 400 `{intent, errors, values}` — the intent names which form of
 * the page it was (several forms share a page), `errors` maps field names to message codes (`_form` for the
 * form as a whole) and `values` is what was typed, secrets left out — and an API 4xx becomes the same shape.
 * On success an action mutates through app/models and redirects with a flash message.
 */
import { json } from "@remix-run/node";
import type { ZodType, ZodTypeDef } from "zod";
import { fieldErrorsOf, type FieldErrors } from "../../domain/field-errors";
import { ApiFailure } from "../models/api.server";

export type { FieldErrors };
export type FormValues = Record<string, string>;

export interface FormFailure {
  intent: string;
  errors: FieldErrors;
  values: FormValues;
  /** Per-row details of a bulk operation (e.g. an import report), when the API gave them. */
  details?: Record<string, string[]>;
}

const NEVER_ECHOED = /password|^pw$|^confirm$|secret/i;

/** What was typed, as strings, without the CSRF token, the intent and secrets; repeated names joined by ",". */
export function formValues(form: FormData): FormValues {
  const values: FormValues = {};
  for (const [k, v] of form.entries()) {
    if (typeof v !== "string" || k === "csrf" || k === "intent" || NEVER_ECHOED.test(k)) continue;
    values[k] = values[k] === undefined ? v : `${values[k]},${v}`;
  }
  return values;
}

/** FormData (or URLSearchParams) → a plain object for a schema; repeated names become arrays. */
export function formObject(form: FormData | URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v !== "string" || k === "csrf" || k === "intent") continue;
    out[k] = k in out ? ([] as unknown[]).concat(out[k], v) : v;
  }
  return out;
}

/** Zod issues as field errors (domain/field-errors.ts, shared with the client-side checks). */
export { fieldErrorsOf };

export function formFailure(
  intent: string,
  errors: FieldErrors,
  values: FormValues = {},
  status = 400,
  details?: Record<string, string[]>,
) {
  const body: FormFailure = { intent, errors, values, ...(details ? { details } : {}) };
  return json(body, { status });
}

/** Parses a submitted form; on failure `response` is the 400 answer to return from the action. */
export function parseForm<T>(
  schema: ZodType<T, ZodTypeDef, unknown>,
  intent: string,
  form: FormData,
): { ok: true; data: T } | { ok: false; response: ReturnType<typeof formFailure> } {
  const result = schema.safeParse(formObject(form));
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, response: formFailure(intent, fieldErrorsOf(result.error), formValues(form)) };
}

/**
 * An API refusal as the form's failure (4xx; a 502 from a remote source answers 400). `field` maps API field
 * names to form field names. Anything else (5xx, 401) is rethrown.
 */
export function apiFailure(intent: string, error: unknown, values: FormValues = {}, field: (name: string) => string = (n) => n) {
  if (error instanceof ApiFailure && error.status !== 401 && (error.status < 500 || error.status === 502)) {
    const errors: FieldErrors = {};
    for (const [k, v] of Object.entries(error.body.fields ?? {})) errors[field(k)] = v;
    if (!Object.keys(errors).length) errors._form = error.body.message || "forbidden";
    return formFailure(intent, errors, values, error.status === 502 ? 400 : error.status, error.body.details);
  }
  throw error;
}

/** What an intent's function answers: its form's failure, or (on success) a redirect. */
export type IntentAnswer = ReturnType<typeof formFailure> | Response;

/**
 * A page with several forms: each intent (the submit button's `intent` value) is its own function, looked up in
 * `intents`. An unknown intent is refused as the `fallback` form's failure; an error thrown by an intent's function
 * goes to `failure` (by default apiFailure: an API refusal becomes that intent's failure, with what was typed).
 */
export async function runIntent<Ctx>(
  form: FormData,
  intents: Record<string, (ctx: Ctx, intent: string) => Promise<IntentAnswer>>,
  ctx: Ctx,
  options: { fallback: string; failure?: (intent: string, error: unknown, values: FormValues) => IntentAnswer },
): Promise<IntentAnswer> {
  const intent = String(form.get("intent") ?? "");
  const run = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
  if (!run) return formFailure(options.fallback, { _form: "invalid_input" }, formValues(form));
  try {
    return await run(ctx, intent);
  } catch (error) {
    return (options.failure ?? apiFailure)(intent, error, formValues(form));
  }
}

/**
 * A loader's search params through its schema (lenient list filters: searchParam in search-params.ts). A bookmarked URL with a bad value answers 400 with the
 * field that was wrong (the route's error boundary shows it) — schemas should give defaults for what may
 * be left out, so only a value that is present and wrong is refused.
 */
export function parseSearch<T>(schema: ZodType<T, ZodTypeDef, unknown>, request: Request | URL): T {
  const url = request instanceof URL ? request : new URL(request.url);
  const result = schema.safeParse(formObject(url.searchParams));
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error);
  const [field, message] = Object.entries(errors)[0] ?? ["_form", "invalid"];
  throw json({ message: `${field}: ${message}`, errors }, { status: 400 });
}

/**
 * What an API refusal of a loader's call shows: a 404 or 403 becomes the route's 404 or 403 page; a 400 (an id or
 * parameter from the URL that the API refuses as malformed, e.g. a hand-edited bookmark) its 400 page with the
 * API's message, never a 500. Anything else is returned as it was, for the caller to rethrow.
 */
export function refusalPage(error: unknown): unknown {
  if (error instanceof ApiFailure && (error.status === 404 || error.status === 403 || error.status === 400)) {
    return new Response(error.body.message, { status: error.status });
  }
  return error;
}

/** A loader's API call whose refusal is the route's 400, 403 or 404 page (refusalPage). */
export async function orNotFound<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (error) {
    throw refusalPage(error);
  }
}
