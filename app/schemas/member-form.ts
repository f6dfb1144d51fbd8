/**
 * FormData of the member forms → the input of the shared member schemas (domain/member-form.ts).
 * Runs in the action and in the browser alike, so both see the same errors.
 */
import { serviceFromBits } from "../../domain/member-form";

const TEXT = ["id", "password", "name", "phone", "email", "auth", "node_seq"] as const;
const FLAGS = ["use_yn", "diagram", "cctv", "page"] as const;

/** Checkboxes that are absent mean 0; the service checkboxes become one mask (unknown bits kept). */
export function memberInput(form: FormData, opts: { create: boolean }): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const k of TEXT) {
    const v = form.get(k);
    if (typeof v === "string") input[k] = v;
  }
  for (const k of FLAGS) input[k] = form.get(k) ? 1 : 0;
  if (opts.create) input.pwd_yn = form.get("pwd_yn") ? 1 : 0;
  input.service = serviceFromBits(form.getAll("service"), Number(form.get("serviceKeep") ?? 0) || 0);
  return input;
}

/** What the form shows again after a refused submit: every field as typed. */
export function memberValues(input: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input)) if (k !== "password" && v !== undefined && v !== null) out[k] = String(v);
  return out;
}
