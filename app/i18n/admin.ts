/**
 * The catalogue of the administration screens: the core catalogue (./index.ts) joined with the admin
 * texts (admin-ko.ts, admin-en.ts). Only the modules of those screens import this one, so their texts
 * travel in those screens' chunks, in both languages, and not in the bundle of the status screens.
 */
import { adminKo, type AdminMessages } from "./admin-ko";
import { adminEn } from "./admin-en";
import type { Locale } from "./index";
import type { Messages } from "./ko";
import { cataloguePart } from "./part";

export type AdminCatalogue = Messages & AdminMessages;

const part = cataloguePart<AdminMessages>({ ko: adminKo, en: adminEn });

/** Server side (actions, meta): the joined catalogue of a locale. */
export const adminMessages: (locale: Locale) => AdminCatalogue = part.messages;

/** useT() for the administration screens: the core texts and the admin texts of the page's locale. */
export const useAdminT: () => AdminCatalogue = part.useT;
