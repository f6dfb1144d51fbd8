/** The app shell: top bar (who, alarms, theme, language, logout) and the navigation of SPEC §2. */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Outlet, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { canOpenSection, isCurrentSection, navigationFor, type NavItem } from "../../domain/navigation";
import { helpArticleFor } from "../../domain/help";
import { requireAuth } from "~/auth/session.server";
import { Flash } from "~/components/Flash";
import { Logo } from "~/components/Logo";
import { takeFlash } from "~/utils/flash.server";
import { NoticePopup } from "~/components/NoticePopup";
import { AppPromo } from "~/components/AppPromo";
import { OfflineBanner } from "~/components/OfflineBanner";
import { ReplayBanner } from "~/components/ReplayBanner";
import { historyReplay } from "~/models/history-replay.server";
import { KioskShell } from "~/components/KioskShell";
import { ErrorMessage } from "~/components/ErrorMessage";
import { parseKiosk } from "../../domain/kiosk";
import { appPromoFor } from "~/models/app-promo.server";
import { pendingNotices } from "~/models/notices.server";
import { withDates } from "~/utils/notice-format.server";
import { readPreferences } from "~/utils/preferences.server";
import { PreferenceForms } from "~/components/PreferenceForms";
import { fmt, useT } from "~/i18n";
import { isDetailHost } from "~/utils/detail-host.server";
import { DetailShell } from "~/components/status/DetailShell";
import { shellRevalidation } from "~/utils/shell-revalidation";
import { alarmCount } from "~/models/status.server";
import { formatNumber } from "../../domain/units";

/** Polls and the screen's own query changes revalidate only the screen (see shell-revalidation.ts). */
export const shouldRevalidate = shellRevalidation();

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The detail host shows one plant or member in a frame of its own (SPEC §2 Detail window).
  if (isDetailHost(request)) return json({ detailHost: true as const });
  const auth = requireAuth(request, context, { allowPendingPassword: true });
  const { user } = auth;
  // The alarm badge: open alarms now, as the alarm screen counts them (the token's count is as of the login).
  const [pending, replay, counts] = await Promise.all([
    pendingNotices(request, auth),
    historyReplay(),
    alarmCount(auth.accessToken).catch(() => null),
  ]);
  const notices = withDates(pending, readPreferences(request).locale);
  // A member who must change the password sees no navigation until it is done.
  const nav = user.pwd_yn === 1 ? [] : navigationFor(user);
  const flash = takeFlash(request);
  // The app promotion pop-up waits while the notice pop-up is up: one modal at a time.
  // Nor on a kiosk wallboard (?kiosk=1), which nobody is there to close.
  const kiosk = parseKiosk(new URL(request.url).searchParams);
  const appPromo = notices.length || user.pwd_yn === 1 || kiosk ? null : await appPromoFor(request);
  return json(
    {
      flash: flash.message,
      user: {
        id: user.id,
        auth: user.auth,
        nodeName: user.nodeName,
        readOnly: user.readOnly,
        alarmCount: counts?.alarm_count ?? user.alarmCount,
        alarmActive: counts ? counts.active : null,
        service: user.service,
        pwd_yn: user.pwd_yn,
      },
      nav,
      notices,
      appPromo,
      replay,
    },
    { headers: flash.clear ? { "Set-Cookie": flash.clear } : {} },
  );
}

/** The navigation of SPEC §2; the entry of the screen shown (or one of its sub-pages) is marked current. */
function SideNav({ nav }: { nav: NavItem[] }) {
  const t = useT();
  const { pathname } = useLocation();
  const current = nav.find((item) => isCurrentSection(pathname, item.path));
  return (
    <nav className="sidenav" aria-label={t.nav.label}>
      {/* Phones: the list folds behind a menu button that works without script (a checkbox and its label). */}
      <input type="checkbox" id="nav-toggle" className="nav-toggle" />
      <label htmlFor="nav-toggle" className="nav-toggle-label">
        <span aria-hidden="true">☰ </span>
        {t.nav.menu}
        {current ? <span className="nav-current"> · {t.nav[current.key]}</span> : null}
      </label>
      <ul>
        {nav.map((item) => (
          <li key={item.key}>
            <AppLink to={item.path} prefetch="intent" aria-current={isCurrentSection(pathname, item.path) ? "page" : undefined}>
              {t.nav[item.key]}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function useAppUser() {
  const data = useRouteLoaderData<typeof loader>("routes/_app");
  return data && "user" in data ? data.user : undefined;
}

export default function AppShell() {
  const data = useLoaderData<typeof loader>();
  return "detailHost" in data ? <DetailShell /> : <FullShell {...data} />;
}

/** The "?" of every screen's header: the help article of the section shown (SPEC §6 help bit). */
function HelpLink() {
  const t = useT();
  const { pathname } = useLocation();
  const id = helpArticleFor(pathname);
  return (
    <AppLink to={`/help?article=${id}`} className="help-link" aria-label={t.helpLink} title={t.helpLink}>
      <span aria-hidden="true">?</span>
    </AppLink>
  );
}

type ShellData = Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { detailHost: true }>;

/** A screen that failed (403, 404, 500) is shown inside the shell, so the navigation stays (root's boundary otherwise). */
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("routes/_app");
  if (!data || "detailHost" in data) {
    return (
      <main id="main">
        <ErrorMessage />
      </main>
    );
  }
  return (
    <FullShell {...data}>
      <ErrorMessage />
    </FullShell>
  );
}

function FullShell({ user, nav, flash, notices, appPromo, replay, children }: ShellData & { children?: React.ReactNode }) {
  const t = useT();
  const location = useLocation();
  // Kiosk mode (?kiosk=1) is read from the URL, so it holds whatever the shell loader last said.
  const kiosk = user.pwd_yn === 1 ? null : parseKiosk(new URLSearchParams(location.search));
  if (kiosk) return <KioskShell kiosk={kiosk}>{children}</KioskShell>;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t.skipToContent}
      </a>
      <header className="topbar">
        <AppLink to="/" className="brand">
          <Logo />
          <span>{t.appName}</span>
        </AppLink>
        <span className="spacer" />
        <span className="who">
          <strong>{user.id}</strong>
          {user.nodeName ? ` · ${user.nodeName}` : ""} · {fmt(t.user.level, { level: user.auth })}
        </span>
        {user.readOnly ? <span className="badge">{t.user.readOnly}</span> : null}
        {user.alarmCount > 0 ? (
          <AppLink to="/alarm?status=active" className="badge alarm">
            {user.alarmActive === null
              ? fmt(t.user.alarms, { count: formatNumber(user.alarmCount, 0) })
              : fmt(t.user.alarmStates, {
                  active: formatNumber(user.alarmActive, 0),
                  open: formatNumber(user.alarmCount, 0),
                })}
          </AppLink>
        ) : null}
        {user.pwd_yn !== 1 && canOpenSection(user, "help") ? <HelpLink /> : null}
        <PreferenceForms />
        <Form method="post" action="/logout">
          <AuthenticityTokenInput />
          <button type="submit">{t.logout}</button>
        </Form>
      </header>
      <SideNav nav={nav} />
      <main className="content" id="main" tabIndex={-1}>
        <OfflineBanner />
        <ReplayBanner replay={replay} />
        <Flash message={flash} />
        <NoticePopup notices={notices} />
        <AppPromo promo={appPromo} />
        {children ?? <Outlet />}
      </main>
    </div>
  );
}
