/**
 * Whether the browser can reach the portal, and since when it cannot (kiosk wallboards, issue 17). Two ways to lose
 * it: the browser's own network drops (navigator.onLine), or the server goes away while the network stays (a restart,
 * a deploy, a load balancer with no server behind it). Status screens keep the last status they had in both cases
 * (polls pause while offline; a poll that finds no server keeps the last answer: app/utils/keep-last-good.ts), the
 * shell says since when, and the screen refreshes by itself when the portal answers again.
 */
import { useEffect, useState, useSyncExternalStore } from "react";

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

// Since when the last data request found no server (null while the server answers). One value per browser tab.
let unreachableSince: number | null = null;
const listeners = new Set<() => void>();

function setUnreachable(next: number | null) {
  if (next === unreachableSince) return;
  unreachableSince = next;
  for (const l of listeners) l();
}

/** A data request failed for want of a server (network error, 502/503/504): keeps the first time of the outage. */
export function reportServerUnreachable(now = Date.now()): void {
  if (unreachableSince === null) setUnreachable(now);
}

/** A data request was answered: the outage, if any, is over. */
export function reportServerReachable(): void {
  setUnreachable(null);
}

export function serverUnreachableSince(): number | null {
  return unreachableSince;
}

/** null while the server answers (and on the server); the time it stopped answering otherwise. */
export function useServerUnreachableSince(): number | null {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => unreachableSince,
    () => null,
  );
}
