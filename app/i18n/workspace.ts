/**
 * The catalogue of the diagram, custom page and help screens: the core catalogue joined with their texts
 * (workspace-ko.ts, workspace-en.ts), the way admin.ts does it for the administration screens.
 */
import { workspaceEn } from "./workspace-en";
import { workspaceKo, type WorkspaceMessages } from "./workspace-ko";
import { messages, useLocale, useT, type Locale } from "./index";
import type { Messages } from "./ko";

export type WorkspaceCatalogue = Messages & WorkspaceMessages;

const WORKSPACE: Record<Locale, WorkspaceMessages> = { ko: workspaceKo, en: workspaceEn };

const joined = new WeakMap<Messages, Partial<Record<Locale, WorkspaceCatalogue>>>();
function join(core: Messages, locale: Locale): WorkspaceCatalogue {
  let byLocale = joined.get(core);
  if (!byLocale) joined.set(core, (byLocale = {}));
  return (byLocale[locale] ??= { ...core, ...WORKSPACE[locale] });
}

/** Server side (actions, meta): the joined catalogue of a locale. */
export function workspaceMessages(locale: Locale): WorkspaceCatalogue {
  return join(messages(locale), locale);
}

export function useWorkspaceT(): WorkspaceCatalogue {
  return join(useT(), useLocale());
}
