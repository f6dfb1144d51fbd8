/**
 * /workorder/<id> — one work order (issue 29 §3): its facts, the state buttons of the moves allowed now
 * (domain/work-order.ts, as the API answers them) each with an optional note, a note form, an edit form while it is
 * open or in progress, and its history (notes, state changes, assignments with author and time). Several forms on
 * one page, told apart by their intent; every one works without JavaScript. Read-only members only read.
 */
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { readUploadForm } from "~/utils/upload-form.server";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { FormAlert, TextInput, TextArea } from "~/components/AdminForm";
import { DetailLink } from "~/components/status/DetailLink";
import { SeoulTime } from "~/components/status/format";
import { alarmCodeLabel } from "~/components/status/labels";
import { WorkOrderFields } from "~/components/workorder/WorkOrderFields";
import { MoveForm, NoteForm, WorkOrderForm } from "~/components/workorder/form";
import { PriorityLabel, StateBadge, errorText } from "~/components/workorder/labels";
import { fmt } from "~/i18n";
import { useWorkorderT, workorderMessages } from "~/i18n/workorder";
import { alarmScope } from "~/models/alarm.server";
import { ApiFailure } from "~/models/api.server";
import { addWorkOrderNote, moveWorkOrder, updateWorkOrder, uploadWorkOrderPhoto, workOrderOne } from "~/models/workorder.server";
import styles from "~/styles/workorder.css";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { formFailure, formValues, parseForm, runIntent } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { readPreferences } from "~/utils/preferences.server";
import { isWorkOrderState } from "../../domain/work-order";
import { PHOTO_ACCEPT, PHOTO_FIELD, PHOTO_MAX_BYTES, photoProblem } from "../../domain/work-order-photo";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = workorderMessages(metaLocale(matches));
  return [{ title: `${fmt(t.workorder.oneTitle, { id: data?.wo.id ?? "" })} · ${t.appName}` }];
};

const Id = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

function idOf(params: { id?: string }): number {
  const parsed = Id.safeParse(params.id);
  if (!parsed.success) throw json({ message: "work_order_not_found" }, { status: 404 });
  return parsed.data;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "workorder");
  const id = idOf(params);
  try {
    const wo = await workOrderOne(accessToken, id);
    const readOnly = user.readOnly === 1;
    const devices = readOnly || !wo.nextStates.length ? [] : (await alarmScope(accessToken, { plant: wo.plant_uid })).devices;
    return json({ wo, devices, readOnly });
  } catch (error) {
    // Another member's work order, or none: the same "not found" (the API answers 404 for both).
    if (error instanceof ApiFailure && error.status === 404) throw json({ message: "work_order_not_found" }, { status: 404 });
    throw error;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "workorder");
  const id = idOf(params);
  const form = await readUploadForm(request, { field: PHOTO_FIELD, maxBytes: PHOTO_MAX_BYTES });
  if (form === "too_large") return formFailure("photo", { [PHOTO_FIELD]: "too_large" });
  await assertCsrf(form, request);
  const t = workorderMessages(readPreferences(request).locale).workorder;
  const here = `/workorder/${id}`;
  return runIntent(
    form,
    {
      move: async () => {
        const to = String(form.get("state") ?? "");
        if (!isWorkOrderState(to)) return formFailure("move", { _form: "unknown_state" }, formValues(form));
        const parsed = parseForm(MoveForm, "move", form);
        if (!parsed.ok) return parsed.response;
        await moveWorkOrder(accessToken, id, to, parsed.data.note);
        return redirectWithFlash(here, fmt(t.flash.moved, { state: t.states[to] }));
      },
      note: async () => {
        const parsed = parseForm(NoteForm, "note", form);
        if (!parsed.ok) return parsed.response;
        await addWorkOrderNote(accessToken, id, parsed.data.note);
        return redirectWithFlash(here, t.flash.noted);
      },
      photo: async () => {
        const file = form.get(PHOTO_FIELD);
        const problem = photoProblem(file instanceof File ? { size: file.size } : null);
        if (problem || !(file instanceof File)) return formFailure("photo", { [PHOTO_FIELD]: problem ?? "required" });
        await uploadWorkOrderPhoto(accessToken, id, file);
        return redirectWithFlash(here, t.flash.photo);
      },
      edit: async () => {
        const parsed = parseForm(WorkOrderForm, "edit", form);
        if (!parsed.ok) return parsed.response;
        // The alarms are kept as they are (they are chosen when the work order is created).
        const { alarms: _kept, ...changes } = parsed.data;
        await updateWorkOrder(accessToken, id, changes);
        return redirectWithFlash(here, t.flash.saved);
      },
    },
    undefined,
    { fallback: "note" },
  );
}

