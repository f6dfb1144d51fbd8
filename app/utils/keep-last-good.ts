/**
 * The client loader of the screens a wallboard shows (issue 17): a poll or a kiosk step that finds no server —
 * the network request fails, or a proxy answers 502/503/504 while the server restarts — keeps the last answer the
 * screen had instead of replacing it with an error page, and tells the shell (connectivity.ts) since when the
 * server is away. The next answer ends the outage. Anything else (a 4xx, a redirect to /login, a bug's 500 with
 * Remix's error header) goes on to the route's error boundary as before.
 *
 * It does not run on hydration (`hydrate` would make React throw the server's markup away): what it keeps is the
 * last answer of a poll or navigation. A screen whose server is gone before its first poll shows the error page,
 * which asks again by itself (ErrorMessage).
 */
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { isRouteErrorResponse } from "@remix-run/react";
import { reportServerReachable, reportServerUnreachable } from "./connectivity";

const OUTAGE_STATUSES = new Set([502, 503, 504]);

/** Whether a failed data request means "no server to answer", as opposed to an answer that refuses. */
export function isOutage(error: unknown): boolean {
  if (error instanceof TypeError) return true; // fetch itself failed: connection refused, reset, DNS, offline
  if (isRouteErrorResponse(error)) return OUTAGE_STATUSES.has(error.status);
  if (error instanceof Response) return OUTAGE_STATUSES.has(error.status);
  return false;
}

/**
 * `received` may add to each answer what only the browser knows when it arrives (the plant status list: the time it
 * was answered); a kept answer is returned as it was then.
 */
export function keepLastGood(received: (data: unknown) => unknown = (data) => data) {
  let last: { data: unknown } | null = null;
  const clientLoader = async ({ serverLoader }: ClientLoaderFunctionArgs) => {
    try {
      const data = received(await serverLoader());
      reportServerReachable();
      last = { data };
      return data;
    } catch (error) {
      if (!isOutage(error)) throw error;
      reportServerUnreachable();
      if (last) return last.data;
      throw error;
    }
  };
  return clientLoader;
}
