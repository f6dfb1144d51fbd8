/**
 * Help calls (SPEC §7 GET /help/file/{id}; GET /help/file lists and searches): the Markdown articles of
 * `help/<lang>/<id>.md` in the repository, read once per process. Open to members with the help service bit
 * (SPEC §6 bit 0).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Router, type Request } from "express";
import { HelpFileId, HelpFileQuery, HelpListQuery, type HelpFile, type HelpListResponse } from "../../domain/contract/help";
import { HELP_ARTICLES, HELP_LANGS, markdownText, markdownTitle, searchArticle, type HelpLang } from "../../domain/help";
import { hasService } from "../../domain/service-bits";
import { projectFile } from "../project-files";
import { requireSettled } from "../auth/guards";
import { forbidden, handle, notFound, parse } from "../http";

export const HELP_DIR = projectFile("help");

interface Article {
  id: string;
  title: string;
  markdown: string;
  text: string;
}

function loadArticles(dir: string): Record<HelpLang, Article[]> {
  const out = {} as Record<HelpLang, Article[]>;
  for (const lang of HELP_LANGS) {
    out[lang] = HELP_ARTICLES.map(({ id }) => {
      const markdown = readFileSync(path.join(dir, lang, `${id}.md`), "utf8");
      return { id, title: markdownTitle(markdown) || id, markdown, text: markdownText(markdown) };
    });
  }
  return out;
}

function requireHelp(req: Request) {
  const me = requireSettled(req);
  if (!hasService(me.service, "help")) throw forbidden("help_not_enabled");
  return me;
}

export function helpRoutes(dir = HELP_DIR): Router {
  const r = Router();
  let articles: Record<HelpLang, Article[]> | null = null;
  const all = () => (articles ??= loadArticles(dir));

  r.get(
    "/help/file",
    handle((req): HelpListResponse => {
      requireHelp(req);
      const { lang, q } = parse(HelpListQuery, req.query);
      const list = all()[lang];
      if (!q) return { lang, q, helpList: list.map((a) => ({ id: a.id, title: a.title, excerpt: null })) };
      const hits = list
        .map((a) => ({ a, hit: searchArticle(a.title, a.text, q) }))
        .filter((x) => x.hit)
        .sort((x, y) => y.hit!.score - x.hit!.score);
      return { lang, q, helpList: hits.map(({ a, hit }) => ({ id: a.id, title: a.title, excerpt: hit!.excerpt })) };
    }),
  );

  r.get(
    "/help/file/:id",
    handle((req): HelpFile => {
      requireHelp(req);
      const id = parse(HelpFileId, req.params.id);
      const { lang } = parse(HelpFileQuery, req.query);
      const article = all()[lang].find((a) => a.id === id);
      if (!article) throw notFound("help_not_found");
      return { id, lang, title: article.title, markdown: article.markdown };
    }),
  );

  return r;
}
