/**
 * The app promotion pop-up (SPEC §2): a QR per platform (server-rendered SVG), "hide for 1 week" and close.
 * Server-rendered as a panel with a plain form, so it works without script; once hydrated it becomes a Radix
 * dialog (AppPromoDialog.tsx: modal root, focus trap, Escape and a click on the backdrop close it), loaded as
 * a chunk of its own. A QR is also a link: on a device of its platform it opens the store, elsewhere it alerts
 * (with script) or comes back with the alert's text (without).
 */
import { Form, useLocation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { storeLinkDecision, type Platform } from "../../domain/app-promo";
import { useAppPromoT } from "~/i18n/app-promo";

export interface AppPromoData {
  android: { qr: string };
  ios: { qr: string };
}

export const APP_PROMO_ACTION = "/resources/app-promo";

const AppPromoDialog = lazy(() => import("./AppPromoDialog"));

export function AppPromoCodes({ promo }: { promo: AppPromoData }) {
  const t = useAppPromoT().appPromo;
  const location = useLocation();
  const back = location.pathname + location.search;
  const item = (platform: Platform, label: string, alt: string) => (
    <li className="app-promo-item">
      <a
        href={`${APP_PROMO_ACTION}?${new URLSearchParams({ platform, redirectTo: back })}`}
        className="app-promo-qr"
        aria-label={alt}
        onClick={(e) => {
          const d = storeLinkDecision(platform, {
            userAgent: navigator.userAgent,
            width: window.innerWidth,
            maxTouchPoints: navigator.maxTouchPoints,
          });
          if (!d.open) {
            e.preventDefault();
            window.alert(d.alert === "android_only" ? t.androidOnly : t.iosOnly);
          }
        }}
      >
        <span role="img" aria-label={alt} dangerouslySetInnerHTML={{ __html: promo[platform].qr }} />
      </a>
      <span className="app-promo-label">{label}</span>
    </li>
  );
  return (
    <ul className="app-promo-codes">
      {item("android", t.android, t.qrAndroid)}
      {item("ios", t.ios, t.qrIos)}
    </ul>
  );
}

function AppPromoPanel({ promo }: { promo: AppPromoData }) {
  const t = useAppPromoT().appPromo;
  const location = useLocation();
  return (
    <section className="app-promo panel wide" aria-labelledby="app-promo-title">
      <h2 id="app-promo-title">{t.title}</h2>
      <p>{t.body}</p>
      <AppPromoCodes promo={promo} />
      <Form method="post" action={APP_PROMO_ACTION} className="app-promo-actions">
        <AuthenticityTokenInput />
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <button type="submit" name="week" value="1" className="secondary">
          {t.week}
        </button>
        <button type="submit">{t.close}</button>
      </Form>
    </section>
  );
}

export function AppPromo({ promo }: { promo: AppPromoData | null }) {
  const hydrated = useHydrated();
  if (!promo) return null;
  if (!hydrated) return <AppPromoPanel promo={promo} />;
  return (
    <Suspense fallback={<AppPromoPanel promo={promo} />}>
      <AppPromoDialog promo={promo} />
    </Suspense>
  );
}
