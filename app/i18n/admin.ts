/**
 * The catalogue of the administration screens: the core catalogue (./index.ts) joined with the admin
 * texts (admin-ko.ts, admin-en.ts). Only the modules of those screens import this one, so their texts
 * travel in those screens' chunks, in both languages, and not in the bundle of the status screens.
 */
import { useMemo } from "react";
import { adminKo, type AdminMessages } from "./admin-ko";
import { adminEn } from "./admin-en";
import { messages, useLocale, useT, type Locale } from "./index";
import type { Messages } from "./ko";

export type AdminCatalogue = Messages & AdminMessages;

const ADMIN: Record<Locale, AdminMessages> = { ko: adminKo, en: adminEn };

/** Server side (actions, meta): the joined catalogue of a locale. */
export function adminMessages(locale: Locale): AdminCatalogue {
  return { ...messages(locale), ...ADMIN[locale] };
}

/** useT() for the administration screens: the core texts and the admin texts of the page's locale. */
export function useAdminT(): AdminCatalogue {
  const core = useT();
  const locale = useLocale();
  return useMemo(() => ({ ...core, ...ADMIN[locale] }), [core, locale]);
}
