/** The catalogue part of the offline banner (offline-ko.ts, offline-en.ts). */
import { offlineEn } from "./offline-en";
import { offlineKo } from "./offline-ko";
import { cataloguePart } from "./part";

const part = cataloguePart({ ko: offlineKo, en: offlineEn });

export const useOfflineT = part.useT;
