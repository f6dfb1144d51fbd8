/**
 * /modify: the member's own account and password change. A member with pwd_yn = 1 is sent
 * here before anything else and leaves only after changing the password (SPEC §3 Auth state).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { passwordProblem } from "../../domain/password-policy";
import { authCookieHeaders, isHttps, withCookies } from "~/auth/cookies.server";
import { requireAuth } from "~/auth/session.server";
import { assertCsrf } from "~/csrf.server";
import { useT } from "~/i18n";
import { ApiFailure } from "~/models/api.server";
import { changeOwnPassword, myProfile } from "~/models/member.server";

type FieldErrors = Partial<Record<"currentPassword" | "newPassword" | "confirmPassword", string>>;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireAuth(request, context, { allowPendingPassword: true });
  const profile = await myProfile(accessToken);
  return json({ profile, mustChange: user.pwd_yn === 1, readOnly: user.readOnly === 1 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken, user } = requireAuth(request, context, { allowPendingPassword: true });
  const form = await request.formData();
  await assertCsrf(form, request);
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

export default function Modify() {
  const { profile, mustChange, readOnly } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const t = useT();
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const errors: FieldErrors = { ...(actionData?.errors ?? {}), ...clientErrors };
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
