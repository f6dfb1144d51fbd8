import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { useLinkNavigation } from "./components/AppLink";
import { useNonce } from "./components/Nonce";
import { ErrorMessage } from "./components/ErrorMessage";
import { commitCsrfToken } from "./utils/csrf.server";
import { messages } from "./i18n";
import { readPreferences } from "./utils/preferences.server";
import { guardDetailHost } from "./utils/detail-host.server";
import styles from "./styles/app.css";
import { shellRevalidation } from "./utils/shell-revalidation";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** Polls and the screen's own query changes revalidate only the screen (see shell-revalidation.ts). */
export const shouldRevalidate = shellRevalidation();

export const meta: MetaFunction = () => [{ title: messages("ko").appName }];

export async function loader({ request }: LoaderFunctionArgs) {
  // The detail host serves only the detail window (its root and the handover), nothing else.
  guardDetailHost(request);
  const { theme, locale } = readPreferences(request);
  const [csrf, csrfCookie] = await commitCsrfToken(request);
  return json({ theme, locale, csrf }, { headers: csrfCookie ? { "Set-Cookie": csrfCookie } : {} });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  return (
    <html lang={data?.locale ?? "ko"} data-theme={data?.theme ?? "default"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={data?.theme === "dark" ? "dark" : "light"} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { csrf } = useLoaderData<typeof loader>();
  useLinkNavigation();
  return (
    <AuthenticityTokenProvider token={csrf}>
      <Outlet />
    </AuthenticityTokenProvider>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main">
      <ErrorMessage />
    </main>
  );
}
