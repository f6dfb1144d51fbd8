/**
 * Custom pages `/page` (SPEC §2, §7 POST /custom, GET /node/customs): a member's own pages of widgets for chosen
 * plants — status card, inverter values, environment values, today's generation chart. The list is `/page`,
 * a page `/page?p=<unique>`, its editor `&edit=1` (adding a widget is two plain steps: the plant, `&plant=`,
 * then its devices). Every change is a plain form post (works without JS); with JS the page refreshes every
 * minute and edits happen without a full reload.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { CustomUnique, PAGE_TITLE_MAX, WIDGET_KINDS, type CustomWidget } from "../../domain/contract/custom";
import { DIAGRAM_REFRESH_MS } from "../../domain/diagram";
import { formatEnergy, formatNumber, formatPower } from "../../domain/units";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { CONDITION_MARK, conditionText } from "~/components/diagram/words";
import { FormAlert as FormError } from "~/components/AdminForm";
import { CardChart } from "~/components/charts/CardChart";
import { PlantCard } from "~/components/plant-cards/PlantCard";
import { detailWindowHref } from "~/components/status/DetailLink";
import { seoulYmdHm } from "~/components/status/format";
import { usePolling } from "~/components/status/usePolling";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt, useT } from "~/i18n";
import { useWorkspaceT, workspaceMessages, type WorkspaceCatalogue } from "~/i18n/workspace";
import { ApiFailure } from "~/models/api.server";
import { customPage, customPages, deleteCustomPage, saveCustomPage, type WidgetView } from "~/models/custom-pages.server";
import { readPreferences } from "~/utils/preferences.server";
import {
  apiFailure,
  formFailure,
  formValues,
  orNotFound,
  parseForm,
  parseSearch,
  runIntent,
  type FormFailure,
  type FormValues,
} from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = workspaceMessages(metaLocale(matches));
  return [{ title: `${data?.page ? `${data.page.page.title} · ` : ""}${t.customPage.title} · ${t.appName}` }];
};

const Search = z.object({
  p: CustomUnique.optional(),
  edit: z.enum(["1"]).optional(),
  plant: z.string().trim().min(1).max(64).optional(),
});

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "page");
  const s = parseSearch(Search, request);
  const locale = readPreferences(request).locale;
  const editing = !!s.p && s.edit === "1" && !user.readOnly;
  const [list, page] = await Promise.all([
    orNotFound(customPages(accessToken, editing ? s.plant : undefined)),
    s.p ? orNotFound(customPage(accessToken, s.p, locale)) : Promise.resolve(null),
  ]);
  return json({
    list,
    page,
    editing,
    addPlant: editing ? (s.plant ?? null) : null,
    readOnly: !!user.readOnly,
    at: page?.now ?? Date.now(),
  });
}

const pageHref = (p: string, edit = false, plant?: string) =>
  `/page?${new URLSearchParams({ p, ...(edit ? { edit: "1" } : {}), ...(plant ? { plant } : {}) })}`;

const CreateForm = z.object({
  unique: CustomUnique,
  title: z.string({ required_error: "required" }).trim().min(1, "required").max(PAGE_TITLE_MAX, "too_long"),
});
const Target = z.object({ p: CustomUnique });
const RenameForm = Target.extend({ title: CreateForm.shape.title });
const AddForm = Target.extend({
  kind: z.enum(WIDGET_KINDS, { errorMap: () => ({ message: "invalid_kind" }) }),
  plantName: z.string({ required_error: "required" }).trim().min(1, "required").max(64),
  inv: z.union([z.string(), z.array(z.string())]).optional(),
  env: z.union([z.string(), z.array(z.string())]).optional(),
});
const IndexForm = Target.extend({ index: z.coerce.number().int().min(0).max(100), dir: z.enum(["up", "down"]).optional() });
const DeleteForm = Target.extend({ confirm: z.literal("1", { errorMap: () => ({ message: "confirm" }) }) });

const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []).join(",");

/** Reads the page, changes its widgets or title, and stores it whole (POST /custom). */
async function change(
  token: string,
  unique: string,
  locale: "ko" | "en",
  edit: (p: { title: string; widgets: CustomWidget[] }) => { title: string; widgets: CustomWidget[] },
) {
  const current = await customPage(token, unique, locale);
  const next = edit({
    title: current.page.title,
    widgets: current.page.widgets.map(({ kind, plantName, invStr, envStr }) => ({ kind, plantName, invStr, envStr })),
  });
  await saveCustomPage(token, { unique, ...next });
}

