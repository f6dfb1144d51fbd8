/**
 * Admin deletion needs an explicit confirmation: the admin types this fixed key (SPEC §5).
 * The API checks it too, so a client cannot skip the confirmation.
 */
export const ADMIN_DELETE_KEY = "delete";

export function isDeleteConfirmed(typed: unknown): boolean {
  return typeof typed === "string" && typed.trim().toLowerCase() === ADMIN_DELETE_KEY;
}
