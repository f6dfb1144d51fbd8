/** The catalogue of the work order screens: the core catalogue joined with their texts (workorder-ko.ts, workorder-en.ts). */
import { workorderEn } from "./workorder-en";
import { workorderKo, type WorkorderMessages } from "./workorder-ko";
import type { Messages } from "./ko";
import { cataloguePart } from "./part";

export type WorkorderCatalogue = Messages & WorkorderMessages;

const part = cataloguePart<WorkorderMessages>({ ko: workorderKo, en: workorderEn });
export const workorderMessages = part.messages;
export const useWorkorderT = part.useT;
