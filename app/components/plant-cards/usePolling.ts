/**
 * The wallboard refresh of SPEC §2/§9: every 6000 ms after a fetch, fetch again what is shown. The list grows by
 * the view count only when the member asks for more (the "more" link: the URL's limit, so a bookmark keeps what was
 * shown); a poll never grows it, so a 1,000-plant wallboard shows the same page for ever (issue 13, point 12).
 * Paused on the map view and while the tab is hidden; resumes when shown again.
 */
import { useNavigation, useRevalidator } from "@remix-run/react";
import { startTransition, useEffect, useRef, useState } from "react";
import { REFRESH_INTERVAL_MS } from "../../../domain/chart";
import { viewSearch, type PvstatusView } from "./url-state";
import { isOffline } from "~/utils/connectivity";
import { useHydratedView } from "~/utils/use-hydrated-view";

export function useDocumentHidden(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const update = () => setHidden(document.hidden);
    // At mount as a transition, like useHydratedView: a plain update would reach boundaries still hydrating.
    startTransition(update);
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, []);
  return hidden;
}

/** How often the poll clock looks whether the next fetch is due (6 s after the last answer). */
const TICK_MS = 500;

export function usePolling(view: PvstatusView, state: { fetchedAt: number }): { active: boolean } {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const hidden = useDocumentHidden();
  // False on the server and before hydration: without script nothing polls, so nothing claims to.
  const hydrated = useHydratedView();
  const active = hydrated && view.view !== "map" && !hidden;
  const busy = navigation.state !== "idle" || revalidator.state !== "idle";
  const search = viewSearch(view, {});
  // One steady clock per view rather than a timer re-armed by each answer: a poll whose answer changes nothing (the
  // last status kept through a server outage, app/utils/keep-last-good.ts) must not end the chain.
  const busyRef = useRef(busy);
  const lastDone = useRef(Date.now());
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (busyRef.current && !busy) lastDone.current = Date.now();
    busyRef.current = busy;
  }, [busy]);
  useEffect(() => {
    lastDone.current = Date.now();
  }, [state.fetchedAt, search]);
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      // Offline: the last status stays on screen; the shell's banner refreshes it when the network returns.
      if (busyRef.current || isOffline()) return;
      if (Date.now() - lastDone.current < REFRESH_INTERVAL_MS.pvstatus) return;
      lastDone.current = Date.now();
      revalidate.current();
    }, TICK_MS);
    return () => window.clearInterval(timer);
  }, [active, search]);
  return { active };
}
