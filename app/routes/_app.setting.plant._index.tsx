/**
 * /setting/plant: the plant list with its filters in the URL (a GET form: bookmarkable, no JS needed),
 * the form to add a plant, and copying a plant from another instance of this portal.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { optionalInt, PlantFormSchema, plantErrorField, plantFormToBody, RemoteUrlSchema } from "../../domain/fleet";
import { STATUS_CATEGORIES, isStatusCategory, type StatusCategory } from "../../domain/status";
import { capacityKw } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, SelectInput, TextInput, schemaErrors, useClientValidation } from "~/components/admin-form";
import { answerFor, useFleetErrorText } from "~/components/fleet-admin";
import { PlantFields } from "~/components/plant-fields";
import { statusLabel } from "~/components/status/labels";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm } from "~/utils/form-action.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { copyPlant, createPlant, managementPlants } from "~/models/fleet.server";
import { localeOf } from "~/utils/fleet-locale.server";
import { metaLocale } from "~/utils/meta-locale";
import { scrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).plants.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const SEARCH_TYPES = ["name", "uid", "address", "locality"] as const;

const CopyForm = z.object({
  url: RemoteUrlSchema,
  plantUid: z.string().trim().max(64).optional(),
  id: z.string().trim().min(1, "required").max(64, "too_long"),
  password: z.string().min(1, "required").max(256, "too_long"),
  // Converted here, once: the API wants a JSON number.
  nodeSeq: optionalInt(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSettingScreen(request, context, "plant");
  const url = new URL(request.url);
  const status = url.searchParams.get("plantStatus") ?? "";
  const filter = {
    plantStatus: isStatusCategory(status) ? status : "",
    packageSeq: /^\d+$/.test(url.searchParams.get("packageSeq") ?? "") ? url.searchParams.get("packageSeq")! : "",
    searchType: (SEARCH_TYPES as readonly string[]).includes(url.searchParams.get("searchType") ?? "")
      ? url.searchParams.get("searchType")!
      : "name",
    searchText: (url.searchParams.get("searchText") ?? "").slice(0, 100),
  };
  const data = await managementPlants(accessToken, filter);
  return json({ ...data, filter, myNode: user.nodeName });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "plant");
  const form = await request.formData();
  await assertCsrf(form, request);
  const intent = form.get("intent");
  const values = formValues(form);
  const t = adminMessages(localeOf(request));
  if (intent === "copy") {
    const parsed = parseForm(CopyForm, "copy", form);
    if (!parsed.ok) return parsed.response;
    const { nodeSeq, plantUid, ...rest } = parsed.data;
    try {
      const res = await copyPlant(accessToken, {
        ...rest,
        plantUid: plantUid || undefined,
        nodeSeq: nodeSeq ?? undefined,
      });
      return redirectWithFlash(
        `/setting/plant/${encodeURIComponent(res.plantUid)}`,
        fmt(t.plants.flash.copied, {
          uid: res.plantUid,
          rtus: res.report.rtus.imported.length,
          devices: res.report.devices.imported.length,
        }),
      );
    } catch (error) {
      return apiFailure("copy", error, values);
    }
  }
  const parsed = parseForm(PlantFormSchema, "create", form);
  if (!parsed.ok) return parsed.response;
  try {
    const res = await createPlant(accessToken, plantFormToBody(parsed.data));
    const note = res.geocoded ? ` ${t.plants.geocoded}` : "";
    return redirectWithFlash(
      `/setting/plant/${encodeURIComponent(res.plant.uid)}`,
      fmt(t.plants.flash.created, { name: res.plant.name }) + note,
    );
  } catch (error) {
    return apiFailure("create", error, values, plantErrorField);
  }
}

export default function PlantList() {
  const { plantList, packageList, nodeList, filter, geocoding } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const p = t.plants;
  const err = useFleetErrorText();
  const create = answerFor(data, "create");
  const copy = answerFor(data, "copy");
  const createV = useClientValidation(create?.errors, (f) => schemaErrors(PlantFormSchema, Object.fromEntries(new FormData(f))));
  const copyV = useClientValidation(copy?.errors, (f) => schemaErrors(CopyForm, Object.fromEntries(new FormData(f))));
  const busy = navigation.state === "submitting";
  // Filter options name categories ("warning" = every warning kind); a row names its plant's own status by code.
  const categoryLabel = (c: StatusCategory) => t.fleet.status[c];
  const defaultNode = nodeList[0] ? String(nodeList[0].seq) : "";

  return (
    <div className="admin-page">
      <div className="page-head">
        <h1>{p.title}</h1>
        <a className="button" href="#add-plant">
          {p.add}
        </a>
      </div>

      <Form method="get" className="filters" aria-label={p.filters.legend}>
        <div className="field">
          <label htmlFor="pf-status">{p.filters.plantStatus}</label>
          <select id="pf-status" name="plantStatus" defaultValue={filter.plantStatus}>
            <option value="">{t.fleet.any}</option>
            {STATUS_CATEGORIES.map((s) => (
              <option key={s} value={s}>
                {categoryLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="pf-package">{p.filters.packageSeq}</label>
          <select id="pf-package" name="packageSeq" defaultValue={filter.packageSeq}>
            <option value="">{t.fleet.any}</option>
            {packageList.map((x) => (
              <option key={x.seq} value={x.seq}>
                {x.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="pf-type">{p.filters.searchType}</label>
          <select id="pf-type" name="searchType" defaultValue={filter.searchType}>
            {SEARCH_TYPES.map((s) => (
              <option key={s} value={s}>
                {p.filters.searchTypes[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="pf-text">{p.filters.searchText}</label>
          <input id="pf-text" name="searchText" type="search" defaultValue={filter.searchText} maxLength={100} />
        </div>
        <div className="filter-actions">
          <button type="submit">{t.fleet.apply}</button>
          <AppLink to="/setting/plant" className="button secondary">
            {t.fleet.reset}
          </AppLink>
        </div>
      </Form>

      <div {...scrollRegion(p.caption)}>
        <table className="data-table">
          <caption>
            {p.caption} · {fmt(t.fleet.count, { count: plantList.length })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{p.columns.name}</th>
              <th scope="col">{p.columns.uid}</th>
              <th scope="col" className="num">
                {p.columns.capa}
              </th>
              <th scope="col">{p.columns.locality}</th>
              <th scope="col">{p.columns.node}</th>
              <th scope="col">{p.columns.package}</th>
              <th scope="col" className="num">
                {p.columns.rtus}
              </th>
              <th scope="col" className="num">
                {p.columns.devices}
              </th>
              <th scope="col">{p.columns.status}</th>
            </tr>
          </thead>
          <tbody>
            {plantList.length === 0 ? (
              <tr>
                <td colSpan={9} className="empty">
                  {p.empty}
                </td>
              </tr>
            ) : (
              plantList.map((row) => (
                <tr key={row.uid}>
                  <th scope="row">
                    <AppLink to={`/setting/plant/${encodeURIComponent(row.uid)}`}>{row.name}</AppLink>
                  </th>
                  <td className="mono">{row.uid}</td>
                  <td className="num">{capacityKw(row.capa).toFixed(2)}</td>
                  <td>{row.plantLocality ?? "—"}</td>
                  <td>{row.nodeName ?? "—"}</td>
                  <td>{row.packageName ?? "—"}</td>
                  <td className="num">{row.rtu_count}</td>
                  <td className="num">{row.device_count}</td>
                  <td>
                    <span className={`tag status-${row.status}`}>
                      {row.statusName ? statusLabel(t, row.status) : t.fleet.status.noData}
                    </span>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <section className="panel" id="add-plant" aria-labelledby="add-plant-title">
        <h2 id="add-plant-title">{p.add}</h2>
        <Form method="post" noValidate onSubmit={createV.onSubmit}>
          <AuthenticityTokenInput />
          <FormAlert message={Object.keys(createV.errors).length ? (err(createV.errors._form) ?? t.fleet.fixErrors) : null} />
          <PlantFields
            form="create"
            withUid
            values={{ nodeSeq: defaultNode, ...(create?.values ?? {}) }}
            errors={createV.errors}
            packages={packageList}
            nodes={nodeList}
            geocoding={geocoding}
          />
          <button type="submit" name="intent" value="create" disabled={busy}>
            {t.fleet.create}
          </button>
        </Form>
      </section>

      <section className="panel" aria-labelledby="copy-plant-title">
        <h2 id="copy-plant-title">{p.copy.title}</h2>
        <p>{p.copy.intro}</p>
        <Form method="post" noValidate onSubmit={copyV.onSubmit}>
          <AuthenticityTokenInput />
          <FormAlert message={err(copyV.errors._form)} />
          <TextInput
            form="copy"
            name="url"
            type="url"
            label={p.copy.url}
            hint={p.copy.urlHint}
            required
            defaultValue={copy?.values.url}
            error={err(copyV.errors.url)}
          />
          <TextInput
            form="copy"
            name="plantUid"
            label={p.copy.plantUid}
            hint={p.copy.plantUidHint}
            defaultValue={copy?.values.plantUid}
            error={err(copyV.errors.plantUid)}
          />
          <div className="form-grid">
            <TextInput
              form="copy"
              name="id"
              label={p.copy.id}
              required
              defaultValue={copy?.values.id}
              error={err(copyV.errors.id)}
              autoComplete="off"
            />
            <TextInput
              form="copy"
              name="password"
              type="password"
              label={p.copy.password}
              required
              error={err(copyV.errors.password)}
              autoComplete="off"
            />
          </div>
          <SelectInput
            form="copy"
            name="nodeSeq"
            label={p.copy.node}
            defaultValue={copy?.values.nodeSeq ?? defaultNode}
            error={err(copyV.errors.nodeSeq)}
            options={nodeList.map((n) => ({ value: String(n.seq), label: `${"\u00a0\u00a0".repeat(n.depth)}${n.name}` }))}
          />
          <button type="submit" name="intent" value="copy" disabled={busy}>
            {p.copy.submit}
          </button>
        </Form>
      </section>
    </div>
  );
}
