/**
 * The catalogues besides Korean, for the server, which renders every locale. A `*.server` module is
 * an empty module in the browser bundle, so the browser gets only Korean statically and loads the
 * others on demand (loadCatalogue in ./index.ts).
 */
import { en } from "./en";
import type { Messages } from "./ko";

export const serverCatalogues: Partial<Record<"en", Messages>> = { en };
