/** Action helpers of the fleet admin screens: one answer shape for field errors of several forms on a page. */
import { json } from "@remix-run/node";
import type { ZodType } from "zod";
import { ApiFailure } from "./models/api.server";

export type Errors = Record<string, string>;
export type Values = Record<string, string>;

export function formValues(form: FormData): Values {
  const values: Values = {};
  for (const [k, v] of form.entries()) {
    if (typeof v !== "string" || k === "csrf" || k === "intent") continue;
    // Passwords are never echoed back into the page.
    if (/password|^pw$/i.test(k)) continue;
    values[k] = values[k] === undefined ? v : `${values[k]},${v}`;
  }
  return values;
}

/** FormData → plain object for a schema; repeated names become arrays. */
export function formObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v !== "string" || k === "csrf" || k === "intent") continue;
    if (k in out) out[k] = ([] as unknown[]).concat(out[k], v);
    else out[k] = v;
  }
  return out;
}

export function invalid(form: string, errors: Errors, values: Values, status = 400) {
  return json({ form, errors, values }, { status });
}

export function validate<T>(schema: ZodType<T, any, any>, form: string, data: FormData):
  | { ok: true; data: T }
  | { ok: false; response: ReturnType<typeof invalid> } {
  const result = schema.safeParse(formObject(data));
  if (result.success) return { ok: true, data: result.data };
  const errors: Errors = {};
  for (const issue of result.error.issues) errors[issue.path.join(".") || "_form"] ??= issue.message;
  return { ok: false, response: invalid(form, errors, formValues(data)) };
}

/**
 * An API refusal as field errors of the named form (4xx; a 502 from a remote source too). `field`
 * maps API field names to form field names. Anything else is rethrown.
 */
export function apiFailure(form: string, error: unknown, values: Values, field: (name: string) => string = (n) => n) {
  if (error instanceof ApiFailure && error.status !== 401 && (error.status < 500 || error.status === 502)) {
    const errors: Errors = {};
    for (const [k, v] of Object.entries(error.body.fields ?? {})) errors[field(k)] = v;
    if (!Object.keys(errors).length) errors._form = error.body.message;
    return invalid(form, errors, values, error.status === 502 ? 400 : error.status);
  }
  throw error;
}
