/** Calls `tick` every `ms` while the page is visible (kiosks hide tabs; no polling then). */
import { useEffect, useRef } from "react";
import { isOffline } from "~/utils/connectivity";

export function usePolling(tick: () => void, ms: number, enabled = true) {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      if (timer === undefined)
        timer = setInterval(() => {
          // Offline: keep what is shown (the shell says since when); the shell refreshes when back online.
          if (!isOffline()) saved.current();
        }, ms);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.hidden) stop();
      else {
        // Back from hidden: catch up at once, then keep the rhythm.
        saved.current();
        start();
      }
    };
    if (!document.hidden) start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [ms, enabled]);
}
