/**
 * /modify: the member's own account — name, phone and e-mail (intent=profile) — and password change. A member with pwd_yn = 1 is sent
 * here before anything else and leaves only after changing the password (SPEC §3 Auth state).
 */
import { json, type LinksFunction, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { MemberProfileFields } from "../../domain/member-form";
import { passwordProblem } from "../../domain/password-policy";
import { authCookieHeaders, isHttps, withCookies } from "~/auth/cookies.server";
import { requireAuth } from "~/auth/session.server";
import { assertCsrf } from "~/utils/csrf.server";
import { FormAlert, TextInput, fieldErrorsOf, schemaErrors, useClientValidation, useErrorText } from "~/components/AdminForm";
import { redirectWithFlash } from "~/utils/flash.server";
import { messages, useT } from "~/i18n";
import { useApiTokensT } from "~/i18n/api-tokens";
import { ApiFailure } from "~/models/api.server";
import { changeOwnPassword, myProfile, updateOwnProfile } from "~/models/member.server";
import { readPreferences } from "~/utils/preferences.server";
import { AlertPrefSection, failureOf } from "~/components/AlertForms";
import alarmStyles from "~/styles/alarm.css";
import { alertPref, alertRoutes } from "~/models/alarm.server";
import { ROUTE_FORM_BLANKS, alertPrefAction, alertRoutesAction } from "~/utils/alert-forms.server";
import { AlertRoutesSection } from "~/components/AlertRoutes";

type FieldErrors = Partial<Record<"currentPassword" | "newPassword" | "confirmPassword", string>>;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: alarmStyles }];
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireAuth(request, context, { allowPendingPassword: true });
  const [profile, pref, routes] = await Promise.all([
    myProfile(accessToken),
    user.pwd_yn === 1 ? Promise.resolve(null) : alertPref(accessToken).catch(() => null),
    user.pwd_yn === 1 ? Promise.resolve(null) : alertRoutes(accessToken).catch(() => null),
  ]);
  return json({
    profile,
    pref,
    routes,
    routeBlanks: ROUTE_FORM_BLANKS,
    mustChange: user.pwd_yn === 1,
    readOnly: user.readOnly === 1,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken, user } = requireAuth(request, context, { allowPendingPassword: true });
  const form = await request.formData();
  await assertCsrf(form, request);
  if (form.get("intent") === "profile") return profileAction(request, accessToken, form);
  if (form.get("intent") === "alertPref" && user.pwd_yn !== 1) return alertPrefAction(request, accessToken, form, "/modify");
  if (form.get("intent") === "alertRoutes" && user.pwd_yn !== 1) return alertRoutesAction(request, accessToken, form, "/modify");
  const currentPassword = String(form.get("currentPassword") ?? "");
  const newPassword = String(form.get("newPassword") ?? "");
  const confirmPassword = String(form.get("confirmPassword") ?? "");
  const errors: FieldErrors = {};
  if (!currentPassword) errors.currentPassword = "required";
  const problem = passwordProblem(newPassword, { id: user.id, current: currentPassword || undefined });
  if (problem) errors.newPassword = problem;
  if (newPassword !== confirmPassword) errors.confirmPassword = "mismatch";
  if (Object.keys(errors).length) return json({ errors }, { status: 400 });
  try {
    const tokens = await changeOwnPassword(accessToken, user.id, { currentPassword, newPassword });
    return redirect("/modify?changed=1", { headers: withCookies(authCookieHeaders(tokens, isHttps(request.url))) });
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 400 && error.body.fields) {
      return json({ errors: error.body.fields as FieldErrors }, { status: 400 });
    }
    if (error instanceof ApiFailure && error.status === 403) {
      return json({ errors: { currentPassword: "read_only" } as FieldErrors }, { status: 403 });
    }
    throw error;
  }
}

/** The member's own name, phone and e-mail (PUT /api/member); the renewed tokens carry the new claims. */
async function profileAction(request: Request, accessToken: string, form: FormData) {
  const profileValues = {
    name: String(form.get("name") ?? ""),
    phone: String(form.get("phone") ?? ""),
    email: String(form.get("email") ?? ""),
  };
  const parsed = MemberProfileFields.safeParse(profileValues);
  if (!parsed.success) {
    return json({ profileErrors: fieldErrorsOf(parsed.error), profileValues }, { status: 400 });
  }
  try {
    const tokens = await updateOwnProfile(accessToken, {
      name: parsed.data.name,
      phone: parsed.data.phone ?? null,
      email: parsed.data.email ?? null,
    });
    const t = messages(readPreferences(request).locale);
    return redirectWithFlash("/modify", t.profileEdit.saved, {
      headers: withCookies(authCookieHeaders(tokens, isHttps(request.url))),
    });
  } catch (error) {
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) {
      const profileErrors: Record<string, string> = { ...(error.body.fields ?? {}) };
      if (!Object.keys(profileErrors).length) profileErrors._form = error.body.message;
      return json({ profileErrors, profileValues }, { status: error.status });
    }
    throw error;
  }
}

