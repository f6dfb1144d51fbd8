/** Password rules shared by the API (authoritative) and the portal forms (early feedback). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export type PasswordProblem = "too_short" | "too_long" | "same_as_id" | "too_simple" | "same_as_current";

export function passwordProblem(password: string, ctx: { id?: string; current?: string } = {}): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return "too_short";
  if (password.length > PASSWORD_MAX) return "too_long";
  if (ctx.id && password.toLowerCase() === ctx.id.toLowerCase()) return "same_as_id";
  if (ctx.current !== undefined && password === ctx.current) return "same_as_current";
  const classes = [/[a-zA-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 2) return "too_simple";
  return null;
}

/** Member ids: 3–30 characters of letters, digits, '.', '_' or '-', starting with a letter or digit. */
export const MEMBER_ID_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]{2,29}$/;
