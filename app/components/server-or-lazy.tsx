/**
 * A component the server renders in place and the browser fetches only when it is drawn: `onServer` comes from a
 * `*.server` module (an empty module in the browser bundle, so undefined there), `load` imports the same component
 * as a chunk of its own. A page's script then carries a view's code only where that view is shown, while its
 * document still holds the server's markup (for kiosks without script too).
 *
 * Where the server drew it (its markup, found by `drawn`, a CSS selector of its outermost element, is in the
 * document), the chunk is fetched before hydration (`beforeHydration`, awaited by entry.client.tsx), so hydration
 * renders the component itself and never suspends on it: a Suspense boundary still waiting for its chunk when the page
 * updates (a poll, a state set at mount) would be dropped and drawn again on the client (React's error 421). A view
 * first shown later (the map chosen on the grid) suspends on its chunk as a lazy component.
 */
import { lazy, Suspense, type ComponentType } from "react";

const drawnByServer = new Map<string, () => Promise<unknown>>();

/** Fetches the chunks of the components whose server markup is in `root`; resolves when they are loaded. */
export function beforeHydration(root: ParentNode): Promise<unknown> {
  const loads = [...drawnByServer].filter(([selector]) => root.querySelector(selector)).map(([, load]) => load());
  return Promise.all(loads);
}

export function serverOrLazy<P extends object>(
  drawn: string,
  onServer: ComponentType<P> | undefined,
  load: () => Promise<ComponentType<P>>,
): (props: P) => JSX.Element {
  let loaded = onServer;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchChunk = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  if (!onServer) drawnByServer.set(drawn, fetchChunk);
  const Lazy = lazy(() => fetchChunk().then((component) => ({ default: component })));
  return function ServerOrLazy(props: P) {
    const Drawn = (loaded ?? Lazy) as ComponentType<object>;
    return (
      <Suspense fallback={null}>
        <Drawn {...props} />
      </Suspense>
    );
  };
}
