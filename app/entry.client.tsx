import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
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
// Layout from the root loader) first gets its catalogue, so hydration renders the server's texts.
// Should that chunk fail to load, the page stays as the server rendered it, which works without JS.
const lang = document.documentElement.lang;
if (isLocale(lang) && !hasCatalogue(lang)) {
  loadCatalogue(lang).then(hydrate, (error: unknown) => console.error("UI texts could not be loaded", error));
} else {
  hydrate();
}

registerServiceWorker();
