/**
 * Help `/help?article=<id>&q=<search>&lang=ko|en` (SPEC §2, §7 GET /help/file/{id}): articles for plant owners and
 * operators, written in Markdown in the repository (help/ko, help/en), rendered and sanitised on the server.
 * Every screen's header has a "?" link to its article. Search is a GET form: works without JS.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { HELP_LANGS, HELP_QUERY_MAX } from "../../domain/help";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { renderMarkdown } from "~/components/help/markdown.server";
import { fmt } from "~/i18n";
import { useWorkspaceT, workspaceMessages } from "~/i18n/workspace";
import { helpFile, helpList } from "~/models/help.server";
import { readPreferences } from "~/utils/preferences.server";
import { orNotFound, parseSearch } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = workspaceMessages(metaLocale(matches));
  return [{ title: `${data?.article ? `${data.article.title} · ` : ""}${t.help.title} · ${t.appName}` }];
};

const Search = z.object({
  article: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "invalid")
    .optional(),
  q: z.string().trim().max(HELP_QUERY_MAX, "too_long").default(""),
  lang: z.enum(HELP_LANGS).optional(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "help");
  const s = parseSearch(Search, request);
  const lang = s.lang ?? readPreferences(request).locale;
  const [all, found] = await Promise.all([
    helpList(accessToken, lang, ""),
    s.q ? helpList(accessToken, lang, s.q) : Promise.resolve(null),
  ]);
  const articleId = s.article ?? (s.q ? null : "start");
  const file = articleId ? await orNotFound(helpFile(accessToken, articleId, lang)) : null;
  return json({
    lang,
    q: s.q,
    list: all.helpList,
    results: found?.helpList ?? null,
    article: file ? { id: file.id, title: file.title, html: renderMarkdown(file.markdown) } : null,
  });
}

export default function Help() {
  const { lang, q, list, results, article } = useLoaderData<typeof loader>();
  const t = useWorkspaceT();
  const other = lang === "ko" ? "en" : "ko";
  return (
    <div className="help-page">
      <div className="page-head">
        <h1>{t.help.title}</h1>
      </div>
      <div className="help-layout">
        <aside className="panel help-nav" aria-labelledby="help-list-title">
          <Form method="get" action="/help" role="search" className="help-search" key={q}>
            {lang !== undefined ? <input type="hidden" name="lang" value={lang} /> : null}
            <label htmlFor="help-q">{t.help.search}</label>
            <div className="inline-form">
              <input id="help-q" name="q" type="search" defaultValue={q} maxLength={HELP_QUERY_MAX} />
              <button type="submit">{t.help.searchSubmit}</button>
            </div>
          </Form>
          <h2 id="help-list-title">{t.help.articles}</h2>
          <ul className="help-list">
            {list.map((a) => (
              <li key={a.id}>
                <AppLink
                  to={`/help?${new URLSearchParams({ article: a.id, lang })}`}
                  aria-current={article?.id === a.id ? "page" : undefined}
                >
                  {a.title}
                </AppLink>
              </li>
            ))}
          </ul>
          <p className="small">
            {/* Served by the API (api/docs.ts), not a portal route: a full page load. */}
            <a href="/api/docs">{t.help.apiDocs}</a>
          </p>
        </aside>
        <div className="help-main">
          {results ? (
            <section className="panel" aria-labelledby="help-results">
              <h2 id="help-results" aria-live="polite">
                {results.length ? fmt(t.help.results, { q, count: results.length }) : fmt(t.help.noResults, { q })}
              </h2>
              <ol className="help-results">
                {results.map((r) => (
                  <li key={r.id}>
                    <AppLink to={`/help?${new URLSearchParams({ article: r.id, lang, q })}`}>{r.title}</AppLink>
                    {r.excerpt ? <p className="muted small">{r.excerpt}</p> : null}
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
          {article ? (
            <article className="panel help-article" lang={lang}>
              <div dangerouslySetInnerHTML={{ __html: article.html }} />
              <p className="small">
                <AppLink to={`/help?${new URLSearchParams({ article: article.id, lang: other })}`} hrefLang={other}>
                  {t.help.other}
                </AppLink>
              </p>
            </article>
          ) : null}
        </div>
      </div>
    </div>
  );
}
