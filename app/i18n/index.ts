import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useSyncExternalStore } from "react";
import { serverCatalogues } from "./catalogues.server";
import { ko, type Messages } from "./ko";

export const LOCALES = ["ko", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "ko";

/**
 * The registry of catalogues. Korean, the default, is always here. The server has every catalogue
 * (catalogues.server.ts); in the browser that module is empty (`serverCatalogues` is undefined) and
 * the other locales are loaded on demand: entry.client.tsx loads the document's locale before it
 * hydrates, so hydration renders the same texts as the server did.
 */
const catalogues: Partial<Record<Locale, Messages>> = { ...serverCatalogues, ko };

/** Each locale other than Korean as a chunk of its own, fetched only when that locale is used. */
const importers: Record<Exclude<Locale, "ko">, () => Promise<Messages>> = {
  en: () => import("./en").then((m) => m.en),
};

const pending = new Map<Locale, Promise<Messages>>();
const listeners = new Set<() => void>();

export function isLocale(v: unknown): v is Locale {
  return typeof v === "string" && (LOCALES as readonly string[]).includes(v);
}

/** Adds a catalogue to the registry and re-renders the components that wait for it. */
export function registerCatalogue(locale: Locale, catalogue: Messages): void {
  catalogues[locale] = catalogue;
  for (const listener of listeners) listener();
}

export function hasCatalogue(locale: Locale): boolean {
  return catalogues[locale] !== undefined;
}

/** Makes sure the catalogue of `locale` is registered, fetching its chunk once if need be. */
export function loadCatalogue(locale: Locale): Promise<Messages> {
  const present = catalogues[locale];
  if (present) return Promise.resolve(present);
  let promise = pending.get(locale);
  if (!promise) {
    promise = importers[locale as Exclude<Locale, "ko">]().then(
      (catalogue) => {
        registerCatalogue(locale, catalogue);
        return catalogue;
      },
      (error: unknown) => {
        pending.delete(locale); // a later attempt may succeed
        throw error;
      },
    );
    pending.set(locale, promise);
  }
  return promise;
}

/** The catalogue of a locale; Korean while that locale's catalogue is not loaded (browser only). */
export function messages(locale: Locale): Messages {
  return catalogues[locale] ?? ko;
}

/** Fills {placeholders} in a message. */
export function fmt(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (_, k: string) => (k in values ? String(values[k]) : `{${k}}`));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The catalogue of the locale chosen in the root loader. Should that locale change without a new
 * document (the language was switched in another tab and the root loader ran again), its catalogue
 * is fetched and the component re-renders with it.
 */
export function useT(): Messages {
  const locale = useLocale();
  const catalogue = useSyncExternalStore(
    subscribe,
    () => catalogues[locale],
    () => catalogues[locale],
  );
  useEffect(() => {
    if (!catalogue) loadCatalogue(locale).catch((error: unknown) => console.error(error));
  }, [catalogue, locale]);
  return catalogue ?? ko;
}

export function useLocale(): Locale {
  return useRouteLoaderData<{ locale?: Locale }>("root")?.locale ?? DEFAULT_LOCALE;
}
