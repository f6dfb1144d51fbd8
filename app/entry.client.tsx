import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { beforeHydration } from "./components/server-or-lazy";
import { hasCatalogue, isLocale, loadCatalogue } from "./i18n";
import { registerServiceWorker } from "./utils/service-worker.client";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// Only Korean is in the bundle; a document in another language (<html lang>, set by the root
// Layout from the root loader) first gets its catalogue, so hydration renders the server's texts; and the chunks of
// the views the server drew in place (server-or-lazy.tsx) are fetched first, so hydration never waits on them.
// Should a chunk fail to load, the page stays as the server rendered it, which works without JS.
const lang = document.documentElement.lang;
Promise.all([isLocale(lang) && !hasCatalogue(lang) ? loadCatalogue(lang) : null, beforeHydration(document)]).then(
  hydrate,
  (error: unknown) => console.error("The page's script could not be loaded", error),
);

registerServiceWorker();
