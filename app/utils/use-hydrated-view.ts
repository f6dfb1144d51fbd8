/**
 * False on the server and while the page hydrates, true right after: for what only a page with script does (a poll,
 * a player, a live map). The switch is a transition: set at mount as a plain update, it reached Suspense boundaries
 * still hydrating (the streamed plant list, a chart's chunk) and React dropped and redrew them on the client
 * (error 421, seen on the large graph cards of a loaded machine). As a transition it waits for them.
 */
import { startTransition, useEffect, useState } from "react";

export function useHydratedView(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return hydrated;
}
