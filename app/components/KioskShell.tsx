/**
 * The shell of kiosk mode (`?kiosk=1`, domain/kiosk.ts): no top bar or navigation, large type, the offline
 * banner; with script it keeps the screen awake where the browser allows (Screen Wake Lock) and goes through
 * the `cycle` views every `every` seconds. Nothing accumulates: one timer per view, one wake lock at a time.
 * While the network or the server is away the cycle waits on the view it shows (which keeps its last status), so a
 * step never lands on a screen that has nothing to show.
 */
import { Outlet, useLocation, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { nextKioskUrl, type Kiosk } from "../../domain/kiosk";
import { OfflineBanner } from "./OfflineBanner";
import { useOfflineSince, useServerUnreachableSince } from "~/utils/connectivity";

type WakeLockSentinelLike = { release(): Promise<void> };

function useWakeLock() {
  useEffect(() => {
    const nav = navigator as Navigator & { wakeLock?: { request(type: "screen"): Promise<WakeLockSentinelLike> } };
    if (!nav.wakeLock) return;
    let lock: WakeLockSentinelLike | null = null;
    let gone = false;
    const acquire = () => {
      if (document.hidden || lock) return;
      nav.wakeLock!.request("screen").then(
        (l) => {
          if (gone) void l.release();
          else lock = l;
        },
        () => undefined,
      );
    };
    // The browser drops the lock when the tab is hidden; take it again when shown.
    const onVisibility = () => {
      if (document.hidden) lock = null;
      else acquire();
    };
    acquire();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      gone = true;
      document.removeEventListener("visibilitychange", onVisibility);
      void lock?.release().catch(() => undefined);
    };
  }, []);
}

/** `children` stands in for the screen when the shell shows an error (the app shell's error boundary). */
export function KioskShell({ kiosk, children }: { kiosk: Kiosk; children?: React.ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  useWakeLock();
  // Keyed by the settings' values, not the object: the screen's polls re-render the shell every few seconds and
  // must not restart the view's timer.
  const views = kiosk.views.join(",");
  const everyS = kiosk.everyS;
  const offlineSince = useOfflineSince();
  const unreachableSince = useServerUnreachableSince();
  const away = offlineSince !== null || unreachableSince !== null;
  useEffect(() => {
    if (away) return;
    const next = nextKioskUrl(
      { views: views ? views.split(",") : [], everyS },
      location.pathname,
      new URLSearchParams(location.search),
    );
    if (!next) return;
    const timer = window.setTimeout(() => navigate(next, { replace: true }), everyS * 1000);
    return () => window.clearTimeout(timer);
    // navigate changes identity on every navigation (also the polls' revalidations); the timer must not restart then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [views, everyS, location.pathname, location.search, away]);
  return (
    <div className="kiosk-shell">
      <main className="content" id="main" tabIndex={-1}>
        <OfflineBanner />
        {children ?? <Outlet />}
      </main>
    </div>
  );
}
