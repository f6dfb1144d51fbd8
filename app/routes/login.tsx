/** /login: id and password, or the guest button; works the same without JavaScript. */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { createAuthenticator, LoginRejected, type LoginError } from "~/auth/authenticator.server";
import { authCookieHeaders, isHttps, withCookies } from "~/auth/cookies.server";
import { PASSWORD_CHANGE_PATH, safeRedirectTarget } from "~/auth/session.server";
import { Logo } from "~/components/Logo";
import { PreferenceForms } from "~/components/PreferenceForms";
import { assertCsrf } from "~/utils/csrf.server";
import { parseSearch } from "~/utils/form-action.server";
import { fmt, messages, useT } from "~/i18n";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${messages(metaLocale(matches)).login.title} · ${messages(metaLocale(matches)).appName}` },
];

/** Where to go after signing in (only a path on this site: safeRedirectTarget). */
const Search = z.object({ redirectTo: z.string().optional().catch(undefined) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (context.auth) throw redirect(safeRedirectTarget(parseSearch(Search, request).redirectTo, request));
  return json({ expired: context.authProblem === "renewal_failed" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  await assertCsrf(await request.clone().formData(), request);
  const form = await request.clone().formData();
  try {
    const tokens = await createAuthenticator(context.clientIp).authenticate("form", request);
    const target =
      tokens.pwd_yn === 1 ? `${PASSWORD_CHANGE_PATH}?required=1` : safeRedirectTarget(form.get("redirectTo"), request);
    return redirect(target, { headers: withCookies(authCookieHeaders(tokens, isHttps(request.url))) });
  } catch (error) {
    if (!(error instanceof LoginRejected)) throw error;
    const status = { required: 400, failure: 401, tooMany: 429, unavailable: 503 }[error.reason.kind];
    return json({ error: error.reason, id: String(form.get("id") ?? "") }, { status });
  }
}

function errorText(t: ReturnType<typeof useT>, error: LoginError): string {
  switch (error.kind) {
    case "required":
      return t.login.required;
    case "failure":
      return t.login.failure;
    case "tooMany":
      return fmt(t.login.tooMany, { seconds: error.retryAfter });
    case "unavailable":
      return t.login.unavailable;
  }
}

export default function Login() {
  const t = useT();
  const { expired } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/login");
  const error = actionData?.error;
  return (
    <main className="login-page" id="main">
      <div className="login-card">
        <div className="brand">
          <Logo size={36} />
          <h1>{t.appName}</h1>
        </div>
        <p className="subtitle">{t.login.subtitle}</p>
        {expired && !error ? <p className="alert info">{t.login.expired}</p> : null}
        {error ? (
          <p className="alert error" role="alert" id="login-error">
            {errorText(t, error)}
          </p>
        ) : null}
        <Form method="post" aria-label={t.login.title}>
          <AuthenticityTokenInput />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
          <div className="field">
            <label htmlFor="login-id">{t.login.id}</label>
            <input
              id="login-id"
              name="id"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              defaultValue={actionData?.id ?? ""}
              aria-invalid={error?.kind === "failure" || undefined}
              aria-describedby={error ? "login-error" : undefined}
              autoFocus
            />
          </div>
          <div className="field">
            <label htmlFor="login-password">{t.login.password}</label>
            <input
              id="login-password"
              name="password"
              type="password"
              autoComplete="current-password"
              aria-invalid={error?.kind === "failure" || undefined}
              aria-describedby={error ? "login-error" : undefined}
            />
          </div>
          <div className="actions">
            <button type="submit" name="intent" value="login" disabled={busy}>
              {t.login.submit}
            </button>
            <button type="submit" name="intent" value="guest" className="secondary" disabled={busy}>
              {t.login.guest}
            </button>
          </div>
          <p className="hint">{t.login.guestHint}</p>
        </Form>
        <div className="login-prefs">
          <PreferenceForms />
        </div>
      </div>
    </main>
  );
}
