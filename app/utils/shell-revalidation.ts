/**
 * When the loaders of the root and the app shell run again. They hold what changes only with a form
 * submission (preferences, login, an action's flash) or a new screen (notices, the member's claims):
 * a screen's own URL changes — its filters, paging, the wallboard polls of /pvstatus and the limit
 * growing after each — revalidate only that screen's loader. A wallboard left open still refreshes
 * the shell every SHELL_REFRESH_MS, so the top bar's alarm count and the claims don't grow old.
 */
import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";

export const SHELL_REFRESH_MS = 5 * 60_000;

type Args = Pick<
  ShouldRevalidateFunctionArgs,
  "currentUrl" | "nextUrl" | "formMethod" | "actionResult" | "defaultShouldRevalidate"
>;

export function shellShouldRevalidate(args: Args, sinceLastLoadMs: number): boolean {
  if (args.formMethod || args.actionResult !== undefined) return args.defaultShouldRevalidate;
  if (args.currentUrl.pathname !== args.nextUrl.pathname) return args.defaultShouldRevalidate;
  return sinceLastLoadMs >= SHELL_REFRESH_MS && args.defaultShouldRevalidate;
}

/** A shouldRevalidate for one shell route, remembering when its loader last ran in this browser. */
export function shellRevalidation(now: () => number = Date.now) {
  let last = now();
  return (args: Args): boolean => {
    const yes = shellShouldRevalidate(args, now() - last);
    if (yes) last = now();
    return yes;
  };
}
