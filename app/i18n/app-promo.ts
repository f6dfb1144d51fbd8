/** The catalogue part of the app promotion pop-up (app-promo-ko.ts, app-promo-en.ts). */
import { appPromoEn } from "./app-promo-en";
import { appPromoKo } from "./app-promo-ko";
import { cataloguePart } from "./part";

const part = cataloguePart({ ko: appPromoKo, en: appPromoEn });

export const appPromoMessages = part.messages;
export const useAppPromoT = part.useT;