export default function Modify() {
  const { profile, pref, routes, routeBlanks, mustChange, readOnly } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const t = useT();
  const tokensT = useApiTokensT().apiTokens;
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const serverErrors = actionData && "errors" in actionData ? actionData.errors : undefined;
  const errors: FieldErrors = { ...(serverErrors ?? {}), ...clientErrors };
  const profileFailure = actionData && "profileErrors" in actionData ? actionData : undefined;
  const profileText = useErrorText();
  const profileForm = useClientValidation(profileFailure?.profileErrors, (el) => {
    const d = new FormData(el);
    return schemaErrors(MemberProfileFields, {
      name: d.get("name") ?? "",
      phone: d.get("phone") ?? "",
      email: d.get("email") ?? "",
    });
  });
  const pv = profileFailure?.profileValues ?? { name: profile.name, phone: profile.phone ?? "", email: profile.email ?? "" };
  const message = (code?: string) =>
    code ? ((t.password.errors as Record<string, string>)[code] ?? t.password.readOnly) : undefined;

  function validate(event: React.FormEvent<HTMLFormElement>) {
    const data = new FormData(event.currentTarget);
    const next: FieldErrors = {};
    const current = String(data.get("currentPassword") ?? "");
    const pw = String(data.get("newPassword") ?? "");
    if (!current) next.currentPassword = "required";
    const problem = passwordProblem(pw, { id: profile.id, current: current || undefined });
    if (problem) next.newPassword = problem;
    if (pw !== data.get("confirmPassword")) next.confirmPassword = "mismatch";
    setClientErrors(next);
    if (Object.keys(next).length) event.preventDefault();
  }

  const field = (name: keyof FieldErrors, label: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="password"
        autoComplete={autoComplete}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${name}-error` : name === "newPassword" ? "pw-rules" : undefined}
        onChange={() => errors[name] && setClientErrors(({ [name]: _, ...rest }) => rest)}
      />
      {name === "newPassword" ? (
        <span className="hint" id="pw-rules">
          {t.password.rules}
        </span>
      ) : null}
      {errors[name] ? (
        <span className="error" id={`${name}-error`}>
          {message(errors[name])}
        </span>
      ) : null}
    </div>
  );

  return (
    <div className="stack">
      {params.get("changed") ? (
        <p className="alert success" role="status">
          {t.password.changed}
        </p>
      ) : null}
      {mustChange ? (
        <p className="alert warn" role="alert">
          {t.password.requiredNotice}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="profile-title">
        <h1 id="profile-title">{t.profile.title}</h1>
        <dl className="facts">
          <dt>{t.profile.id}</dt>
          <dd>{profile.id}</dd>
          <dt>{t.profile.name}</dt>
          <dd>{profile.name}</dd>
          <dt>{t.profile.node}</dt>
          <dd>{profile.nodeName || "—"}</dd>
          <dt>{t.profile.auth}</dt>
          <dd>{profile.auth}</dd>
          <dt>{t.profile.phone}</dt>
          <dd>{profile.phone || "—"}</dd>
          <dt>{t.profile.email}</dt>
          <dd>{profile.email || "—"}</dd>
        </dl>
      </section>
      {!mustChange ? (
        <section className="panel" aria-labelledby="profile-edit-title">
          <h2 id="profile-edit-title">{t.profileEdit.title}</h2>
          {readOnly ? (
            <p>{t.profileEdit.readOnly}</p>
          ) : (
            <>
              <FormAlert message={profileForm.errors._form ? profileText(profileForm.errors._form) : null} />
              <Form
                method="post"
                noValidate
                onSubmit={profileForm.onSubmit}
                onInput={profileForm.onInput}
                aria-labelledby="profile-edit-title"
              >
                <AuthenticityTokenInput />
                <TextInput
                  form="profile"
                  name="name"
                  label={t.profile.name}
                  required
                  maxLength={50}
                  autoComplete="name"
                  defaultValue={pv.name}
                  error={profileText(profileForm.errors.name)}
                />
                <TextInput
                  form="profile"
                  name="phone"
                  type="tel"
                  inputMode="tel"
                  label={t.profile.phone}
                  maxLength={24}
                  autoComplete="tel"
                  defaultValue={pv.phone}
                  error={profileText(profileForm.errors.phone)}
                />
                <TextInput
                  form="profile"
                  name="email"
                  type="email"
                  inputMode="email"
                  label={t.profile.email}
                  maxLength={120}
                  autoComplete="email"
                  defaultValue={pv.email}
                  error={profileText(profileForm.errors.email)}
                />
                <button type="submit" name="intent" value="profile" disabled={navigation.state === "submitting"}>
                  {t.profileEdit.submit}
                </button>
              </Form>
            </>
          )}
        </section>
      ) : null}
      {!mustChange ? (
        <section className="panel" aria-labelledby="api-tokens-title">
          <h2 id="api-tokens-title">{tokensT.title}</h2>
          <p>{tokensT.linkHint}</p>
          <p>
            <Link to="/modify/token">{tokensT.link}</Link>
          </p>
        </section>
      ) : null}
      {!mustChange ? <AlertPrefSection pref={pref} failure={failureOf(actionData, "alertPref")} readOnly={readOnly} /> : null}
      {!mustChange ? (
        <AlertRoutesSection
          routes={routes}
          blanks={routeBlanks}
          failure={failureOf(actionData, "alertRoutes")}
          readOnly={readOnly}
        />
      ) : null}
      <section className="panel" aria-labelledby="password-title">
        <h2 id="password-title">{t.password.title}</h2>
        {readOnly ? (
          <p>{t.password.readOnly}</p>
        ) : (
          <Form method="post" noValidate onSubmit={validate}>
            <AuthenticityTokenInput />
            {field("currentPassword", t.password.current, "current-password")}
            {field("newPassword", t.password.next, "new-password")}
            {field("confirmPassword", t.password.confirm, "new-password")}
            <button type="submit" disabled={navigation.state === "submitting"}>
              {t.password.submit}
            </button>
          </Form>
        )}
      </section>
    </div>
  );
}
