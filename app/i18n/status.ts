/**
 * The status/alarm vocabulary part of every screen's catalogue, built from the one typed map in
 * domain/status-words.ts (issue 13 point 8). Catalogue files never spell a status or alarm-code name
 * themselves: they spread these objects (app/i18n/vocabulary.test.ts checks it).
 */
import { STATUS_WORDS, type WordLocale } from "../../domain/status-words";

export function statusVocabulary(locale: WordLocale) {
  const w = STATUS_WORDS[locale];
  const c = w.codes;
  return {
    /** Filter/count categories (SPEC §4): 'warning' is every warning kind together. */
    categories: {
      normal: w.normal,
      warning: w.allWarnings,
      warning_1000003: c[1000003],
      warning_1000001: c[1000001],
      warning_1000006: c[1000006],
      warning_1000004: c[1000004],
      notWork: w.notWork,
    },
    /** A plant's own status by statusName: 'warning' (code 3) is the internet disconnection. */
    statusNames: {
      none: w.noData,
      noData: w.noData,
      normal: w.normal,
      notWork: w.notWork,
      warning: c[1000003],
      warning_1000001: c[1000001],
      warning_1000004: c[1000004],
      warning_1000006: c[1000006],
    },
    /** Alarm codes, keyed c<code>. */
    codes: { c1000001: c[1000001], c1000003: c[1000003], c1000004: c[1000004], c1000006: c[1000006] },
    notWork: w.notWork,
    normal: w.normal,
    hours: w.hours,
  };
}

export const statusKo = statusVocabulary("ko");
export const statusEn = statusVocabulary("en");
