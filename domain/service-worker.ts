/**
 * Registration rules of the service worker (SPEC §7 Service worker, §8 last row): the worker is
 * /service-worker.js. Outside localhost its script is checked first: a 404 or a type that is not JavaScript
 * means the worker is gone (an old deployment's), so it is unregistered and the page reloads; otherwise it is
 * registered. On localhost it is registered straight away. A failed check logs the offline message.
 */
export const SERVICE_WORKER_URL = "/service-worker.js";
export const OFFLINE_MESSAGE = "No internet connection found. App is running in offline mode.";

/** localhost, [::1] and 127.0.0.0/8 (the loopback names of SPEC's localhost rule). */
export function isLocalhost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    hostname === "::1" ||
    /^127(?:\.(?:25[0-5]|2[0-4]\d|[01]?\d?\d)){3}$/.test(hostname)
  );
}

export type CheckOutcome = "register" | "unregister_and_reload";

/** What the check of the script's answer decides. */
export function checkOutcome(status: number, contentType: string | null): CheckOutcome {
  if (status === 404 || !contentType || !contentType.toLowerCase().includes("javascript")) return "unregister_and_reload";
  return "register";
}

/** Whether the page should check the script before registering (outside localhost, SPEC §7). */
export function checksFirst(hostname: string): boolean {
  return !isLocalhost(hostname);
}
