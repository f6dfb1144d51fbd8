/**
 * The help articles (SPEC §7 GET /help/file/{id}): Markdown files in the repository, `help/<lang>/<id>.md`,
 * one per screen plus the alarm codes and the performance figures. Each screen's "?" link opens the article
 * of its section; the help index lists them in this order.
 */
export const HELP_LANGS = ["ko", "en"] as const;
export type HelpLang = (typeof HELP_LANGS)[number];

export const HELP_ARTICLES = [
  { id: "start", section: "/" },
  { id: "pvstatus", section: "/pvstatus" },
  { id: "watch", section: "/watch" },
  { id: "alarm-codes", section: "/alarm" },
  { id: "performance", section: "/diagnose" },
  { id: "measurement", section: "/measurement" },
  { id: "diagram", section: "/diagram" },
  { id: "page", section: "/page" },
  { id: "statistics", section: "/statistics" },
  { id: "control", section: "/control" },
  { id: "cctv", section: "/cctv" },
  { id: "notice", section: "/notice" },
  { id: "setting", section: "/setting" },
] as const;
export type HelpArticleId = (typeof HELP_ARTICLES)[number]["id"];

export const HELP_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const HELP_QUERY_MAX = 100;

export function isHelpArticleId(v: string): v is HelpArticleId {
  return HELP_ARTICLES.some((a) => a.id === v);
}

/** The article a screen's "?" link opens: that of the section the path lies in; the start article otherwise. */
export function helpArticleFor(pathname: string): HelpArticleId {
  const first = `/${(pathname.split("/")[1] ?? "").toLowerCase()}`;
  return HELP_ARTICLES.find((a) => a.section === first)?.id ?? "start";
}

/** The title of a Markdown article: its first level-one heading. */
export function markdownTitle(markdown: string): string {
  return /^#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1] ?? "";
}

/** Markdown reduced to plain words, for searching and for the excerpt of a hit. */
export function markdownText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_`|~-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export interface HelpHit {
  score: number;
  excerpt: string;
}

/**
 * Does an article match a search? Every word of the query must occur (case-blind) in its title or text;
 * title hits weigh more. The excerpt is the text around the first hit.
 */
export function searchArticle(title: string, text: string, query: string): HelpHit | null {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  const t = title.toLowerCase();
  const body = text.toLowerCase();
  let score = 0;
  for (const w of words) {
    const inTitle = t.includes(w);
    const count = body.split(w).length - 1;
    if (!inTitle && !count) return null;
    score += (inTitle ? 10 : 0) + Math.min(count, 5);
  }
  const at = Math.max(0, body.indexOf(words[0]!));
  const start = Math.max(0, at - 60);
  const excerpt = `${start > 0 ? "…" : ""}${text.slice(start, at + 140).trim()}${at + 140 < text.length ? "…" : ""}`;
  return { score, excerpt };
}