interface PageCtx {
  accessToken: string;
  form: FormData;
  locale: ReturnType<typeof readPreferences>["locale"];
  t: ReturnType<typeof workspaceMessages>["customPage"];
}

async function create({ accessToken, form, t }: PageCtx, intent: string) {
  const f = parseForm(CreateForm, intent, form);
  if (!f.ok) return f.response;
  const existing = await customPages(accessToken);
  if (existing.customList.some((p) => p.unique === f.data.unique))
    return formFailure(intent, { unique: "exists" }, formValues(form));
  await saveCustomPage(accessToken, { ...f.data, widgets: [] });
  return redirectWithFlash(pageHref(f.data.unique, true), t.created);
}

async function rename({ accessToken, form, locale, t }: PageCtx, intent: string) {
  const f = parseForm(RenameForm, intent, form);
  if (!f.ok) return f.response;
  await change(accessToken, f.data.p, locale, (p) => ({ ...p, title: f.data.title }));
  return redirectWithFlash(pageHref(f.data.p, true), t.saved);
}

async function add({ accessToken, form, locale, t }: PageCtx, intent: string) {
  const f = parseForm(AddForm, intent, form);
  if (!f.ok) return f.response;
  const widget: CustomWidget = {
    kind: f.data.kind,
    plantName: f.data.plantName,
    invStr: f.data.kind === "inverter" ? list(f.data.inv) : "",
    envStr: f.data.kind === "environment" ? list(f.data.env) : "",
  };
  await change(accessToken, f.data.p, locale, (p) => ({ ...p, widgets: [...p.widgets, widget] }));
  return redirectWithFlash(pageHref(f.data.p, true), t.saved);
}

/** Changes one widget's place in the list (`move`, by `dir`) or takes it out (`remove`). */
async function reorder({ accessToken, form, locale, t }: PageCtx, intent: string) {
  const f = parseForm(IndexForm, intent, form);
  if (!f.ok) return f.response;
  const { index, dir } = f.data;
  await change(accessToken, f.data.p, locale, (p) => {
    const widgets = [...p.widgets];
    if (intent === "remove") widgets.splice(index, 1);
    else {
      const to = dir === "up" ? index - 1 : index + 1;
      if (to >= 0 && to < widgets.length && index < widgets.length)
        [widgets[index], widgets[to]] = [widgets[to]!, widgets[index]!];
    }
    return { ...p, widgets };
  });
  return redirectWithFlash(pageHref(f.data.p, true), t.saved);
}

async function remove({ accessToken, form, t }: PageCtx, intent: string) {
  const f = parseForm(DeleteForm, intent, form);
  if (!f.ok) return f.response;
  await deleteCustomPage(accessToken, f.data.p);
  return redirectWithFlash("/page", t.deleted);
}

/** A page or plant gone meanwhile is the form's 404; other API refusals are the form's failure. */
function pageFailure(intent: string, error: unknown, values: FormValues) {
  if (error instanceof ApiFailure && error.status === 404) {
    return formFailure(intent, { _form: error.body.message === "page_not_found" ? "notFound" : "plant_not_found" }, values, 404);
  }
  return apiFailure(intent, error, values, (n) => n.replace(/^widgets\.\d+\./, ""));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "page");
  const form = await request.formData();
  await assertCsrf(form, request);
  const locale = readPreferences(request).locale;
  const t = workspaceMessages(locale).customPage;
  return runIntent(
    form,
    { create, rename, add, move: reorder, remove: reorder, delete: remove },
    { accessToken, form, locale, t },
    { fallback: "create", failure: pageFailure },
  );
}

function errText(t: WorkspaceCatalogue, code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (code === "notFound") return t.customPage.notFound;
  return (t.customPage.errors as Record<string, string>)[code] ?? code;
}

