/**
 * A member's alert routes on /modify (issue 29 §2; domain/alert-routing.ts): one fieldset per route — a plant or
 * group by name (or all their plants), minimum level, codes, mail and webhook — plus blank rows to add one. A plain
 * post with the CSRF token (intent "alertRoutes"); errors next to the fields.
 */
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { AlertRouteView } from "../../domain/contract/alarm";
import { fmt } from "~/i18n";
import { useAlarmT } from "~/i18n/alarm";
import type { AlertFormFailure } from "./AlertForms";

export function AlertRoutesSection({
  routes,
  blanks,
  failure,
  readOnly,
}: {
  routes: AlertRouteView[] | null;
  blanks: number;
  failure?: AlertFormFailure;
  readOnly: boolean;
}) {
  const t = useAlarmT();
  const r = t.routes;
  if (!routes) return null;
  const e = failure?.errors ?? {};
  const fv = failure?.values;
  const text = (code?: string) => (code ? ((r.errors as Record<string, string>)[code] ?? code) : undefined);
  const count = routes.length + blanks;
  const saved = (i: number) => routes[i];
  const val = (k: string, d: string) => (fv ? (fv[k] ?? "") : d);
  const checked = (k: string, d: boolean) => (fv ? fv[k] !== undefined : d);
  const invalid = (k: string) => (e[k] ? { "aria-invalid": true as const, "aria-describedby": `ar-${k}-error` } : {});
  const err = (k: string) =>
    e[k] ? (
      <span className="error" id={`ar-${k}-error`}>
        {text(e[k])}
      </span>
    ) : null;
  return (
    <section className="panel" aria-labelledby="alert-routes-title">
      <h2 id="alert-routes-title">{r.title}</h2>
      <p className="muted">{r.intro}</p>
      {readOnly ? (
        <p>{r.errors.read_only}</p>
      ) : (
        <Form method="post" className="alert-pref-form" key={JSON.stringify(routes)}>
          <AuthenticityTokenInput />
          <input type="hidden" name="rows" value={count} />
          {e._form ? (
            <p className="alert error" role="alert">
              {text(e._form)}
            </p>
          ) : null}
          {Array.from({ length: count }, (_, i) => {
            const s = saved(i);
            const scopeName = s ? (s.plantName ?? s.groupName ?? "") : "";
            const every = !!s && s.plant === null && s.group === null;
            return (
              <fieldset key={i}>
                <legend>{fmt(r.row, { n: i + 1 })}</legend>
                <div className="field">
                  <label htmlFor={`ar-scope${i}`}>{r.scope}</label>
                  <input
                    id={`ar-scope${i}`}
                    name={`scope${i}`}
                    maxLength={100}
                    defaultValue={val(`scope${i}`, scopeName)}
                    {...invalid(`scope${i}`)}
                  />
                  {err(`scope${i}`)}
                </div>
                <div className="check">
                  <input
                    type="checkbox"
                    id={`ar-every${i}`}
                    name={`every${i}`}
                    value="1"
                    defaultChecked={checked(`every${i}`, every)}
                  />
                  <label htmlFor={`ar-every${i}`}>{r.everyPlant}</label>
                </div>
                <div className="field">
                  <label htmlFor={`ar-minLevel${i}`}>{r.minLevel}</label>
                  <select
                    id={`ar-minLevel${i}`}
                    name={`minLevel${i}`}
                    defaultValue={val(`minLevel${i}`, String(s?.minLevel ?? 1))}
                  >
                    {[1, 2, 3, 4].map((l) => (
                      <option key={l} value={l}>
                        {t.alarm.tabs[`l${l}` as "l1"]}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`ar-codes${i}`}>{r.codes}</label>
                  <input
                    id={`ar-codes${i}`}
                    name={`codes${i}`}
                    inputMode="numeric"
                    maxLength={500}
                    defaultValue={val(`codes${i}`, s?.codes?.join(", ") ?? "")}
                    {...invalid(`codes${i}`)}
                  />
                  {err(`codes${i}`)}
                </div>
                <div className="check">
                  <input
                    type="checkbox"
                    id={`ar-mail${i}`}
                    name={`mail${i}`}
                    value="1"
                    defaultChecked={checked(`mail${i}`, s ? s.mail : true)}
                    {...invalid(`mail${i}`)}
                  />
                  <label htmlFor={`ar-mail${i}`}>{r.mail}</label>
                  {err(`mail${i}`)}
                </div>
                <div className="check">
                  <input
                    type="checkbox"
                    id={`ar-webhook${i}`}
                    name={`webhook${i}`}
                    value="1"
                    defaultChecked={checked(`webhook${i}`, s?.webhook ?? false)}
                    {...invalid(`webhook${i}`)}
                  />
                  <label htmlFor={`ar-webhook${i}`}>{r.webhook}</label>
                  {err(`webhook${i}`)}
                </div>
              </fieldset>
            );
          })}
          <p className="hint">{r.hint}</p>
          <button type="submit" name="intent" value="alertRoutes">
            {r.save}
          </button>
        </Form>
      )}
    </section>
  );
}
