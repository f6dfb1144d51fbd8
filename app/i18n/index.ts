import { useRouteLoaderData } from "@remix-run/react";
import { en } from "./en";
import { ko, type Messages } from "./ko";

export const LOCALES = ["ko", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "ko";

const catalogues: Record<Locale, Messages> = { ko, en };

export function isLocale(v: unknown): v is Locale {
  return typeof v === "string" && (LOCALES as readonly string[]).includes(v);
}

export function messages(locale: Locale): Messages {
  return catalogues[locale];
}

/** Fills {placeholders} in a message. */
export function fmt(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (_, k: string) => (k in values ? String(values[k]) : `{${k}}`));
}

/** The catalogue of the locale chosen in the root loader. */
export function useT(): Messages {
  const data = useRouteLoaderData<{ locale?: Locale }>("root");
  return messages(data?.locale ?? DEFAULT_LOCALE);
}

export function useLocale(): Locale {
  return useRouteLoaderData<{ locale?: Locale }>("root")?.locale ?? DEFAULT_LOCALE;
}