function InverterTable({ w }: { w: WidgetView }) {
  const t = useWorkspaceT();
  const c = t.customPage.table;
  return (
    <div className="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">{c.device}</th>
            <th scope="col">{c.output}</th>
            <th scope="col">{c.today}</th>
            <th scope="col">{c.state}</th>
            <th scope="col">{c.time}</th>
          </tr>
        </thead>
        <tbody>
          {(w.inverters ?? []).map((d) => {
            const p = formatPower(d.values.w);
            const e = formatEnergy(d.values.today_wh);
            return (
              <tr key={d.device_uid} className={`sl-cond-${d.condition}`}>
                <th scope="row">{d.name}</th>
                <td className="num">{d.values.w != null ? `${p.value} ${p.unit}` : "–"}</td>
                <td className="num">{d.values.today_wh != null ? `${e.value} ${e.unit}` : "–"}</td>
                <td>
                  <span aria-hidden="true">{CONDITION_MARK[d.condition]} </span>
                  {conditionText(t, d.condition, d.alarm)}
                </td>
                <td>{d.ts ? seoulYmdHm(d.ts) : "–"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SensorTable({ w }: { w: WidgetView }) {
  const t = useWorkspaceT();
  const s = t.customPage.sensor;
  const f = (v: number | null, d: number, unit: string) => (v == null ? "–" : `${formatNumber(v, d)} ${unit}`);
  return (
    <div className="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">{t.customPage.table.device}</th>
            <th scope="col">{s.iis}</th>
            <th scope="col">{s.his}</th>
            <th scope="col">{s.sts}</th>
            <th scope="col">{s.ats}</th>
            <th scope="col">{t.customPage.table.state}</th>
          </tr>
        </thead>
        <tbody>
          {(w.sensors ?? []).map((x) => (
            <tr key={x.device_uid}>
              <th scope="row">{x.name}</th>
              <td className="num">{f(x.iis, 0, "W/m²")}</td>
              <td className="num">{f(x.his, 0, "W/m²")}</td>
              <td className="num">{f(x.sts, 1, "°C")}</td>
              <td className="num">{f(x.ats, 1, "°C")}</td>
              <td>
                <span aria-hidden="true">{CONDITION_MARK[x.condition]} </span>
                {conditionText(t, x.condition, null)}
                {x.ts ? ` · ${seoulYmdHm(x.ts)}` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Widget({ w, page, editing, count }: { w: WidgetView; page: string; editing: boolean; count: number }) {
  const t = useWorkspaceT();
  const core = useT();
  const title = fmt(t.customPage.widgetOf, { kind: t.customPage.kinds[w.kind], plant: w.plant?.name ?? w.plantName });
  return (
    <section className={`panel widget widget-${w.kind}`} aria-labelledby={`w-${w.index}`}>
      <h2 id={`w-${w.index}`} className="widget-title">
        {title}
      </h2>
      {!w.plant ? (
        <p className="muted">{t.customPage.gone}</p>
      ) : w.kind === "status" && w.card ? (
        <PlantCard
          card={w.card}
          graph={false}
          size="md"
          detailUrl={detailWindowHref("plant", w.card.plant_uid, w.card.name)}
          legend={{ off: [], href: () => "" }}
        />
      ) : w.kind === "chart" && w.card ? (
        <div className="pv-chart-box widget-chart">
          {w.card.chart ? <CardChart id={w.card.plant_uid} data={w.card.chart} t={core.pvstatus} /> : null}
        </div>
      ) : w.kind === "inverter" ? (
        <InverterTable w={w} />
      ) : w.kind === "environment" ? (
        <SensorTable w={w} />
      ) : null}
      {editing ? (
        <div className="widget-tools">
          {(["up", "down"] as const).map((dir) => (
            <Form method="post" key={dir} className="inline">
              <AuthenticityTokenInput />
              <input type="hidden" name="p" value={page} />
              <input type="hidden" name="index" value={w.index} />
              <input type="hidden" name="dir" value={dir} />
              <button
                type="submit"
                name="intent"
                value="move"
                className="secondary small"
                disabled={dir === "up" ? w.index === 0 : w.index === count - 1}
                aria-label={`${t.customPage[dir]}: ${title}`}
              >
                {dir === "up" ? "↑" : "↓"} {t.customPage[dir]}
              </button>
            </Form>
          ))}
          <Form method="post" className="inline">
            <AuthenticityTokenInput />
            <input type="hidden" name="p" value={page} />
            <input type="hidden" name="index" value={w.index} />
            <button
              type="submit"
              name="intent"
              value="remove"
              className="secondary small"
              aria-label={`${t.customPage.remove}: ${title}`}
            >
              ✕ {t.customPage.remove}
            </button>
          </Form>
        </div>
      ) : null}
    </section>
  );
}

function Editor({ unique, title, failure }: { unique: string; title: string; failure?: FormFailure }) {
  const t = useWorkspaceT();
  const { list, addPlant } = useLoaderData<typeof loader>();
  const c = t.customPage;
  const errs = (intent: string) => (failure?.intent === intent ? failure.errors : {});
  const inverters = (list.deviceList ?? []).filter((d) => d.kind === 1);
  const sensors = (list.deviceList ?? []).filter((d) => d.kind === 4);
  return (
    <section className="panel wide page-editor" aria-labelledby="page-editor">
      <h2 id="page-editor">{c.add}</h2>
      <Form method="get" action="/page" className="inline-form">
        <input type="hidden" name="p" value={unique} />
        <input type="hidden" name="edit" value="1" />
        <label htmlFor="add-plant">{c.plant}</label>
        <select id="add-plant" name="plant" defaultValue={addPlant ?? ""} key={addPlant ?? ""}>
          <option value="" disabled>
            {c.choosePlant}
          </option>
          {list.plantList.map((p) => (
            <option key={p.plant_uid} value={p.plant_uid}>
              {p.name}
            </option>
          ))}
        </select>
        <button type="submit" className="secondary">
          {c.choosePlant}
        </button>
      </Form>
      {!addPlant ? (
        <p className="muted small">{c.addStep1}</p>
      ) : (
        <Form method="post" className="add-widget">
          <AuthenticityTokenInput />
          <FormError message={errText(t, errs("add")._form)} />
          <input type="hidden" name="p" value={unique} />
          <input type="hidden" name="plantName" value={addPlant} />
          <fieldset>
            <legend>{c.kind}</legend>
            {WIDGET_KINDS.map((k, i) => (
              <label key={k} className="choice">
                <input type="radio" name="kind" value={k} defaultChecked={i === 0} /> {c.kinds[k]}
              </label>
            ))}
          </fieldset>
          {inverters.length ? (
            <fieldset>
              <legend>
                {c.inverters}{" "}
                <span className="muted small">
                  ({c.kinds.inverter}) — {c.devicesAll}
                </span>
              </legend>
              {inverters.map((d) => (
                <label key={d.device_uid} className="choice">
                  <input type="checkbox" name="inv" value={d.device_uid} /> {d.name}
                </label>
              ))}
              {errs("add").invStr ? <span className="error">{errText(t, errs("add").invStr)}</span> : null}
            </fieldset>
          ) : null}
          {sensors.length ? (
            <fieldset>
              <legend>
                {c.sensors}{" "}
                <span className="muted small">
                  ({c.kinds.environment}) — {c.devicesAll}
                </span>
              </legend>
              {sensors.map((d) => (
                <label key={d.device_uid} className="choice">
                  <input type="checkbox" name="env" value={d.device_uid} /> {d.name}
                </label>
              ))}
            </fieldset>
          ) : null}
          <div className="form-actions">
            <button type="submit" name="intent" value="add">
              {c.addSubmit}
            </button>
          </div>
        </Form>
      )}
      <h2>{c.rename}</h2>
      <Form method="post" className="inline-form">
        <AuthenticityTokenInput />
        <input type="hidden" name="p" value={unique} />
        <label htmlFor="rename-title">{c.titleField}</label>
        <input
          id="rename-title"
          name="title"
          defaultValue={title}
          maxLength={PAGE_TITLE_MAX}
          required
          aria-invalid={errs("rename").title ? true : undefined}
        />
        <button type="submit" name="intent" value="rename">
          {c.renameSubmit}
        </button>
        {errs("rename").title ? <span className="error">{errText(t, errs("rename").title)}</span> : null}
      </Form>
      <h2>{c.delete}</h2>
      <Form method="post" className="inline-form">
        <AuthenticityTokenInput />
        <input type="hidden" name="p" value={unique} />
        <label className="choice">
          <input type="checkbox" name="confirm" value="1" /> {c.deleteConfirm}
        </label>
        <button type="submit" name="intent" value="delete" className="danger">
          {c.delete}
        </button>
        {errs("delete").confirm ? <span className="error">{errText(t, errs("delete").confirm)}</span> : null}
      </Form>
    </section>
  );
}

export default function CustomPageScreen() {
  const { list, page, editing, readOnly, at } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as FormFailure | undefined;
  const t = useWorkspaceT();
  const c = t.customPage;
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  usePolling(
    () => {
      if (revalidator.state === "idle" && navigation.state === "idle") revalidator.revalidate();
    },
    DIAGRAM_REFRESH_MS,
    !!page && !editing,
  );
  const createErr = failure?.intent === "create" ? failure.errors : {};

  return (
    <div className="custom-page">
      <div className="page-head">
        <h1>{page ? page.page.title : c.title}</h1>
        {page ? (
          <p className="muted small" aria-live="polite">
            {fmt(c.asOf, { time: seoulYmdHm(at) })}
          </p>
        ) : null}
      </div>
      <nav className="subnav" aria-label={c.list}>
        <AppLink to="/page" aria-current={!page ? "page" : undefined}>
          {c.list}
        </AppLink>
        {list.customList.map((p) => (
          <AppLink key={p.unique} to={pageHref(p.unique)} aria-current={page?.page.unique === p.unique ? "page" : undefined}>
            {p.title}
          </AppLink>
        ))}
      </nav>
      {page ? (
        <>
          {!readOnly ? (
            <p>
              <AppLink to={pageHref(page.page.unique, !editing)} className="button secondary">
                {editing ? c.done : c.edit}
              </AppLink>
            </p>
          ) : null}
          {failure && failure.intent !== "create" && failure.errors._form ? (
            <FormError message={errText(t, failure.errors._form)} />
          ) : null}
          {page.widgets.length ? (
            <div className="widget-grid">
              {page.widgets.map((w) => (
                <Widget
                  key={`${w.index}-${w.kind}-${w.plantName}`}
                  w={w}
                  page={page.page.unique}
                  editing={editing}
                  count={page.widgets.length}
                />
              ))}
            </div>
          ) : (
            <p className="panel">{c.noWidgets}</p>
          )}
          {editing ? <Editor unique={page.page.unique} title={page.page.title} failure={failure} /> : null}
        </>
      ) : (
        <>
          <section className="panel wide" aria-labelledby="page-list">
            <h2 id="page-list">{c.list}</h2>
            {list.customList.length ? (
              <ul className="page-list">
                {list.customList.map((p) => (
                  <li key={p.unique}>
                    <AppLink to={pageHref(p.unique)}>{p.title}</AppLink>{" "}
                    <span className="muted small">
                      /page?p={p.unique} · {fmt(c.widgets, { count: p.widgetCount })} ·{" "}
                      {fmt(c.updated, { time: seoulYmdHm(p.updated_at) })}
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p>{c.empty}</p>
            )}
          </section>
          {!readOnly ? (
            <section className="panel wide" aria-labelledby="page-new">
              <h2 id="page-new">{c.create}</h2>
              <FormError message={errText(t, createErr._form)} />
              <Form method="post" className="page-create">
                <AuthenticityTokenInput />
                <div className="field">
                  <label htmlFor="f-title">{c.titleField}</label>
                  <input
                    id="f-title"
                    name="title"
                    required
                    maxLength={PAGE_TITLE_MAX}
                    defaultValue={failure?.intent === "create" ? failure.values.title : ""}
                    aria-invalid={createErr.title ? true : undefined}
                    aria-describedby={createErr.title ? "f-title-error" : undefined}
                  />
                  {createErr.title ? (
                    <span className="error" id="f-title-error">
                      {errText(t, createErr.title)}
                    </span>
                  ) : null}
                </div>
                <div className="field">
                  <label htmlFor="f-unique">{c.unique}</label>
                  <input
                    id="f-unique"
                    name="unique"
                    required
                    maxLength={40}
                    defaultValue={failure?.intent === "create" ? failure.values.unique : ""}
                    aria-invalid={createErr.unique ? true : undefined}
                    aria-describedby={`f-unique-hint${createErr.unique ? " f-unique-error" : ""}`}
                  />
                  <span className="hint" id="f-unique-hint">
                    {c.uniqueHint}
                  </span>
                  {createErr.unique ? (
                    <span className="error" id="f-unique-error">
                      {errText(t, createErr.unique)}
                    </span>
                  ) : null}
                </div>
                <div className="form-actions">
                  <button type="submit" name="intent" value="create">
                    {c.createSubmit}
                  </button>
                </div>
              </Form>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
