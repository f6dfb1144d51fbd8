/**
 * /setting/plant/{uid}: edit a plant, see and (for RTU admins) assign its RTUs, delete it with a typed confirmation.
 * The RTUs to assign are found as every admin list finds its rows (issue 26 point 10): a GET filter form (search,
 * where they are now, group) and pages, all in the URL; the ticked RTUs of the page are assigned.
 */
import { json, type LinksFunction, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { canAdminister } from "../../domain/admin-levels";
import { PlantFormSchema, plantErrorField, plantFormToBody, RTU_ASSIGNED_FILTERS } from "../../domain/fleet";
import { capacityKw } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, Pager, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { FilterForm, FilterSearch, FilterSelect } from "~/components/DataTable";
import { parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { formatNumber } from "../../domain/units";
import { z } from "zod";
import { answerFor, DeleteSection, kindLabel, useFleetErrorText } from "~/components/FleetAdmin";
import { PlantFields } from "~/components/PlantFields";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formFailure, formValues, parseForm, runIntent, orNotFound } from "~/utils/form-action.server";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { PlantContactsSection, failureOf } from "~/components/AlertForms";
import alarmStyles from "~/styles/alarm.css";
import { plantContacts } from "~/models/alarm.server";
import { plantContactsAction } from "~/utils/alert-forms.server";
import { assignableRtus, assignRtusToPlant, deletePlant, plantSetting, unassignRtus, updatePlant } from "~/models/fleet.server";
import { metaLocale } from "~/utils/meta-locale";
import { CurtailmentOrders } from "~/components/curtailment/CurtailmentOrders";
import { createOrder, deleteOrder, importOrders, plantOrders, updateOrder } from "~/models/curtailment.server";
import type { CurtailmentOrderInput } from "../../domain/contract/curtailment";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: alarmStyles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: `${data?.plant.name ?? adminMessages(metaLocale(matches)).plants.title} · ${adminMessages(metaLocale(matches)).appName}`,
  },
];

/** The assignment list's filters in the URL (lenient: a stale bookmark shows the whole list). */
const RtuSearch = z.object({
  /** The curtailment order whose edit form is open. */
  order: searchParam.id(),
  q: searchParam.text(100),
  assigned: searchParam.oneOf(RTU_ASSIGNED_FILTERS),
  group: searchParam.id(),
  page: searchParam.id(),
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSettingScreen(request, context, "plant");
  const uid = params.uid!;
  const rtuFilter = parseSearch(RtuSearch, request);
  const setting = await orNotFound(plantSetting(accessToken, uid));
  const canRtu = canAdminister("rtu", user.auth);
  const none = { rtuList: [], total: 0, page: 1, size: 20 };
  const [available, contacts, orders] = await Promise.all([
    canRtu && setting.plant.editable
      ? assignableRtus(accessToken, uid, {
          q: rtuFilter.q || undefined,
          assigned: rtuFilter.assigned || undefined,
          group: rtuFilter.group,
          page: rtuFilter.page ?? 1,
        })
      : Promise.resolve(none),
    plantContacts(accessToken, uid).catch(() => null),
    plantOrders(accessToken, uid),
  ]);
  return json({ ...setting, canRtu, available, rtuFilter, contacts, orders });
}

interface PlantCtx {
  request: Request;
  accessToken: string;
  uid: string;
  form: FormData;
  t: ReturnType<typeof adminMessages>;
  /** This plant's page. */
  here: string;
}

async function save({ accessToken, uid, form, t, here }: PlantCtx) {
  const parsed = parseForm(PlantFormSchema, "edit", form);
  if (!parsed.ok) return parsed.response;
  try {
    const res = await updatePlant(accessToken, uid, plantFormToBody(parsed.data));
    const note = res.geocoded ? ` ${t.plants.geocoded}` : "";
    return redirectWithFlash(here, fmt(t.plants.flash.updated, { name: res.plant.name }) + note);
  } catch (error) {
    return apiFailure("edit", error, formValues(form), plantErrorField);
  }
}

async function contacts({ request, accessToken, uid, form, here }: PlantCtx) {
  return plantContactsAction(request, accessToken, uid, form, here);
}

async function remove({ accessToken, uid, form, t }: PlantCtx) {
  const res = await deletePlant(accessToken, uid, String(form.get("confirm") ?? ""));
  return redirectWithFlash("/setting/plant", fmt(t.plants.flash.deleted, { devices: res.devices, rtus: res.rtusUnassigned }));
}

async function assign({ accessToken, uid, form, t, here }: PlantCtx, intent: string) {
  const rtus = form.getAll("rtus").map(String).filter(Boolean);
  if (!rtus.length) return formFailure(intent, { rtus: "required" }, formValues(form));
  await assignRtusToPlant(accessToken, uid, rtus);
  return redirectWithFlash(here, fmt(t.plants.flash.assigned, { count: rtus.length }));
}

async function unassign({ accessToken, form, t, here }: PlantCtx) {
  await unassignRtus(accessToken, [String(form.get("rtu") ?? "")]);
  return redirectWithFlash(here, t.plants.flash.unassigned);
}

/** The order form as the API's body; a limit that is not a number is the form's own error. */
function orderBody(form: FormData): CurtailmentOrderInput | { limitValue: "not_a_number" } {
  const text = (k: string) => String(form.get(k) ?? "").trim();
  const limit = text("limitValue").replace(",", ".");
  if (limit === "" || !Number.isFinite(Number(limit))) return { limitValue: "not_a_number" };
  return {
    start: text("start").replace("T", " "),
    end: text("end").replace("T", " "),
    limitValue: Number(limit),
    limitUnit: text("limitUnit") as CurtailmentOrderInput["limitUnit"],
    source: text("source") as CurtailmentOrderInput["source"],
    note: text("note"),
  };
}

const isProblem = (b: ReturnType<typeof orderBody>): b is { limitValue: "not_a_number" } => b.limitValue === "not_a_number";

async function addOrder({ accessToken, uid, form, t, here }: PlantCtx, intent: string) {
  const body = orderBody(form);
  if (isProblem(body)) return formFailure(intent, body, formValues(form));
  await createOrder(accessToken, uid, body);
  return redirectWithFlash(`${here}#curtailment`, t.curtailment.flash.added);
}

async function editOrder({ accessToken, uid, form, t, here }: PlantCtx, intent: string) {
  const body = orderBody(form);
  if (isProblem(body)) return formFailure(intent, body, formValues(form));
  await updateOrder(accessToken, uid, Number(form.get("orderId")), body);
  return redirectWithFlash(`${here}#curtailment`, t.curtailment.flash.updated);
}

async function removeOrder({ accessToken, uid, form, t, here }: PlantCtx) {
  await deleteOrder(accessToken, uid, Number(form.get("orderId")));
  return redirectWithFlash(`${here}#curtailment`, t.curtailment.flash.deleted);
}

async function importOrderCsv({ accessToken, uid, form, t, here }: PlantCtx, intent: string) {
  const csv = String(form.get("csv") ?? "");
  if (!csv.trim()) return formFailure(intent, { csv: "required" }, formValues(form));
  const res = await importOrders(accessToken, uid, csv);
  return redirectWithFlash(`${here}#curtailment`, fmt(t.curtailment.flash.imported, { n: res.imported }));
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "plant");
  const uid = params.uid!;
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = adminMessages(localeOf(request));
  const here = `/setting/plant/${encodeURIComponent(uid)}`;
  return runIntent(
    form,
    {
      save,
      contacts,
      delete: remove,
      assign,
      unassign,
      addOrder,
      editOrder,
      deleteOrder: removeOrder,
      importOrders: importOrderCsv,
    },
    { request, accessToken, uid, form, t, here },
    { fallback: "edit" },
  );
}

