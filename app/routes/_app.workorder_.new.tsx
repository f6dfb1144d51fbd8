/**
 * /workorder/new?plant=<uid>&alarm=<seq> — create a work order (issue 29 §3). The alarm page links here with its
 * plant and alarm filled in; without a plant the page first finds one by name (a GET form). The plant's devices and
 * open alarms are offered as checkboxes. Works without JavaScript; a refused form comes back with its field errors.
 */
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { FormAlert } from "~/components/AdminForm";
import { alarmCodeLabel } from "~/components/status/labels";
import { WorkOrderFields } from "~/components/workorder/WorkOrderFields";
import { WorkOrderForm } from "~/components/workorder/form";
import { errorText } from "~/components/workorder/labels";
import { fmt } from "~/i18n";
import { useWorkorderT, workorderMessages } from "~/i18n/workorder";
import { alarmScope } from "~/models/alarm.server";
import { ApiFailure } from "~/models/api.server";
import { createWorkOrder, plantOpenAlarms } from "~/models/workorder.server";
import styles from "~/styles/workorder.css";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { apiFailure, formValues, parseForm } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { readPreferences } from "~/utils/preferences.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = workorderMessages(metaLocale(matches));
  return [{ title: `${t.workorder.newTitle} · ${t.appName}` }];
};

const Search = z.object({
  plant: z.string().trim().max(64).optional().catch(undefined),
  q: z.string().trim().max(100).optional().catch(undefined),
  alarm: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]).map(Number).filter((n) => Number.isInteger(n) && n > 0))
    .catch([]),
});

function requireWriterSection(request: Request, context: LoaderFunctionArgs["context"]) {
  const auth = requireSection(request, context, "workorder");
  if (auth.user.readOnly === 1) throw json({ message: "read_only_member" }, { status: 403 });
  return auth;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireWriterSection(request, context);
  const url = new URL(request.url);
  const s = Search.parse(
    Object.fromEntries(
      [...url.searchParams.keys()].map((k) => [
        k,
        url.searchParams.getAll(k).length > 1 ? url.searchParams.getAll(k) : url.searchParams.get(k),
      ]),
    ),
  );
  if (!s.plant) {
    const found = s.q ? await alarmScope(accessToken, { q: s.q, limit: 20 }) : null;
    return json({
      plant: null,
      q: s.q ?? "",
      matches: found?.matches?.plants ?? null,
      devices: [],
      alarms: [],
      prefill: [] as number[],
    });
  }
  try {
    const [scope, open] = await Promise.all([alarmScope(accessToken, { plant: s.plant }), plantOpenAlarms(accessToken, s.plant)]);
    const alarms = open.map((a) => ({ seq: a.seq, code: a.code, level: a.level }));
    // An alarm asked for that is no longer open (cleared since) is still offered, by its number.
    for (const seq of s.alarm) if (!alarms.some((a) => a.seq === seq)) alarms.unshift({ seq, code: 0, level: 0 });
    return json({ plant: scope.plant, q: "", matches: null, devices: scope.devices, alarms, prefill: s.alarm });
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) throw json({ message: "plant_not_found" }, { status: 404 });
    throw error;
  }
}

const PlantField = z.object({ plant: z.string().trim().min(1, "required").max(64, "too_long") });

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireWriterSection(request, context);
  const form = await request.formData();
  await assertCsrf(form, request);
  const plant = parseForm(PlantField, "create", form);
  if (!plant.ok) return plant.response;
  const parsed = parseForm(WorkOrderForm, "create", form);
  if (!parsed.ok) return parsed.response;
  let id: number;
  try {
    id = (await createWorkOrder(accessToken, { ...parsed.data, plant: plant.data.plant })).id;
  } catch (error) {
    return apiFailure("create", error, formValues(form));
  }
  const t = workorderMessages(readPreferences(request).locale);
  return redirectWithFlash(`/workorder/${id}`, fmt(t.workorder.flash.created, { id }));
}

export default function NewWorkOrder() {
  const data = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useWorkorderT();
  const f = t.workorder.form;
  const errors: Record<string, string> = failure && "errors" in failure ? failure.errors : {};
  const typed: Record<string, string> = failure && "values" in failure ? failure.values : {};
  const split = (v: string | undefined) => (v ? v.split(",").filter(Boolean) : undefined);
  return (
    <div className="analysis-screen workorder-screen">
      <p>
        <AppLink to="/workorder">
          <span aria-hidden="true">← </span>
          {t.workorder.back}
        </AppLink>
      </p>
      <h1>{t.workorder.newTitle}</h1>
      {!data.plant ? (
        <section className="panel" aria-labelledby="wo-plant-find">
          <h2 id="wo-plant-find">{f.plantSearch}</h2>
          <Form method="get" className="filters">
            <div className="field">
              <label htmlFor="wo-plant-q">{f.plantSearch}</label>
              <input id="wo-plant-q" name="q" type="search" maxLength={100} defaultValue={data.q} />
            </div>
            <div className="filter-actions">
              <button type="submit">{f.plantSearchButton}</button>
            </div>
          </Form>
          {data.matches ? (
            data.matches.length ? (
              <ul>
                {data.matches.map((p) => (
                  <li key={p.uid}>
                    <AppLink to={`/workorder/new?plant=${encodeURIComponent(p.uid)}`}>{`${p.name} (${p.uid})`}</AppLink>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{f.noPlants}</p>
            )
          ) : null}
        </section>
      ) : (
        <section className="panel" aria-labelledby="wo-new-form">
          <h2 id="wo-new-form">
            {f.plant}: {data.plant.name} ({data.plant.uid})
          </h2>
          <p>
            <AppLink to="/workorder/new">{f.changePlant}</AppLink>
          </p>
          <Form method="post" className="stack" noValidate>
            <AuthenticityTokenInput />
            <input type="hidden" name="plant" value={data.plant.uid} />
            <FormAlert message={errorText(t, errors._form ?? errors.plant)} />
            <WorkOrderFields
              t={t}
              form="create"
              values={{
                title: typed.title ?? "",
                description: typed.description ?? "",
                priority: typed.priority ?? "normal",
                assignee: typed.assignee ?? "",
                dueDate: typed.dueDate ?? "",
                devices: split(typed.devices) ?? [],
                alarms: split(typed.alarms)?.map(Number) ?? data.prefill,
              }}
              errors={errors}
              devices={data.devices}
              alarms={data.alarms.map((a) => ({
                seq: a.seq,
                label: a.code ? `${alarmCodeLabel(t, a.code)} (${a.code})` : "",
              }))}
            />
            <button type="submit" name="intent" value="create" disabled={navigation.state === "submitting"}>
              {f.submit}
            </button>
          </Form>
        </section>
      )}
    </div>
  );
}
