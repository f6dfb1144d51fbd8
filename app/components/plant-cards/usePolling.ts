/**
 * The wallboard refresh of SPEC §2/§9: every 6000 ms after a fetch, fetch again — growing the limit by
 * the view count while more plants remain (the URL's limit, so a bookmark keeps what was shown), else
 * revalidating as is. Paused on the map view and while the tab is hidden; resumes when shown again.
 */
import { useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { nextFetchLimit, REFRESH_INTERVAL_MS } from "../../../domain/chart";
import { viewSearch, type PvstatusView } from "./url-state";
import { isOffline } from "~/utils/connectivity";

export function useDocumentHidden(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const update = () => setHidden(document.hidden);
    update();
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, []);
  return hidden;
}

export function usePolling(view: PvstatusView, state: { fetchedAt: number; hasMore: boolean }): { active: boolean } {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const hidden = useDocumentHidden();
  // False on the server and before hydration: without script nothing polls, so nothing claims to.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const active = hydrated && view.view !== "map" && !hidden;
  const busy = navigation.state !== "idle" || revalidator.state !== "idle";
  const search = viewSearch(view, {});
  useEffect(() => {
    if (!active || busy) return;
    const timer = window.setTimeout(() => {
      // Offline: the last status stays on screen; the shell's banner refreshes it when the network returns.
      if (isOffline()) return;
      if (state.hasMore) {
        const next = viewSearch(view, { limit: nextFetchLimit(view.limit, view.effectiveCount) });
        navigate({ pathname: "/pvstatus", search: next }, { replace: true, preventScrollReset: true });
      } else {
        revalidator.revalidate();
      }
    }, REFRESH_INTERVAL_MS.pvstatus);
    return () => window.clearTimeout(timer);
    // `search` stands for the whole view; fetchedAt changes with every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, busy, search, state.fetchedAt, state.hasMore]);
  return { active };
}
