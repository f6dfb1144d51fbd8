/**
 * Main dashboard `/` (SPEC §2 main, §3 Pvstatus overview response and derived totals): fleet totals,
 * status counts linking to the filtered plant status screen, recent alarms (refreshed every 660 000 ms),
 * and the Monitoring screen below them (tabs gen/grid, keyword, sort — `?tab=&q=&sort=&order=`).
 *
 * On the detail host the same path is the detail window's root: the one plant or member its session
 * is scoped to, and nothing else.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { parseMonitorView } from "../../domain/monitoring";
import { canOpenSection } from "../../domain/navigation";
import { readCookies } from "~/auth/cookies.server";
import { requireAuth } from "~/auth/session.server";
import { DetailLink } from "~/components/status/DetailLink";
import { shownMinute } from "~/components/status/format";
import { DetailView, type DetailTokenCopy } from "~/components/status/DetailView";
import { FleetTotals } from "~/components/status/FleetTotals";
import { Monitoring } from "~/components/status/Monitoring";
import { RecentAlarms } from "~/components/status/RecentAlarms";
import { StatusCounts } from "~/components/status/StatusCounts";
import { isDetailHost } from "~/utils/detail-host.server";
import { fmt, messages, useT } from "~/i18n";
import { ApiFailure } from "~/models/api.server";
import type { DetailView as View } from "../../domain/contract/detail";
import { detailView } from "~/models/detail.server";
import { myProfile } from "~/models/member.server";
import { alarmCount, fleetSummary, monitorRows, recentAlarms } from "~/models/status.server";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = messages(metaLocale(matches));
  if (data && data.mode === "detail")
    return [
      {
        title: data.view
          ? `${data.view.kind === "plant" ? data.view.plant.name : data.view.member.name} · ${t.appName}`
          : t.appName,
      },
    ];
  return [{ title: `${t.main.title} · ${t.appName}` }];
};

async function detailLoader({ request, context }: LoaderFunctionArgs) {
  const ended = () =>
    json({ mode: "detail" as const, view: null, tokenCopy: null }, { status: 401, headers: { "Cache-Control": "no-store" } });
  const auth = context.auth;
  if (!auth?.user.scope) return ended();
  let view: View;
  try {
    view = await detailView(auth.accessToken);
  } catch (e) {
    // 401 (session ended: api() answers with a redirect to /login, which the detail host does not serve),
    // 403/404 (access lost): the window says its session has ended.
    if (e instanceof Response || e instanceof ApiFailure) return ended();
    throw e;
  }
  // SPEC §3 Storage: session storage detail_token holds a copy of the cookies for the page's own API calls.
  const cookies = readCookies(request.headers.get("cookie"));
  const tokenCopy: DetailTokenCopy = {
    accessToken: auth.accessToken,
    sessionId: auth.user.sid,
    // After a renewal in this request the cookie's refresh token is the previous one: leave it out.
    ...(cookies.accessToken === auth.accessToken && cookies.refreshToken ? { refreshToken: cookies.refreshToken } : {}),
  };
  return json({ mode: "detail" as const, view, tokenCopy }, { headers: { "Cache-Control": "no-store" } });
}

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  if (isDetailHost(request)) return detailLoader(args);
  const { accessToken, user } = requireAuth(request, context);
  const view = parseMonitorView(new URL(request.url).searchParams);
  const [profile, overview, alarms, count, monitor] = await Promise.all([
    myProfile(accessToken),
    // The dashboard still shows alarms and monitoring when the overview call fails.
    fleetSummary(accessToken).catch((e) => {
      if (e instanceof ApiFailure) return null;
      throw e;
    }),
    recentAlarms(accessToken),
    alarmCount(accessToken),
    monitorRows(accessToken, view),
  ]);
  const totals = overview
    ? {
        total_capa: overview.total_capa,
        total_iw: overview.total_iw,
        total_pw: overview.total_pw,
        yesterday_gen: overview.yesterday_gen,
        today_gen: overview.today_gen,
        month_gen: overview.month_gen,
        year_gen: overview.year_gen,
        accrue_gen: overview.accrue_gen,
      }
    : null;
  return json({
    mode: "main" as const,
    name: profile.name || profile.id,
    memberId: profile.id,
    totals,
    plants: overview ? overview.install.plants : null,
    counts: overview?.counts ?? null,
    alarms: { alarms, open: count.alarm_count, at: shownMinute(Date.now()) },
    levels: count.levels,
    canSeeAlarmScreen: canOpenSection(user, "alarm"),
    canSeeStatusScreen: canOpenSection(user, "pvstatus"),
    view,
    rows: monitor.rows,
  });
}

export default function Main() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  if (data.mode === "detail") {
    if (!data.view || !data.tokenCopy) {
      return (
        <section className="page-message" aria-labelledby="ended-title">
          <h1 id="ended-title">{t.detail.failedTitle}</h1>
          <p role="alert" className="alert warn">
            {t.detail.sessionEnded}
          </p>
        </section>
      );
    }
    return <DetailView initial={data.view as View} tokenCopy={data.tokenCopy} />;
  }
  return (
    <div className="dashboard">
      <div className="page-head">
        <h1>{t.main.title}</h1>
        <p className="muted">
          {fmt(t.main.welcome, { name: data.name })}{" "}
          <DetailLink kind="member" uid={data.memberId} name={data.name}>
            {t.main.myDetail}
          </DetailLink>
        </p>
      </div>
      <div className="dashboard-top">
        <FleetTotals totals={data.totals} plants={data.plants} levels={data.levels} />
        {data.canSeeStatusScreen ? <StatusCounts counts={data.counts} /> : null}
      </div>
      <RecentAlarms initial={data.alarms} showAllLink={data.canSeeAlarmScreen} />
      <Monitoring view={data.view} rows={data.rows} />
    </div>
  );
}