export default function WorkOrderOne() {
  const { wo, devices, readOnly } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useWorkorderT();
  const o = t.workorder.one;
  const busy = navigation.state === "submitting";
  const failed = failure && "intent" in failure ? failure : null;
  const errorsOf = (intent: string): Record<string, string> => (failed?.intent === intent ? failed.errors : {});
  const typedOf = (intent: string): Record<string, string> => (failed?.intent === intent ? failed.values : {});
  const open = wo.nextStates.length > 0;
  const edit = typedOf("edit");
  return (
    <div className="analysis-screen workorder-screen">
      <p>
        <AppLink to="/workorder">
          <span aria-hidden="true">← </span>
          {t.workorder.back}
        </AppLink>
      </p>
      <h1>
        {fmt(t.workorder.oneTitle, { id: wo.id })} · {wo.title}
      </h1>
      <section className="panel" aria-labelledby="wo-facts">
        <h2 id="wo-facts" className="visually-hidden">
          {o.facts}
        </h2>
        <dl className="facts">
          <dt>{o.state}</dt>
          <dd>
            <StateBadge t={t} state={wo.state} />
          </dd>
          <dt>{o.plant}</dt>
          <dd>
            <DetailLink kind="plant" uid={wo.plant_uid} name={wo.plantName} />
          </dd>
          <dt>{o.priority}</dt>
          <dd>
            <PriorityLabel t={t} priority={wo.priority} />
          </dd>
          <dt>{o.assignee}</dt>
          <dd>{wo.assignee ? `${wo.assigneeName ?? ""} (${wo.assignee})` : o.unassigned}</dd>
          <dt>{o.due}</dt>
          <dd>{wo.dueDate ?? o.noDue}</dd>
          <dt>{o.created}</dt>
          <dd>
            {wo.created_by} · <SeoulTime ts={wo.created_at} />
          </dd>
          <dt>{o.devices}</dt>
          <dd>{wo.devices.length ? wo.devices.map((d) => `${d.name} (${d.uid})`).join(", ") : o.none}</dd>
          <dt>{o.alarms}</dt>
          <dd>
            {wo.alarms.length ? (
              <ul className="plain">
                {wo.alarms.map((a) => (
                  <li key={a.seq}>
                    <AppLink to={`/alarm/${a.seq}`}>{fmt(o.alarmLink, { seq: a.seq, level: a.level })}</AppLink>
                    {` · ${alarmCodeLabel(t, a.code)}`}
                  </li>
                ))}
              </ul>
            ) : (
              o.none
            )}
          </dd>
          <dt>{o.description}</dt>
          <dd className="wo-description">{wo.description || o.none}</dd>
        </dl>
      </section>

      <section className="panel" aria-labelledby="wo-move">
        <h2 id="wo-move">{o.moveTitle}</h2>
        {!open ? (
          <p className="muted">{fmt(o.final, { state: t.workorder.states[wo.state] })}</p>
        ) : readOnly ? (
          <p className="muted">{o.readOnly}</p>
        ) : (
          <Form method="post" className="stack">
            <AuthenticityTokenInput />
            <FormAlert message={errorText(t, errorsOf("move")._form)} />
            <TextInput
              form="move"
              name="note"
              label={o.moveNote}
              maxLength={2000}
              defaultValue={typedOf("move").note ?? ""}
              error={errorText(t, errorsOf("move").note)}
            />
            <input type="hidden" name="intent" value="move" />
            <div className="wo-moves">
              {wo.nextStates.map((s) => (
                <button
                  key={s}
                  type="submit"
                  name="state"
                  value={s}
                  disabled={busy}
                  className={s === "cancelled" ? "secondary" : undefined}
                >
                  {s === "open" ? t.workorder.states[s] : t.workorder.moves[s]}
                </button>
              ))}
            </div>
          </Form>
        )}
      </section>

      {readOnly ? null : (
        <section className="panel" aria-labelledby="wo-note">
          <h2 id="wo-note">{o.noteTitle}</h2>
          <Form method="post" className="stack">
            <AuthenticityTokenInput />
            <FormAlert message={errorText(t, errorsOf("note")._form)} />
            <TextArea
              form="note"
              name="note"
              label={o.note}
              rows={3}
              maxLength={2000}
              required
              defaultValue={typedOf("note").note ?? ""}
              error={errorText(t, errorsOf("note").note)}
            />
            <button type="submit" name="intent" value="note" disabled={busy}>
              {o.addNote}
            </button>
          </Form>
        </section>
      )}

      <section className="panel" aria-labelledby="wo-photos">
        <h2 id="wo-photos">{o.photos}</h2>
        {wo.photos.length ? (
          <ul className="wo-photos">
            {wo.photos.map((p) => (
              <li key={p.seq}>
                <a href={`/workorder/${wo.id}/photo/${p.seq}`}>
                  <img src={`/workorder/${wo.id}/photo/${p.seq}`} alt={fmt(o.photoAlt, { seq: p.seq })} loading="lazy" />
                </a>
                <span className="small">
                  {p.author} · <SeoulTime ts={p.at} />
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{o.noPhotos}</p>
        )}
        {readOnly ? null : (
          <Form method="post" encType="multipart/form-data" className="stack">
            <AuthenticityTokenInput />
            <FormAlert message={errorText(t, errorsOf("photo")._form)} />
            <TextInput
              form="photo"
              name={PHOTO_FIELD}
              type="file"
              accept={PHOTO_ACCEPT}
              label={o.photo}
              hint={o.photoHint}
              required
              error={errorText(t, errorsOf("photo")[PHOTO_FIELD])}
            />
            <button type="submit" name="intent" value="photo" disabled={busy}>
              {o.addPhoto}
            </button>
          </Form>
        )}
      </section>

      <section className="panel" aria-labelledby="wo-history">
        <h2 id="wo-history">{o.history}</h2>
        <ol className="wo-history">
          {wo.history.map((h) => (
            <li key={h.seq}>
              <SeoulTime ts={h.at} /> · {h.authorName ? `${h.authorName} (${h.author})` : h.author} · {o.kinds[h.kind]}
              {h.kind === "state" && h.fromState && h.toState
                ? `: ${t.workorder.states[h.fromState]} → ${t.workorder.states[h.toState]}`
                : null}
              {h.kind === "assigned" ? `: ${h.assignee ?? o.unassignedNow}` : null}
              {h.note ? <q>{h.note}</q> : null}
            </li>
          ))}
        </ol>
      </section>

      {readOnly || !open ? null : (
        <section className="panel" aria-labelledby="wo-edit">
          <h2 id="wo-edit">{o.editTitle}</h2>
          <Form method="post" className="stack" noValidate>
            <AuthenticityTokenInput />
            <FormAlert message={errorText(t, errorsOf("edit")._form ?? errorsOf("edit")._)} />
            <WorkOrderFields
              t={t}
              form="edit"
              values={{
                title: edit.title ?? wo.title,
                description: edit.description ?? wo.description,
                priority: edit.priority ?? wo.priority,
                assignee: edit.assignee ?? wo.assignee ?? "",
                dueDate: edit.dueDate ?? wo.dueDate ?? "",
                devices: edit.devices !== undefined ? edit.devices.split(",") : wo.devices.map((d) => d.uid),
                alarms: [],
              }}
              errors={errorsOf("edit")}
              devices={devices}
              alarms={null}
            />
            <button type="submit" name="intent" value="edit" disabled={busy}>
              {t.workorder.form.save}
            </button>
          </Form>
        </section>
      )}
    </div>
  );
}