const str = (v: number | string | null | undefined) => (v === null || v === undefined ? "" : String(v));

export default function PlantEdit() {
  const { plant, rtuList, deviceList, packageList, nodeList, geocoding, canRtu, available, rtuFilter, contacts, orders } =
    useLoaderData<typeof loader>();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const filtered = !!(rtuFilter.q || rtuFilter.assigned || rtuFilter.group);
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const p = t.plants;
  const err = useFleetErrorText();
  const edit = answerFor(data, "edit");
  const assign = answerFor(data, "assign") ?? answerFor(data, "unassign");
  const v = useClientValidation(edit?.errors, (f) => schemaErrors(PlantFormSchema, Object.fromEntries(new FormData(f))));
  const busy = navigation.state === "submitting";
  const initial = {
    name: plant.name,
    alias: str(plant.alias),
    capaKw: capacityKw(plant.capa).toFixed(2),
    locality: str(plant.locality),
    address: str(plant.address),
    lat: str(plant.lat),
    lng: str(plant.lng),
    packageSeq: str(plant.package_seq),
    nodeSeq: str(plant.node_seq),
  };

  return (
    <div className="admin-page">
      <p>
        <AppLink to="/setting/plant">← {t.fleet.back}</AppLink>
      </p>
      <h1>{fmt(p.editTitle, { name: plant.name })}</h1>
      <p className="mono muted">{plant.uid}</p>

      <section className="panel" aria-labelledby="edit-title">
        <h2 id="edit-title" className="visually-hidden">
          {t.fleet.edit}
        </h2>
        {plant.editable ? (
          <Form method="post" noValidate onSubmit={v.onSubmit} key={plant.updated_at}>
            <AuthenticityTokenInput />
            <FormAlert message={Object.keys(v.errors).length ? (err(v.errors._form) ?? t.fleet.fixErrors) : null} />
            <PlantFields
              form="edit"
              values={edit?.values ?? initial}
              errors={v.errors}
              packages={packageList}
              nodes={nodeList}
              geocoding={geocoding}
            />
            <button type="submit" name="intent" value="save" disabled={busy}>
              {t.fleet.save}
            </button>
          </Form>
        ) : (
          <p className="alert info">{t.fleet.errors.not_in_your_group}</p>
        )}
      </section>

      <section className="panel" aria-labelledby="rtus-title">
        <h2 id="rtus-title">{p.rtus.title}</h2>
        <FormAlert message={err(assign?.errors._form ?? assign?.errors.rtus ?? assign?.errors.exclude)} />
        {rtuList.length === 0 ? (
          <p>{p.rtus.none}</p>
        ) : (
          <ul className="plain-list">
            {rtuList.map((r) => (
              <li key={r.uid}>
                {canRtu ? (
                  <AppLink to={`/setting/rtu/${encodeURIComponent(r.uid)}`}>{r.alias || r.name}</AppLink>
                ) : (
                  <span>{r.alias || r.name}</span>
                )}{" "}
                <span className="mono muted">
                  {r.uid}
                  {r.mac ? ` · ${r.mac}` : ""}
                </span>
                {canRtu && plant.editable ? (
                  <Form method="post" className="inline">
                    <AuthenticityTokenInput />
                    <input type="hidden" name="rtu" value={r.uid} />
                    <button
                      type="submit"
                      name="intent"
                      value="unassign"
                      className="secondary small"
                      aria-label={`${p.rtus.unassign}: ${r.uid}`}
                    >
                      {p.rtus.unassign}
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {canRtu && plant.editable ? (
          <>
            <h3 id="assign-title">{p.rtus.assign}</h3>
            {available.total || filtered ? <p className="hint">{p.rtus.findHint}</p> : null}
            {available.total || filtered ? (
              <FilterForm
                label={p.rtus.filters}
                resetTo={`/setting/plant/${encodeURIComponent(plant.uid)}#assign-title`}
                apply={p.rtus.apply}
                reset={p.rtus.reset}
              >
                <FilterSearch id="ra-q" name="q" label={p.rtus.find} value={rtuFilter.q} maxLength={100} />
                <FilterSelect
                  id="ra-assigned"
                  name="assigned"
                  label={p.rtus.where}
                  value={rtuFilter.assigned}
                  any={p.rtus.whereAll}
                  options={[
                    { value: "free", label: p.rtus.whereFree },
                    { value: "other", label: p.rtus.whereOther },
                  ]}
                />
                <FilterSelect
                  id="ra-group"
                  name="group"
                  label={p.rtus.group}
                  value={rtuFilter.group}
                  any={p.rtus.allGroups}
                  options={nodeList.map((n) => ({ value: n.seq, label: `${"\u00a0\u00a0".repeat(n.depth)}${n.name}` }))}
                />
              </FilterForm>
            ) : null}
            {available.rtuList.length ? (
              <Form method="post" className="assign-form">
                <AuthenticityTokenInput />
                <fieldset>
                  <legend>{p.rtus.assignLabel}</legend>
                  <p className="hint">
                    {p.rtus.assignHint} {fmt(p.rtus.count, { total: formatNumber(available.total, 0) })}
                  </p>
                  {available.rtuList.map((r) => (
                    <div className="check" key={r.uid}>
                      <input type="checkbox" id={`assign-${r.uid}`} name="rtus" value={r.uid} />
                      <label htmlFor={`assign-${r.uid}`}>
                        {r.alias || r.name} <span className="mono muted">{r.uid}</span>
                        {r.plantName ? <span className="muted"> ({fmt(p.rtus.otherPlant, { plant: r.plantName })})</span> : null}
                      </label>
                    </div>
                  ))}
                </fieldset>
                <button type="submit" name="intent" value="assign" disabled={busy}>
                  {p.rtus.assignSubmit}
                </button>
              </Form>
            ) : (
              <p className="muted">{filtered ? p.rtus.noneMatching : p.rtus.noneAvailable}</p>
            )}
            {available.total > available.size ? (
              <Pager page={available.page} size={available.size} total={available.total} search={search} />
            ) : null}
          </>
        ) : null}
      </section>

      <section className="panel" aria-labelledby="devices-title">
        <h2 id="devices-title">{p.devices.title}</h2>
        {deviceList.length === 0 ? (
          <p>{p.devices.none}</p>
        ) : (
          <ul className="plain-list">
            {deviceList.map((d) => (
              <li key={d.uid}>
                <AppLink to={`/setting/device/${encodeURIComponent(d.uid)}`}>{d.name}</AppLink>{" "}
                <span className="muted">{kindLabel(t, d.kind)}</span> <span className="mono muted">{d.uid}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <CurtailmentOrders
        plantUid={plant.uid}
        capacityKw={orders.capacityKw}
        orders={orders.orders}
        editable={plant.editable}
        editing={rtuFilter.order ?? null}
        busy={busy}
        answers={{
          add: answerFor(data, "addOrder"),
          edit: answerFor(data, "editOrder"),
          remove: answerFor(data, "deleteOrder"),
          import: answerFor(data, "importOrders"),
        }}
      />

      <PlantContactsSection contacts={contacts} failure={failureOf(data, "contacts")} editable={plant.editable} />

      {plant.editable ? <DeleteSection id="delete-plant" intro={p.deleteIntro} answer={answerFor(data, "delete")} /> : null}
    </div>
  );
}
