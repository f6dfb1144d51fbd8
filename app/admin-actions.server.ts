/**
 * Answers of the admin actions: a refused form comes back as 400 with the intent (several forms
 * share a page), the field errors and what was typed; API 4xx answers become the same shape.
 */
import { json } from "@remix-run/node";
import { ApiFailure } from "./models/api.server";

export type Errors = Record<string, string>;
export type Values = Record<string, string>;

export interface FormFailure {
  ok: false;
  intent: string;
  errors: Errors;
  values: Values;
  details?: Record<string, string[]>;
}

export function formFailure(intent: string, errors: Errors, values: Values = {}, status = 400, details?: Record<string, string[]>) {
  const body: FormFailure = { ok: false, intent, errors, values, ...(details ? { details } : {}) };
  return json(body, { status });
}

/** An API 4xx (field errors, or a message for the whole form) as a form failure; anything else is rethrown. */
export function apiFailure(intent: string, error: unknown, values: Values = {}) {
  if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) {
    const errors: Errors = { ...(error.body.fields ?? {}) };
    if (!Object.keys(errors).length) errors._form = error.body.message || "forbidden";
    return formFailure(intent, errors, values, error.status, error.body.details);
  }
  throw error;
}

/** Form values as strings, without the CSRF token and secrets. */
export function typedValues(form: FormData, omit: readonly string[] = ["csrf", "password", "confirm"]): Values {
  const out: Values = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !omit.includes(k)) out[k] = v;
  return out;
}

/** A 404 from the API becomes the route's 404 page. */
export async function orNotFound<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 404 || error.status === 403)) {
      throw new Response(error.body.message, { status: error.status });
    }
    throw error;
  }
}
