/**
 * A component the server renders in place and the browser fetches only when it is first drawn: `onServer` comes
 * from a `*.server` module (an empty module in the browser bundle, so undefined there), `load` imports the same
 * component as a chunk of its own. A page's script then carries a view's code only where that view is shown,
 * while its document still holds the server's markup (for kiosks without script too); the Suspense boundary keeps
 * that markup until the chunk is there and React hydrates it.
 */
import { lazy, Suspense, type ComponentType } from "react";

export function serverOrLazy<P extends object>(
  onServer: ComponentType<P> | undefined,
  load: () => Promise<ComponentType<P>>,
): (props: P) => JSX.Element {
  const Drawn = (onServer ?? lazy(() => load().then((component) => ({ default: component })))) as ComponentType<object>;
  return function ServerOrLazy(props: P) {
    return (
      <Suspense fallback={null}>
        <Drawn {...props} />
      </Suspense>
    );
  };
}
