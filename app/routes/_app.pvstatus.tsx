/**
 * /pvstatus — plant status overview (SPEC §2 Plant status screen): grid, graph and map views, status
 * filters with counts, search, sort, page view count and card size, all in the URL. The list streams
 * (defer + Await) to browsers running this page's script; without JavaScript the loader waits and the
 * whole list arrives in the document, because a streamed Suspense boundary needs script to be revealed.
 * With JavaScript the list refreshes every 6 s (usePolling).
 */
import { defer, json, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Await, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { Suspense, useEffect } from "react";
import { isMobileClient } from "../../domain/mobile";
import { formatSeoul } from "../../domain/seoul-clock";
import { nextFetchLimit } from "../../domain/chart";
import { readCookies } from "~/auth/cookies.server";
import { detailWindowHref } from "~/components/status/DetailLink";
import { requireSection } from "~/auth/section.server";
import { fmt, messages, useT } from "~/i18n";
import { listStreams, plantStatusList, type MapPlant, type PlantStatusList } from "~/models/pvstatus.server";
import { readPreferences } from "~/utils/preferences.server";
import { CountAndSize, SearchForm, SortForm, StatusFilters, ViewModeTabs } from "~/components/plant-cards/Controls";
import { PlantCard } from "~/components/plant-cards/PlantCard";
import { usePolling } from "~/components/plant-cards/usePolling";
import {
  onlyLegendChanged,
  parseView,
  pvstatusHref,
  toggled,
  viewSearch,
  type PvstatusView,
} from "~/components/plant-cards/url-state";
import { LazyMapView } from "~/components/map/LazyMapView";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";

/** Set by this page's script: the browser can reveal streamed content. */
const STREAM_COOKIE = "pvjs";

/**
 * A poll or kiosk step that finds no server keeps the last answer (issue 17). A poll's list comes without the time
 * the API made it (so that an unchanged list is a 304): it is as of the moment this browser got the answer.
 */
export const clientLoader = keepLastGood((data) => {
  const answer = data as { list?: PlantStatusList };
  return answer.list?.ok && answer.list.now === null ? { ...answer, list: { ...answer.list, now: Date.now() } } : data;
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = requireSection(request, context, "pvstatus");
  const url = new URL(request.url);
  const mobile = isMobileClient({ userAgent: request.headers.get("user-agent") });
  const view = parseView(url.searchParams, { mobile });
  const { theme, locale } = readPreferences(request);
  // A poll (the page's own data request every 6 s): the whole list at once, without the time the API made it, so
  // an unchanged list is the same answer and the browser's If-None-Match gets a 304 (entry.server.tsx). The page
  // then shows when its last poll was answered.
  if (context.dataRequest) {
    const list = await plantStatusList(auth.accessToken, view, locale);
    return json(
      { view, mobile, theme, host: url.host, protocol: url.protocol, list: list.ok ? { ...list, now: null } : list },
      { headers: { "Cache-Control": "private, no-cache" } },
    );
  }
  const list = plantStatusList(auth.accessToken, view, locale);
  const streaming = listStreams(readCookies(request.headers.get("cookie"))[STREAM_COOKIE] === "1", url);
  return defer(
    { view, mobile, theme, host: url.host, protocol: url.protocol, list: streaming ? list : await list },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction = ({ matches }) => {
  const t = messages(metaLocale(matches));
  return [{ title: `${t.pvstatus.title} · ${t.appName}` }];
};

/** The legend switches are drawn by CSS: toggling them needs no new data. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (currentUrl.pathname === nextUrl.pathname && onlyLegendChanged(currentUrl.searchParams, nextUrl.searchParams)) return false;
  return defaultShouldRevalidate;
};

function useStreamCookie() {
  useEffect(() => {
    document.cookie = `${STREAM_COOKIE}=1; path=/; samesite=lax`;
  }, []);
}

export default function PlantStatusScreen() {
  const data = useLoaderData<typeof loader>();
  const view = data.view as PvstatusView;
  const t = useT().pvstatus;
  useStreamCookie();
  // Through the main host's handover (a one-time code), so the detail window arrives with a session.
  const detail = (uid: string, name: string) => detailWindowHref("plant", uid, name);
  return (
    <div className={`pv-screen pv-screen-${view.view}`} data-off={view.off.join(" ")}>
      <header className="pv-head">
        <h1>{t.title}</h1>
        <ViewModeTabs view={view} />
      </header>
      <section className="pv-controls" aria-label={t.controls}>
        <SearchForm view={view} />
        {view.view !== "map" ? (
          // Phones start with these folded away so the plants come first; details works without script.
          <details className="pv-more-controls" open={!data.mobile}>
            <summary>{t.moreControls}</summary>
            <div className="pv-more-controls-body">
              <SortForm view={view} />
              <CountAndSize view={view} mobile={data.mobile} />
            </div>
          </details>
        ) : null}
      </section>
      <Suspense
        fallback={
          <>
            <StatusFilters view={view} counts={null} />
            <ListSkeleton view={view} />
          </>
        }
      >
        <Await
          resolve={data.list}
          errorElement={
            <>
              <StatusFilters view={view} counts={null} />
              <ListError view={view} />
            </>
          }
        >
          {(list) => <Loaded list={list as PlantStatusList} view={view} mobile={data.mobile} detail={detail} />}
        </Await>
      </Suspense>
    </div>
  );
}

function ListSkeleton({ view }: { view: PvstatusView }) {
  const t = useT().pvstatus.list;
  const n = view.view === "map" ? 0 : Math.min(view.limit, 12);
  return (
    <div className="pv-skeleton" aria-busy="true">
      <p role="status">{t.loading}</p>
      <noscript>
        <p>
          <a href={`/pvstatus${viewSearch(view, {}) || "?"}${viewSearch(view, {}) ? "&" : ""}stream=0`}>{t.showWithoutScript}</a>
        </p>
      </noscript>
      <div className={`pv-cards pv-cards-${view.view}-${view.size}`} aria-hidden="true">
        {Array.from({ length: n }, (_, i) => (
          <div key={i} className="pv-card pv-card-skeleton" />
        ))}
        {view.view === "map" ? <div className="pv-map-frame pv-card-skeleton" /> : null}
      </div>
    </div>
  );
}

function ListError({ view }: { view: PvstatusView }) {
  const t = useT().pvstatus.list;
  return (
    <div className="alert error" role="alert">
      <p>{t.error}</p>
      <AppLink to={pvstatusHref(viewSearch(view, {}))}>{t.retry}</AppLink>
    </div>
  );
}

function Loaded({
  list,
  view,
  mobile,
  detail,
}: {
  list: PlantStatusList;
  view: PvstatusView;
  mobile: boolean;
  detail: (uid: string, name: string) => string;
}) {
  const t = useT().pvstatus;
  const { active } = usePolling(view, { fetchedAt: list.ok ? (list.now ?? 0) : 0 });
  if (!list.ok) {
    return (
      <>
        <StatusFilters view={view} counts={null} />
        <ListError view={view} />
      </>
    );
  }
  // Seoul wall time, written the same on server and client (no locale data involved).
  // A poll's list is as of its answer (clientLoader); a list without a time (shown before that) has none to show.
  const at = list.now;
  const status = (
    <p className="pv-status-line" aria-live="off">
      {at !== null ? <span>{fmt(t.list.updated, { time: formatSeoul(at, "YYYY-MM-DD HH:mm:ss") })}</span> : null}
      {active ? (
        <span className="pv-live" data-testid="polling">
          {t.list.polling}
        </span>
      ) : null}
      {view.q ? <span>{fmt(t.search.active, { q: view.q })}</span> : null}
    </p>
  );
  if (list.kind === "map") {
    return (
      <>
        <StatusFilters view={view} counts={list.counts} />
        {status}
        <LazyMapView
          points={list.points}
          withoutCoords={list.withoutCoords}
          mobile={mobile}
          detailUrl={(p: MapPlant) => detail(p.uid, p.name)}
        />
      </>
    );
  }
  const graph = view.view === "gh";
  const legend = { off: view.off, href: (s: "gen" | "irr") => viewSearch(view, { off: toggled(view.off, s) }) };
  const more = view.effectiveCount;
  return (
    <>
      <StatusFilters view={view} counts={list.counts} />
      {status}
      <section aria-labelledby="pv-list-heading" className="pv-list">
        {/* The cards' names are h3: the list's own heading keeps the outline h1 → h2 → h3 (it jumped from h1 to h3). */}
        <h2 id="pv-list-heading" className="visually-hidden">
          {t.list.label}
        </h2>
        <p className="pv-shown">{fmt(t.list.shown, { shown: list.list.length, total: list.total })}</p>
        {list.list.length ? (
          <div className={`pv-cards pv-cards-${view.view}-${view.size}`}>
            {list.list.map((card) => (
              <PlantCard
                key={card.plant_uid}
                card={card}
                graph={graph}
                size={view.size}
                detailUrl={detail(card.plant_uid, card.name)}
                legend={legend}
              />
            ))}
          </div>
        ) : (
          <p className="pv-empty">{t.list.empty}</p>
        )}
        {list.hasMore ? (
          <p className="pv-more">
            <AppLink
              to={pvstatusHref(viewSearch(view, { limit: nextFetchLimit(view.limit, more) }))}
              preventScrollReset
              replace
              className="button secondary"
            >
              {fmt(t.list.more, { n: Math.min(more, list.total - list.list.length) })}
            </AppLink>
          </p>
        ) : null}
      </section>
    </>
  );
}
