/**
 * The alert forms (MOTIE 2021: owner and electrical safety manager): a member's own alert preferences (on /modify)
 * and a plant's alert contacts (on /setting/plant/{uid}). Plain posts with the CSRF token; errors next to fields.
 */
import { AppLink } from "~/components/AppLink";
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { AlertPref, PlantContacts } from "../../domain/contract/alarm";
import { fmt } from "~/i18n";
import { useAlarmT } from "~/i18n/alarm";

export interface AlertFormFailure {
  intent: string;
  errors: Record<string, string>;
  values: Record<string, string>;
}

/** The failure of `intent` among a page's action answers (several forms share a page). */
export function failureOf(data: unknown, intent: string): AlertFormFailure | undefined {
  return data && typeof data === "object" && "intent" in data && (data as AlertFormFailure).intent === intent
    ? (data as AlertFormFailure)
    : undefined;
}

function FieldError({ id, text }: { id: string; text?: string }) {
  return text ? (
    <span className="error" id={`${id}-error`}>
      {text}
    </span>
  ) : null;
}

export function AlertPrefSection({
  pref,
  failure,
  readOnly,
}: {
  pref: AlertPref | null;
  failure?: AlertFormFailure;
  readOnly: boolean;
}) {
  const t = useAlarmT();
  const a = t.alertPref;
  const e = failure?.errors ?? {};
  const text = (code?: string) => (code ? ((a.errors as Record<string, string>)[code] ?? code) : undefined);
  const fv = failure?.values;
  const val = (k: string, d: string) => (fv ? (fv[k] ?? "") : d);
  const checked = (k: string, d: boolean) => (fv ? fv[k] !== undefined : d);
  if (!pref) return null;
  const invalid = (k: string) => (e[k] ? { "aria-invalid": true as const, "aria-describedby": `ap-${k}-error` } : {});
  return (
    <section className="panel" aria-labelledby="alert-pref-title">
      <h2 id="alert-pref-title">{a.title}</h2>
      <p className="muted">{a.intro}</p>
      {readOnly ? (
        <p>{a.errors.read_only}</p>
      ) : (
        <Form method="post" className="alert-pref-form" key={JSON.stringify(pref)}>
          <AuthenticityTokenInput />
          {e._form ? (
            <p className="alert error" role="alert">
              {text(e._form)}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor="ap-minLevel">{a.minLevel}</label>
            <select
              id="ap-minLevel"
              name="minLevel"
              defaultValue={val("minLevel", String(pref.minLevel))}
              {...invalid("minLevel")}
            >
              {[1, 2, 3, 4].map((l) => (
                <option key={l} value={l}>
                  {t.alarm.tabs[`l${l}` as "l1"]}
                </option>
              ))}
            </select>
            <FieldError id="ap-minLevel" text={text(e.minLevel)} />
          </div>
          <fieldset>
            <legend>{a.channels}</legend>
            <div className="check">
              <input
                type="checkbox"
                id="ap-mail"
                name="mail"
                value="1"
                defaultChecked={checked("mail", pref.mail && !!pref.email)}
                {...invalid("mail")}
              />
              <label htmlFor="ap-mail">{a.mail}</label>
              <FieldError id="ap-mail" text={text(e.mail)} />
            </div>
            <p className="hint">{pref.email ? fmt(a.mailTo, { email: pref.email }) : a.noEmail}</p>
            <div className="check">
              <input type="checkbox" id="ap-webhook" name="webhook" value="1" defaultChecked={checked("webhook", pref.webhook)} />
              <label htmlFor="ap-webhook">{a.webhook}</label>
            </div>
            <div className="field">
              <label htmlFor="ap-webhookUrl">{a.webhookUrl}</label>
              <input
                id="ap-webhookUrl"
                name="webhookUrl"
                type="url"
                inputMode="url"
                maxLength={500}
                placeholder="https://hooks.slack.com/…"
                defaultValue={val("webhookUrl", pref.webhookUrl ?? "")}
                {...invalid("webhookUrl")}
              />
              <FieldError id="ap-webhookUrl" text={text(e.webhookUrl)} />
            </div>
          </fieldset>
          <fieldset>
            <legend>{a.quiet}</legend>
            <div className="quiet-fields">
              <div className="field">
                <label htmlFor="ap-quietFrom">{a.quietFrom}</label>
                <input
                  id="ap-quietFrom"
                  name="quietFrom"
                  type="time"
                  defaultValue={val("quietFrom", pref.quietFrom ?? "")}
                  {...invalid("quietFrom")}
                />
                <FieldError id="ap-quietFrom" text={text(e.quietFrom)} />
              </div>
              <div className="field">
                <label htmlFor="ap-quietTo">{a.quietTo}</label>
                <input
                  id="ap-quietTo"
                  name="quietTo"
                  type="time"
                  defaultValue={val("quietTo", pref.quietTo ?? "")}
                  {...invalid("quietTo")}
                />
                <FieldError id="ap-quietTo" text={text(e.quietTo)} />
              </div>
            </div>
            <p className="hint">{a.quietHint}</p>
          </fieldset>
          <div className="field">
            <label htmlFor="ap-lang">{a.lang}</label>
            <select id="ap-lang" name="lang" defaultValue={val("lang", pref.lang)}>
              {(["ko", "en"] as const).map((l) => (
                <option key={l} value={l} lang={l}>
                  {a.langs[l]}
                </option>
              ))}
            </select>
          </div>
          <div className="check">
            <input type="checkbox" id="ap-digest" name="digest" value="1" defaultChecked={checked("digest", pref.digest)} />
            <label htmlFor="ap-digest">{a.digest}</label>
          </div>
          <div>
            <button type="submit" name="intent" value="alertPref">
              {a.submit}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}

export function PlantContactsSection({
  contacts,
  failure,
  editable,
}: {
  contacts: PlantContacts | null;
  failure?: AlertFormFailure;
  editable: boolean;
}) {
  const t = useAlarmT();
  const c = t.contacts;
  if (!contacts) return null;
  const e = failure?.errors ?? {};
  const text = (code?: string) => (code ? ((c.errors as Record<string, string>)[code] ?? code) : undefined);
  const person = (p: PlantContacts["owner"]) => (p ? `${p.name} (${p.id})${p.email ? ` · ${p.email}` : ""}` : c.none);
  return (
    <section className="panel" aria-labelledby="contacts-title">
      <h2 id="contacts-title">{c.title}</h2>
      <p className="muted">{c.intro}</p>
      <dl className="facts">
        <dt>{c.owner}</dt>
        <dd>{person(contacts.owner)}</dd>
        <dt>{c.safety}</dt>
        <dd>{person(contacts.safety)}</dd>
        <dt>{c.operator}</dt>
        <dd>{person(contacts.operator)}</dd>
      </dl>
      <p>
        <AppLink to={`/setting/ladder?plant=${encodeURIComponent(contacts.plant_uid)}`}>{t.ladder.link}</AppLink>
      </p>
      {editable ? (
        <Form method="post" className="contacts-form" key={JSON.stringify(contacts)}>
          <AuthenticityTokenInput />
          {e._form ? (
            <p className="alert error" role="alert">
              {text(e._form)}
            </p>
          ) : null}
          {(["owner", "safety", "operator"] as const).map((role) => (
            <div className="field" key={role}>
              <label htmlFor={`ct-${role}`}>{c[role]}</label>
              <input
                id={`ct-${role}`}
                name={role}
                maxLength={30}
                autoComplete="off"
                defaultValue={failure ? (failure.values[role] ?? "") : (contacts[role]?.id ?? "")}
                aria-invalid={e[role] ? true : undefined}
                aria-describedby={e[role] ? `ct-${role}-error` : undefined}
              />
              <FieldError id={`ct-${role}`} text={text(e[role])} />
            </div>
          ))}
          <button type="submit" name="intent" value="contacts">
            {c.submit}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
