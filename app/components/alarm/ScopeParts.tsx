/**
 * The chosen scope as chips (each with a link that removes it) and a name search's several matches as links: the
 * alarm screen's, shared with /control (app/utils/scope-search.ts keeps the URL).
 */
import { AppLink } from "~/components/AppLink";
import { fmt } from "~/i18n";
import { useAlarmT } from "~/i18n/alarm";
import { scopeSearch, withSearch, type ScopeMatches, type ScopePick } from "~/utils/scope-search";

/** The search without these keys (and without device and page). */
export function dropHref(path: string, search: URLSearchParams, ...keys: string[]) {
  const next = new URLSearchParams(search);
  for (const k of [...keys, "device", "page"]) next.delete(k);
  return withSearch(path, next);
}

export function ScopeChips({
  path,
  search,
  plant,
  group,
}: {
  path: string;
  search: URLSearchParams;
  plant: { uid: string; name: string } | null;
  group: { seq: number; name: string } | null;
}) {
  const t = useAlarmT();
  if (!plant && !group) return null;
  return (
    <ul className="scope-chips" aria-label={t.alarm.scopeChosen}>
      {group ? (
        <li className="scope-chip">
          <span>
            {t.alarm.group}: {group.name}
          </span>
          <AppLink
            to={dropHref(path, search, "isGroup", "group")}
            aria-label={fmt(t.alarm.scopeRemove, { what: t.alarm.group, name: group.name })}
          >
            <span aria-hidden="true">✕</span>
          </AppLink>
        </li>
      ) : null}
      {plant ? (
        <li className="scope-chip">
          <span>
            {t.alarm.plant}: {plant.name}
          </span>
          <AppLink
            to={dropHref(path, search, "plant")}
            aria-label={fmt(t.alarm.scopeRemove, { what: t.alarm.plant, name: plant.name })}
          >
            <span aria-hidden="true">✕</span>
          </AppLink>
        </li>
      ) : null}
    </ul>
  );
}

export function ScopeMatchList({
  path,
  search,
  matches,
  quietWhenNone = false,
}: {
  path: string;
  search: URLSearchParams;
  matches: (ScopeMatches & { find: string }) | null;
  /** Say nothing when no plant or group matches (the screen's list searches other names too). */
  quietWhenNone?: boolean;
}) {
  const t = useAlarmT();
  if (!matches || (quietWhenNone && !matches.plants.length && !matches.groups.length)) return null;
  const scopeHref = (pick: ScopePick) => withSearch(path, scopeSearch(search, pick));
  return (
    <section className="scope-matches panel" aria-live="polite">
      {matches.plants.length + matches.groups.length ? (
        <>
          <p>{fmt(t.alarm.scopeMatches, { find: matches.find })}</p>
          <ul>
            {matches.groups.map((g) => (
              <li key={`g${g.seq}`}>
                <AppLink to={scopeHref({ group: g.seq })}>
                  {t.alarm.group}: {g.name}
                </AppLink>
              </li>
            ))}
            {matches.plants.map((p) => (
              <li key={p.uid}>
                <AppLink to={scopeHref({ plant: p.uid })}>{p.name}</AppLink>
              </li>
            ))}
          </ul>
          {matches.more ? <p className="muted small">{t.alarm.scopeMore}</p> : null}
        </>
      ) : (
        <p role="alert">{fmt(t.alarm.scopeNoMatch, { find: matches.find })}</p>
      )}
    </section>
  );
}

/** The chosen scope carried by a GET filter form (the chips above it remove it). */
export function ScopeHiddenFields({ plant, group }: { plant: { uid: string } | null; group: { seq: number } | null }) {
  return (
    <>
      {plant ? <input type="hidden" name="plant" value={plant.uid} /> : null}
      {group ? (
        <>
          <input type="hidden" name="isGroup" value="1" />
          <input type="hidden" name="group" value={group.seq} />
        </>
      ) : null}
    </>
  );
}

/** A name search's matches as the finder's suggestions: plants first, then groups. */
export const scopeSuggestions = (matches: ScopeMatches | null | undefined): string[] =>
  matches ? [...matches.plants.map((p) => p.name), ...matches.groups.map((g) => g.name)] : [];
