/**
 * The catalogue of the statistics screen: the core catalogue (./index.ts) joined with the statistics texts
 * (statistics-ko.ts, statistics-en.ts), made once per (catalogue, locale) like admin.ts. Only the statistics
 * route imports this module, so its texts travel in that route's chunk.
 */
import { messages, useLocale, useT, type Locale } from "./index";
import type { Messages } from "./ko";
import { statisticsEn } from "./statistics-en";
import { statisticsKo, type StatisticsMessages } from "./statistics-ko";

export type StatisticsCatalogue = Messages & StatisticsMessages;

const PART: Record<Locale, StatisticsMessages> = { ko: statisticsKo, en: statisticsEn };
const joined = new WeakMap<Messages, Partial<Record<Locale, StatisticsCatalogue>>>();

function join(core: Messages, locale: Locale): StatisticsCatalogue {
  let byLocale = joined.get(core);
  if (!byLocale) joined.set(core, (byLocale = {}));
  return (byLocale[locale] ??= { ...core, ...PART[locale] });
}

export function statisticsMessages(locale: Locale): StatisticsCatalogue {
  return join(messages(locale), locale);
}

export function useStatisticsT(): StatisticsCatalogue {
  return join(useT(), useLocale());
}
