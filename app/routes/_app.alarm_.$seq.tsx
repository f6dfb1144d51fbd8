/**
 * /alarm/<seq> — one alarm: what, where, since when, its state (auto-cleared and how many times it came back, when
 * so) and its history, with an acknowledge form while it is active. The alarm mail's link opens this page: a reader
 * who is not signed in goes through /login and comes back here (the login's redirect-target rule,
 * domain/redirect-target.ts), so an alarm is acknowledged from a phone in two steps. Works without JavaScript.
 */
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { AlarmLevel } from "~/components/alarm/AlarmLevel";
import { TextInput } from "~/components/AdminForm";
import { DetailLink } from "~/components/status/DetailLink";
import { SeoulTime } from "~/components/status/format";
import { alarmCodeLabel, alarmSubject, engineMessage } from "~/components/status/labels";
import { fmt } from "~/i18n";
import { alarmMessages, useAlarmT } from "~/i18n/alarm";
import { acknowledgeAlarm, alarmOne } from "~/models/alarm.server";
import { ApiFailure } from "~/models/api.server";
import styles from "~/styles/alarm.css";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { apiFailure, formValues, parseForm } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { readPreferences } from "~/utils/preferences.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = alarmMessages(metaLocale(matches));
  return [{ title: `${fmt(t.alarmOne.title, { seq: data?.alarm.seq ?? "" })} · ${t.appName}` }];
};

const Seq = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

function seqOf(params: { seq?: string }): number {
  const parsed = Seq.safeParse(params.seq);
  if (!parsed.success) throw json({ message: "alarm_not_found" }, { status: 404 });
  return parsed.data;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "alarm");
  const seq = seqOf(params);
  try {
    const { alarm, events } = await alarmOne(accessToken, seq);
    return json({ alarm, events, readOnly: user.readOnly === 1 });
  } catch (error) {
    // Another member's alarm, or none: the same "not found" (the API answers 404 for both).
    if (error instanceof ApiFailure && error.status === 404) throw json({ message: "alarm_not_found" }, { status: 404 });
    throw error;
  }
}

const AckForm = z.object({ note: z.string().trim().max(500, "too_long").optional().default("") });

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "alarm");
  const seq = seqOf(params);
  const form = await request.formData();
  await assertCsrf(form, request);
  const parsed = parseForm(AckForm, "acknowledge", form);
  if (!parsed.ok) return parsed.response;
  try {
    await acknowledgeAlarm(accessToken, seq, parsed.data.note);
  } catch (error) {
    return apiFailure("acknowledge", error, formValues(form));
  }
  return redirectWithFlash(`/alarm/${seq}`, alarmMessages(readPreferences(request).locale).alarmOne.acknowledged);
}

export default function AlarmOne() {
  const { alarm: a, events, readOnly } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAlarmT();
  const o = t.alarmOne;
  const errors = failure && "errors" in failure ? failure.errors : {};
  const errorText = (code: string | undefined) => (code ? ((t.alarm.errors as Record<string, string>)[code] ?? code) : undefined);
  const state = t.alarm.states[a.status];
  return (
    <div className="analysis-screen alarm-one">
      <p>
        <AppLink to={`/alarm?plant=${encodeURIComponent(a.plant_uid)}`}>
          <span aria-hidden="true">← </span>
          {o.back}
        </AppLink>
        {readOnly ? null : (
          <>
            {" · "}
            <AppLink to={`/workorder/new?plant=${encodeURIComponent(a.plant_uid)}&alarm=${a.seq}`}>{o.workOrder}</AppLink>
          </>
        )}
      </p>
      <h1>{fmt(o.title, { seq: a.seq })}</h1>
      <section className="panel" aria-labelledby="alarm-facts">
        <h2 id="alarm-facts" className="visually-hidden">
          {o.kind}
        </h2>
        <dl className="facts">
          <dt>{o.state}</dt>
          <dd>
            <strong className={`alarm-state state-${a.status}`} data-testid="alarm-state">
              {state}
              {a.autoCleared ? ` · ${o.autoCleared}` : ""}
            </strong>
            {a.toggles > 0 ? (
              <span className="toggles" title={o.togglesHint}>{` · ↻ ${fmt(o.toggles, { n: a.toggles })}`}</span>
            ) : null}
            {a.ack_by ? (
              <div className="small">
                {fmt(o.ackBy, { who: a.ack_by, time: "" })}
                {a.ack_at ? <SeoulTime ts={a.ack_at} /> : null}
                {a.ack_note ? <q className="ack-note">{a.ack_note}</q> : null}
              </div>
            ) : null}
          </dd>
          <dt>{o.plant}</dt>
          <dd>
            <DetailLink kind="plant" uid={a.plant_uid} name={a.plantName} />
          </dd>
          <dt>{o.device}</dt>
          <dd>{alarmSubject(t, a)}</dd>
          <dt>{o.kind}</dt>
          <dd>{`${alarmCodeLabel(t, a.code)} (${a.code})`}</dd>
          <dt>{o.level}</dt>
          <dd>
            <AlarmLevel t={t} level={a.level} />
          </dd>
          <dt>{o.content}</dt>
          <dd>{engineMessage(t, a) ?? "—"}</dd>
          <dt>{o.raised}</dt>
          <dd>
            <SeoulTime ts={a.raised_at} />
          </dd>
          {a.released_at !== null ? (
            <>
              <dt>{o.cleared}</dt>
              <dd>
                <SeoulTime ts={a.released_at} />
              </dd>
            </>
          ) : null}
        </dl>
      </section>

      <section className="panel" aria-labelledby="alarm-ack">
        <h2 id="alarm-ack">{o.ackTitle}</h2>
        {a.status !== "active" ? (
          <p className="muted">{fmt(o.nothingToDo, { state })}</p>
        ) : readOnly ? (
          <p className="muted">{o.readOnly}</p>
        ) : (
          <Form method="post" className="alarm-ack-form">
            <AuthenticityTokenInput />
            {errors._form ? (
              <p className="alert error" role="alert">
                {errorText(errors._form)}
              </p>
            ) : null}
            <TextInput
              form="ack"
              name="note"
              label={o.note}
              maxLength={500}
              hint={o.notePlaceholder}
              defaultValue={failure && "values" in failure ? (failure.values.note ?? "") : ""}
              error={errorText(errors.note)}
            />
            <button type="submit" name="intent" value="acknowledge" disabled={navigation.state === "submitting"}>
              {o.acknowledge}
            </button>
          </Form>
        )}
      </section>

      <section className="panel" aria-labelledby="alarm-events">
        <h2 id="alarm-events">{o.events}</h2>
        <ol className="alarm-events">
          {events.map((e) => (
            <li key={e.seq}>
              <SeoulTime ts={e.at} /> {o.eventKinds[e.kind] ?? e.kind}
              {e.member_id ? ` · ${e.member_id}` : ""}
              {e.note === "flapping" && !e.member_id ? ` · ${o.flapping}` : e.note ? <q>{e.note}</q> : null}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
