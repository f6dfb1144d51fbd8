/** The detail host's frame: brand, the item's title, a close button — no navigation (SPEC §2 Detail window). */
import { Outlet } from "@remix-run/react";
import { Logo } from "~/components/Logo";
import { useT } from "~/i18n";
import { useHydratedView } from "~/utils/use-hydrated-view";

export function CloseWindowButton() {
  const t = useT();
  // Only a script can close a window: without JS the button would do nothing, so it appears after hydration.
  const js = useHydratedView();
  if (!js) return null;
  return (
    <button type="button" className="secondary small" onClick={() => window.close()}>
      {t.detail.close}
    </button>
  );
}

export function DetailShell() {
  const t = useT();
  return (
    <div className="detail-shell">
      <header className="topbar detail-topbar">
        <span className="brand">
          <Logo />
          <span>{t.appName}</span>
        </span>
        <span className="spacer" />
        <span className="muted small">{t.detail.onlyThis}</span>
        <CloseWindowButton />
      </header>
      <main className="content detail-content" id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
