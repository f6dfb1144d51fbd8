/** The catalogue of the camera screen: the core catalogue joined with its texts (cctv-ko.ts, cctv-en.ts). */
import { cctvEn } from "./cctv-en";
import { cctvKo } from "./cctv-ko";
import { cataloguePart } from "./part";

const part = cataloguePart({ ko: cctvKo, en: cctvEn });

export const cctvMessages = part.messages;
export const useCctvT = part.useT;
