/**
 * Zod issues as field errors, written once for the portal's actions (app/utils/form-action.server.ts) and its
 * client-side checks (app/components/AdminForm.tsx): the first message per field, `_form` for issues about the
 * whole input.
 */
import type { ZodError } from "zod";

export type FieldErrors = Record<string, string>;

export function fieldErrorsOf(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) errors[issue.path.join(".") || "_form"] ??= issue.message;
  return errors;
}
