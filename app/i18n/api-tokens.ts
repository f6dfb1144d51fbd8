/** The catalogue part of the API token screens (api-tokens-ko.ts, api-tokens-en.ts). */
import { apiTokensEn } from "./api-tokens-en";
import { apiTokensKo } from "./api-tokens-ko";
import { cataloguePart } from "./part";

const part = cataloguePart({ ko: apiTokensKo, en: apiTokensEn });

export const apiTokensMessages = part.messages;
export const useApiTokensT = part.useT;
