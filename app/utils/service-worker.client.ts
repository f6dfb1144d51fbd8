/**
 * Registers /service-worker.js by the rules of SPEC §7 (domain/service-worker.ts): outside localhost the script
 * is fetched first; a 404 or a non-JavaScript answer unregisters any worker and reloads the page; a failed
 * fetch logs the offline message.
 */
import { checkOutcome, checksFirst, OFFLINE_MESSAGE, SERVICE_WORKER_URL } from "../../domain/service-worker";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const register = () =>
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL)
      .catch((error: unknown) => console.error("Error during service worker registration:", error));
  const run = () => {
    if (!checksFirst(window.location.hostname)) {
      void register();
      return;
    }
    fetch(SERVICE_WORKER_URL, { headers: { "Service-Worker": "script" } })
      .then((res) => {
        if (checkOutcome(res.status, res.headers.get("content-type")) === "register") return void register();
        return navigator.serviceWorker.ready.then((reg) => reg.unregister()).then(() => window.location.reload());
      })
      .catch(() => console.log(OFFLINE_MESSAGE));
  };
  if (document.readyState === "complete") run();
  else window.addEventListener("load", run, { once: true });
}
