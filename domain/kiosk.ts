/**
 * Kiosk mode (issue 17): `?kiosk=1` on any screen hides the navigation and uses large type; `cycle` names the
 * views to go through (local paths with their own query, comma-separated, e.g. `/pvstatus,/watch,/cctv`) and
 * `every` the seconds on each (10 – 3600, default 60). Everything is in the URL, so a wallboard is a bookmark.
 */
export interface Kiosk {
  views: string[];
  everyS: number;
}

export const KIOSK_MIN_S = 10;
export const KIOSK_MAX_S = 3600;
export const KIOSK_DEFAULT_S = 60;

/** The kiosk settings of a URL's query, or null when it is not a kiosk URL. */
export function parseKiosk(search: URLSearchParams): Kiosk | null {
  if (search.get("kiosk") !== "1") return null;
  const views = (search.get("cycle") ?? "")
    .split(",")
    .map((v) => v.trim())
    // Local screens only: a path of our own, never another origin or a protocol-relative URL.
    .filter((v) => /^\/[A-Za-z0-9_\-/]*(\?[^#\s]*)?$/.test(v) && !v.startsWith("//"))
    .slice(0, 12);
  const every = Number(search.get("every"));
  const everyS =
    Number.isFinite(every) && every > 0 ? Math.min(KIOSK_MAX_S, Math.max(KIOSK_MIN_S, Math.round(every))) : KIOSK_DEFAULT_S;
  return { views, everyS };
}

/** The URL of the view after `current` (by path and query), carrying the kiosk settings along. */
export function nextKioskUrl(kiosk: Kiosk, currentPath: string, currentSearch: URLSearchParams): string | null {
  if (kiosk.views.length < 2 && kiosk.views[0] === currentPath) return null;
  if (!kiosk.views.length) return null;
  const own = new URLSearchParams(currentSearch);
  for (const k of ["kiosk", "cycle", "every"]) own.delete(k);
  const here = currentPath + (own.size ? `?${own}` : "");
  const i = kiosk.views.indexOf(here);
  const next = kiosk.views[(i + 1) % kiosk.views.length]!;
  const [path, query = ""] = next.split("?");
  const params = new URLSearchParams(query);
  params.set("kiosk", "1");
  params.set("cycle", kiosk.views.join(","));
  params.set("every", String(kiosk.everyS));
  return `${path}?${params}`;
}
