/**
 * /setting/ladder?plant=<uid> or ?group=<seq> — the escalation ladder of a plant or group (issue 29 §2): up to six
 * steps, each "after N minutes, to these roles" (operator, safety manager, owner). Server-rendered, works without
 * JavaScript: one row per step (an empty row is not used), field errors per row from the one rule
 * (domain/alarm-ladder.ts LadderSchema, checked again by the API). "Back to the inherited steps" removes the scope's own.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { LADDER_MAX_STEPS, LADDER_ROLES, LadderSchema } from "../../domain/alarm-ladder";
import { fieldErrorsOf } from "../../domain/field-errors";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, TextInput } from "~/components/AdminForm";
import { fmt } from "~/i18n";
import { alarmMessages, useAlarmT } from "~/i18n/alarm";
import { alarmLadder, alarmScope, resetAlarmLadder, saveAlarmLadder } from "~/models/alarm.server";
import { ApiFailure } from "~/models/api.server";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { apiFailure, formFailure, formValues, parseSearch } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { readPreferences } from "~/utils/preferences.server";
import { searchParam } from "~/utils/search-params";

export const meta: MetaFunction = ({ matches }) => {
  const t = alarmMessages(metaLocale(matches));
  return [{ title: `${t.ladder.title} · ${t.appName}` }];
};

const Search = z.object({ plant: searchParam.text(64), group: searchParam.id(0) });

function scopeOf(request: Request): { plant: string } | { group: number } {
  const { plant, group } = parseSearch(Search, request);
  if (plant) return { plant };
  if (group) return { group };
  throw json({ message: "plant_or_group" }, { status: 400 });
}

const hereOf = (scope: { plant: string } | { group: number }) =>
  "plant" in scope ? `/setting/ladder?plant=${encodeURIComponent(scope.plant)}` : `/setting/ladder?group=${scope.group}`;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "plant");
  const scope = scopeOf(request);
  try {
    const [ladder, names] = await Promise.all([alarmLadder(accessToken, scope), alarmScope(accessToken, scope)]);
    const name = "plant" in scope ? (names.plant?.name ?? scope.plant) : (names.group?.name ?? `#${scope.group}`);
    return json({ ladder, name });
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 404 || error.status === 400))
      throw json({ message: error.body.message }, { status: 404 });
    throw error;
  }
}

/** The form's rows as steps: a row with neither minutes nor a ticked role is not used. `rows[i]` is step i's row. */
function stepsOfForm(form: FormData) {
  const steps: Array<{ afterMinutes: string; roles: string[] }> = [];
  const rows: number[] = [];
  for (let row = 0; row < LADDER_MAX_STEPS; row++) {
    const after = String(form.get(`after${row}`) ?? "").trim();
    const roles = form.getAll(`roles${row}`).map(String);
    if (!after && !roles.length) continue;
    steps.push({ afterMinutes: after, roles });
    rows.push(row);
  }
  return { steps, rows };
}

/** A field error of step i (`steps.i.afterMinutes`, `steps.i.roles…`) as the name of its row's field. */
const rowField = (rows: number[]) => (key: string) => {
  const m = /^steps\.(\d+)\.(afterMinutes|roles)/.exec(key);
  if (!m) return key === "steps" ? "_form" : key;
  const row = rows[Number(m[1])] ?? Number(m[1]);
  return m[2] === "afterMinutes" ? `after${row}` : `roles${row}`;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "plant");
  const scope = scopeOf(request);
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = alarmMessages(readPreferences(request).locale);
  const intent = String(form.get("intent") ?? "");
  const values = formValues(form);
  if (intent === "reset") {
    try {
      await resetAlarmLadder(accessToken, scope);
    } catch (error) {
      return apiFailure("reset", error, values);
    }
    return redirectWithFlash(hereOf(scope), t.ladder.resetDone);
  }
  const { steps, rows } = stepsOfForm(form);
  const field = rowField(rows);
  const parsed = LadderSchema.safeParse({ steps });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const [k, v] of Object.entries(fieldErrorsOf(parsed.error))) errors[field(k)] ??= v;
    return formFailure("save", errors, values);
  }
  try {
    await saveAlarmLadder(accessToken, scope, parsed.data.steps);
  } catch (error) {
    return apiFailure("save", error, values, field);
  }
  return redirectWithFlash(hereOf(scope), t.ladder.saved);
}

export default function LadderScreen() {
  const { ladder, name } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const t = useAlarmT();
  const l = t.ladder;
  const errors: Record<string, string> = failure && "errors" in failure ? failure.errors : {};
  const values: Record<string, string> | null = failure && "values" in failure ? failure.values : null;
  const text = (code?: string) => (code ? (l.errors[code] ?? code) : undefined);
  const from = ladder.from;
  const source = ladder.own
    ? l.own
    : !from
      ? l.inheritedDefault
      : "group" in from
        ? fmt(l.inheritedGroup, { group: from.group })
        : fmt(l.inheritedPlant, { plant: from.plant });
  return (
    <div className="admin-screen ladder-screen">
      <h1>{l.title}</h1>
      <p>{"plant" in ladder.scope ? fmt(l.plantScope, { name }) : fmt(l.groupScope, { name })}</p>
      <p className="muted">{l.intro}</p>
      <p data-testid="ladder-source">
        <strong>{source}</strong>
      </p>
      <Form method="post" className="ladder-form" noValidate>
        <AuthenticityTokenInput />
        <FormAlert message={text(errors._form)} />
        {Array.from({ length: LADDER_MAX_STEPS }, (_, row) => {
          const step = ladder.steps[row];
          const after = values ? (values[`after${row}`] ?? "") : step ? String(step.afterMinutes) : "";
          const ticked = values ? (values[`roles${row}`] ?? "").split(",") : (step?.roles ?? []);
          const rolesError = text(errors[`roles${row}`]);
          return (
            <fieldset key={`${row}${JSON.stringify(ladder.steps)}`} className="ladder-step">
              <legend>
                {fmt(l.step, { n: row + 1 })}
                {!step && !values ? <span className="muted small">{` · ${l.unused}`}</span> : null}
              </legend>
              <TextInput
                form="ladder"
                name={`after${row}`}
                label={l.afterMinutes}
                inputMode="numeric"
                maxLength={6}
                defaultValue={after}
                error={text(errors[`after${row}`])}
              />
              <div
                className="field"
                role="group"
                aria-labelledby={`ladder-roles${row}`}
                aria-describedby={rolesError ? `ladder-roles${row}-error` : undefined}
              >
                <span id={`ladder-roles${row}`}>{l.roles}</span>
                {LADDER_ROLES.map((role) => (
                  <div className="check" key={role}>
                    <input
                      id={`ladder-roles${row}-${role}`}
                      type="checkbox"
                      name={`roles${row}`}
                      value={role}
                      defaultChecked={ticked.includes(role)}
                      aria-invalid={rolesError ? true : undefined}
                    />
                    <label htmlFor={`ladder-roles${row}-${role}`}>{l.roleNames[role]}</label>
                  </div>
                ))}
                {rolesError ? (
                  <span className="error" id={`ladder-roles${row}-error`}>
                    {rolesError}
                  </span>
                ) : null}
              </div>
            </fieldset>
          );
        })}
        <div className="form-actions">
          <button type="submit" name="intent" value="save">
            {l.save}
          </button>
          {ladder.own ? (
            <button type="submit" name="intent" value="reset" className="secondary">
              {l.reset}
            </button>
          ) : null}
        </div>
      </Form>
    </div>
  );
}
