/**
 * Whether the browser is online, and since when it is not (kiosk wallboards, issue 17): status screens stop
 * polling while offline, so the last status stays on screen instead of an error page, the shell says
 * "offline since HH:mm", and when the network returns the screen refreshes by itself.
 */
import { useEffect, useState } from "react";

export function isOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/** null while online (and on the server); the time the browser went offline otherwise. */
export function useOfflineSince(): number | null {
  const [since, setSince] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setSince((prev) => (navigator.onLine ? null : (prev ?? Date.now())));
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return since;
}
