/**
 * The form that creates an API token (name, scope, optional plant limit, expiry and rate limits), checked with the
 * API's own schema before the round trip and answered with field errors by the server without JavaScript; and the
 * panel that shows a new token's secret this one time.
 */
import { Form, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ApiTokenCreateFields, type ApiTokenListResponse } from "../../../domain/api-tokens";
import { Checkbox, FormAlert, schemaErrors, TextInput, useClientValidation } from "~/components/AdminForm";
import { fmt } from "~/i18n";
import { useApiTokensT } from "~/i18n/api-tokens";

export type TokenFormValues = Record<"name" | "scope" | "expiresOn" | "perMinute" | "perDay", string> & { plants: string[] };

/** The form's fields as the schema and the API take them. */
export function tokenFormInput(d: FormData): TokenFormValues {
  return {
    name: String(d.get("name") ?? ""),
    scope: String(d.get("scope") ?? ""),
    plants: d.getAll("plants").map(String),
    expiresOn: String(d.get("expiresOn") ?? ""),
    perMinute: String(d.get("perMinute") ?? ""),
    perDay: String(d.get("perDay") ?? ""),
  };
}

export function useTokenErrorText() {
  const t = useApiTokensT().apiTokens;
  return (code: string | undefined) =>
    code ? ((t.errors as Record<string, string>)[code] ?? fmt(t.errors.unknown, { code })) : undefined;
}

export function CreateTokenForm({
  plants,
  limits,
  errors: serverErrors,
  values,
}: {
  plants: ApiTokenListResponse["plants"];
  limits: ApiTokenListResponse["limits"];
  errors?: Record<string, string>;
  values?: TokenFormValues;
}) {
  const t = useApiTokensT().apiTokens;
  const text = useTokenErrorText();
  const navigation = useNavigation();
  const form = useClientValidation(serverErrors, (el) => schemaErrors(ApiTokenCreateFields, tokenFormInput(new FormData(el))));
  const v = values ?? { name: "", scope: "read", plants: [], expiresOn: "", perMinute: "", perDay: "" };
  const limitHint = (l: { min: number; max: number; default: number }) => fmt(t.limitHint, l);
  return (
    <section className="panel" aria-labelledby="token-create-title">
      <h2 id="token-create-title">{t.createTitle}</h2>
      <FormAlert message={form.errors._form ? text(form.errors._form) : null} />
      <Form method="post" noValidate onSubmit={form.onSubmit} onInput={form.onInput} aria-labelledby="token-create-title">
        <AuthenticityTokenInput />
        <TextInput
          form="token"
          name="name"
          label={t.name}
          required
          maxLength={60}
          defaultValue={v.name}
          hint={t.nameHint}
          error={text(form.errors.name)}
        />
        <fieldset className="choices" aria-describedby={form.errors.scope ? "token-scope-error" : undefined}>
          <legend>{t.scope}</legend>
          {(["read", "command"] as const).map((scope) => (
            <div className="check" key={scope}>
              <input
                type="radio"
                id={`token-scope-${scope}`}
                name="scope"
                value={scope}
                defaultChecked={v.scope === scope}
                aria-describedby={`token-scope-${scope}-hint`}
              />
              <label htmlFor={`token-scope-${scope}`}>{t.scopes[scope]}</label>
              <span className="hint" id={`token-scope-${scope}-hint`}>
                {t.scopeHints[scope]}
              </span>
            </div>
          ))}
          {form.errors.scope ? (
            <span className="error" id="token-scope-error">
              {text(form.errors.scope)}
            </span>
          ) : null}
        </fieldset>
        {plants.length ? (
          <fieldset className="choices token-plants check-grid" aria-describedby="token-plants-hint">
            <legend>{t.plants}</legend>
            <span className="hint" id="token-plants-hint">
              {t.plantsHint}
            </span>
            {plants.map((p) => (
              <Checkbox
                key={p.uid}
                form="token"
                name="plants"
                value={p.uid}
                label={p.name}
                defaultChecked={v.plants.includes(p.uid)}
              />
            ))}
            {form.errors.plants ? <span className="error">{text(form.errors.plants)}</span> : null}
          </fieldset>
        ) : null}
        <TextInput
          form="token"
          name="expiresOn"
          type="date"
          label={t.expiresOn}
          defaultValue={v.expiresOn}
          hint={t.expiresHint}
          error={text(form.errors.expiresOn)}
        />
        <TextInput
          form="token"
          name="perMinute"
          inputMode="numeric"
          label={t.perMinute}
          defaultValue={v.perMinute}
          hint={limitHint(limits.perMinute)}
          error={text(form.errors.perMinute)}
        />
        <TextInput
          form="token"
          name="perDay"
          inputMode="numeric"
          label={t.perDay}
          defaultValue={v.perDay}
          hint={limitHint(limits.perDay)}
          error={text(form.errors.perDay)}
        />
        <button type="submit" name="intent" value="createToken" disabled={navigation.state === "submitting"}>
          {t.create}
        </button>
      </Form>
    </section>
  );
}

/** A new token's secret, shown once (the store keeps only its hash). */
export function NewTokenSecret({ name, secret }: { name: string; secret: string }) {
  const t = useApiTokensT().apiTokens;
  return (
    <section className="panel token-secret" aria-labelledby="token-secret-title" role="status">
      <h2 id="token-secret-title">{t.createdTitle}</h2>
      <p>{t.createdBody}</p>
      <div className="field">
        <label htmlFor="token-secret">
          {t.secretLabel} · {name}
        </label>
        <input id="token-secret" type="text" readOnly value={secret} spellCheck={false} autoComplete="off" />
      </div>
    </section>
  );
}
