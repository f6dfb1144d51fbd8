/**
 * The catalogue of the administration screens: the core catalogue (./index.ts) joined with the admin
 * texts (admin-ko.ts, admin-en.ts). Only the modules of those screens import this one, so their texts
 * travel in those screens' chunks, in both languages, and not in the bundle of the status screens.
 */
import { adminKo, type AdminMessages } from "./admin-ko";
import { adminEn } from "./admin-en";
import { messages, useLocale, useT, type Locale } from "./index";
import type { Messages } from "./ko";

export type AdminCatalogue = Messages & AdminMessages;

const ADMIN: Record<Locale, AdminMessages> = { ko: adminKo, en: adminEn };

/**
 * A core catalogue joined with a locale's admin texts, made once per pair. Keyed by the core object:
 * in the browser a core catalogue can stand in for one still loading, and the join must follow it.
 */
const joined = new WeakMap<Messages, Partial<Record<Locale, AdminCatalogue>>>();
function join(core: Messages, locale: Locale): AdminCatalogue {
  let byLocale = joined.get(core);
  if (!byLocale) joined.set(core, (byLocale = {}));
  return (byLocale[locale] ??= { ...core, ...ADMIN[locale] });
}

/** Server side (actions, meta): the joined catalogue of a locale. */
export function adminMessages(locale: Locale): AdminCatalogue {
  return join(messages(locale), locale);
}

/** useT() for the administration screens: the core texts and the admin texts of the page's locale. */
export function useAdminT(): AdminCatalogue {
  return join(useT(), useLocale());
}
