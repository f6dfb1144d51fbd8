/**
 * Form handling shared by every action: validate FormData with a zod schema and hand back
 * either the data or field errors plus what the user typed, so the form can be shown again.
 */
import { json } from "@remix-run/node";
import type { ZodType } from "zod";
import { ApiFailure } from "./models/api.server";

export type FieldErrors = Record<string, string>;
export type FormValues = Record<string, string>;

export function formValues(form: FormData): FormValues {
  const values: FormValues = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && k !== "csrf") values[k] = v;
  return values;
}

export function parseForm<T>(
  schema: ZodType<T>,
  form: FormData,
): { ok: true; data: T } | { ok: false; errors: FieldErrors; values: FormValues } {
  const values = formValues(form);
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[issue.path.join(".") || "_form"] ??= issue.message;
  return { ok: false, errors, values };
}

/** The 400 answer an action returns with field errors (the form keeps what was typed). */
export function fieldErrors(errors: FieldErrors, values: FormValues = {}, status = 400) {
  return json({ ok: false as const, errors, values }, { status });
}

/** Turns an API 4xx into field errors for the form; anything else is rethrown. */
export function apiFieldErrors(error: unknown, values: FormValues) {
  if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) {
    const errors: FieldErrors = { ...(error.body.fields ?? {}) };
    if (!Object.keys(errors).length) errors._form = error.body.message;
    return fieldErrors(errors, values, error.status);
  }
  throw error;
}
