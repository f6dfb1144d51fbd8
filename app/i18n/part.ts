/**
 * A catalogue part: texts of a group of screens (admin, measurement and diagnosis …) in both languages,
 * joined with the core catalogue once per (core catalogue, locale) and shipped only with the modules of
 * those screens. Keyed by the core object: in the browser a core catalogue can stand in for one still
 * loading, and the join must follow it.
 */
import { messages, useLocale, useT, type Locale } from "./index";
import type { Messages } from "./ko";

export function cataloguePart<P extends object>(parts: Record<Locale, P>) {
  const joined = new WeakMap<Messages, Partial<Record<Locale, Messages & P>>>();
  const join = (core: Messages, locale: Locale): Messages & P => {
    let byLocale = joined.get(core);
    if (!byLocale) joined.set(core, (byLocale = {}));
    return (byLocale[locale] ??= { ...core, ...parts[locale] });
  };
  return {
    /** Server side (actions, meta): the joined catalogue of a locale. */
    messages: (locale: Locale) => join(messages(locale), locale),
    /** useT() for these screens: the core texts and the part's texts of the page's locale. */
    useT: () => join(useT(), useLocale()),
  };
}
