/** Theme and language switches: plain forms, so they work without JavaScript. */
import { Form, useLocation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useLocale, useT } from "~/i18n";
import { useRouteLoaderData } from "@remix-run/react";

export function PreferenceForms() {
  const t = useT();
  const locale = useLocale();
  const theme = useRouteLoaderData<{ theme: "default" | "dark" }>("root")?.theme ?? "default";
  const location = useLocation();
  const back = location.pathname + location.search;
  const nextTheme = theme === "dark" ? "default" : "dark";
  const nextLocale = locale === "ko" ? "en" : "ko";
  return (
    <>
      <Form method="post" action="/preferences" reloadDocument>
        <AuthenticityTokenInput />
        <input type="hidden" name="redirectTo" value={back} />
        <input type="hidden" name="theme" value={nextTheme} />
        <button type="submit" className="secondary" aria-label={`${t.theme.label}: ${t.theme[nextTheme]}`}>
          {theme === "dark" ? "☀ " : "☾ "}
          {t.theme[nextTheme]}
        </button>
      </Form>
      <Form method="post" action="/preferences" reloadDocument>
        <AuthenticityTokenInput />
        <input type="hidden" name="redirectTo" value={back} />
        <input type="hidden" name="lang" value={nextLocale} />
        <button
          type="submit"
          className="secondary"
          lang={nextLocale}
          aria-label={`${t.language.label}: ${t.language[nextLocale]}`}
        >
          {t.language[nextLocale]}
        </button>
      </Form>
    </>
  );
}
