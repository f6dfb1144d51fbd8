/**
 * A list's scope in its URL, picked by name (issue 26 point 10: the alarm screen's pattern, shared with /control):
 * `plant`, or `isGroup=1&group=` for a group and its subgroups. A name search (`find`) that names one plant or group
 * becomes that scope (the loader redirects); several are offered as links (components/alarm/ScopeParts.tsx).
 * Not a .server module: the screens build links with it.
 */
import type { AlarmScopeResponse } from "../../domain/contract/alarm";

export type ScopePick = { plant: string } | { group: number };
export type ScopeMatches = NonNullable<AlarmScopeResponse["matches"]>;

/** The search with a new scope: the plant or group picked; the name search, device and page dropped. */
export function scopeSearch(search: URLSearchParams, pick: ScopePick | null): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const k of ["find", "plant", "isGroup", "group", "device", "page"]) next.delete(k);
  if (pick && "plant" in pick) next.set("plant", pick.plant);
  if (pick && "group" in pick) {
    next.set("isGroup", "1");
    next.set("group", String(pick.group));
  }
  return next;
}

/** The one plant or group a name search picks: the only match, or the only one with exactly that name. */
export function pickOf(find: string, m: ScopeMatches): ScopePick | null {
  if (m.plants.length + m.groups.length === 1 && !m.more)
    return m.plants[0] ? { plant: m.plants[0].uid } : { group: m.groups[0]!.seq };
  const same = (name: string) => name.trim().toLowerCase() === find.toLowerCase();
  const plants = m.plants.filter((p) => same(p.name));
  const groups = m.groups.filter((g) => same(g.name));
  if (plants.length + groups.length !== 1) return null;
  return plants[0] ? { plant: plants[0].uid } : { group: groups[0]!.seq };
}

/** `path` with the search (and no dangling "?"). */
export const withSearch = (path: string, search: URLSearchParams) => {
  const s = search.toString();
  return s ? `${path}?${s}` : path;
};
