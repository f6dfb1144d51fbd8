/**
 * /modify/token: the member's own API tokens for other systems (issue 27 point 6): the list with state and last use,
 * revocation, and a form that creates one and shows its secret once. Server-rendered forms, so it works without
 * JavaScript; the API decides (api/routes/api-tokens.ts), the form checks with the same schema first.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ApiTokenCreateFields } from "../../domain/api-tokens";
import { requireAuth } from "~/auth/session.server";
import { CreateTokenForm, NewTokenSecret, tokenFormInput } from "~/components/api-tokens/CreateTokenForm";
import { TokenTable } from "~/components/api-tokens/TokenTable";
import { fieldErrorsOf } from "~/components/AdminForm";
import { fmt } from "~/i18n";
import { apiTokensMessages, useApiTokensT } from "~/i18n/api-tokens";
import { ApiFailure } from "~/models/api.server";
import { createApiToken, myApiTokens, revokeApiToken } from "~/models/api-tokens.server";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readPreferences } from "~/utils/preferences.server";

export const meta: MetaFunction = () => [{ title: "API 토큰 / API tokens" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireAuth(request, context);
  const list = await myApiTokens(accessToken);
  return json({ ...list, readOnly: user.readOnly === 1, now: Date.now() });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireAuth(request, context);
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = apiTokensMessages(readPreferences(request).locale).apiTokens;
  if (form.get("intent") === "revokeToken") {
    try {
      await revokeApiToken(accessToken, String(form.get("id") ?? ""));
    } catch (error) {
      if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) {
        return json({ intent: "revoke" as const, message: error.body.message }, { status: error.status });
      }
      throw error;
    }
    return redirectWithFlash("/modify/token", t.revoked);
  }
  const values = tokenFormInput(form);
  const parsed = ApiTokenCreateFields.safeParse(values);
  if (!parsed.success) return json({ intent: "create" as const, errors: fieldErrorsOf(parsed.error), values }, { status: 400 });
  try {
    const created = await createApiToken(accessToken, parsed.data);
    // Not a redirect: the secret is in this one answer only.
    return json({ intent: "created" as const, name: created.token.name, secret: created.secret });
  } catch (error) {
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) {
      const errors: Record<string, string> = { ...(error.body.fields ?? {}) };
      if (!Object.keys(errors).length) errors._form = error.body.message;
      return json({ intent: "create" as const, errors, values }, { status: error.status });
    }
    throw error;
  }
}

export default function ApiTokens() {
  const { tokens, plants, limits, maxTokens, readOnly, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useApiTokensT().apiTokens;
  const plantNames = Object.fromEntries(plants.map((p) => [p.uid, p.name]));
  const created = result?.intent === "created" ? result : undefined;
  const failed = result?.intent === "create" ? result : undefined;
  return (
    <div className="stack">
      <p>
        <Link to="/modify">← {t.back}</Link>
      </p>
      <section className="panel wide" aria-labelledby="tokens-title">
        <h1 id="tokens-title">{t.title}</h1>
        <p>{t.intro}</p>
        <p>
          <code>{t.usage}</code> · <a href="/api/openapi.json">{t.docs}</a>
        </p>
        {result?.intent === "revoke" ? (
          <p className="alert error" role="alert">
            {(t.errors as Record<string, string>)[result.message] ?? fmt(t.errors.unknown, { code: result.message })}
          </p>
        ) : null}
        <h2>{t.listTitle}</h2>
        <TokenTable
          tokens={tokens}
          now={now}
          plantNames={plantNames}
          canRevoke={!readOnly}
          caption={t.listTitle}
          empty={t.none}
        />
      </section>
      {created ? <NewTokenSecret name={created.name} secret={created.secret} /> : null}
      {readOnly ? (
        <p>{t.readOnlyMember}</p>
      ) : (
        <>
          <p className="hint">{fmt(t.max, { n: maxTokens })}</p>
          <CreateTokenForm
            key={created ? created.secret : "form"}
            plants={plants}
            limits={limits}
            errors={failed?.errors}
            values={failed?.values}
          />
        </>
      )}
    </div>
  );
}
