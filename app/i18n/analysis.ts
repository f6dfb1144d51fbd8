/** The catalogue of the measurement and diagnosis screens (analysis-ko.ts, analysis-en.ts), only with them. */
import { analysisEn } from "./analysis-en";
import { analysisKo, type AnalysisMessages } from "./analysis-ko";
import type { Messages } from "./ko";
import { cataloguePart } from "./part";

export type AnalysisCatalogue = Messages & AnalysisMessages;

const part = cataloguePart<AnalysisMessages>({ ko: analysisKo, en: analysisEn });
export const analysisMessages = part.messages;
export const useAnalysisT = part.useT;
