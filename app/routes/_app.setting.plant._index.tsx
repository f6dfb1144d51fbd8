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
import { STATUS_CATEGORIES, type StatusCategory } from "../../domain/status";
import { capacityKw, formatNumber } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, SelectInput, TextInput, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { answerFor, useFleetErrorText } from "~/components/FleetAdmin";
import { DataTable, FilterForm, FilterSearch, FilterSelect } from "~/components/DataTable";
import { PlantFields } from "~/components/PlantFields";
import { statusLabel } from "~/components/status/labels";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm, parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { copyPlant, createPlant, managementPlants } from "~/models/fleet.server";
import { localeOf } from "~/utils/fleet-locale.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).plants.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const SEARCH_TYPES = ["name", "uid", "address", "locality"] as const;

const ListSearch = z.object({
  plantStatus: searchParam.oneOf(STATUS_CATEGORIES),
  packageSeq: searchParam.digits(),
  searchType: searchParam.oneOf(SEARCH_TYPES, "name"),
  searchText: searchParam.text(100),
});

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
  const filter = parseSearch(ListSearch, request);
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

      <FilterForm label={p.filters.legend} resetTo="/setting/plant" apply={t.fleet.apply} reset={t.fleet.reset}>
        <FilterSelect
          id="pf-status"
          name="plantStatus"
          label={p.filters.plantStatus}
          value={filter.plantStatus}
          any={t.fleet.any}
          options={STATUS_CATEGORIES.map((s) => ({ value: s, label: categoryLabel(s) }))}
        />
        <FilterSelect
          id="pf-package"
          name="packageSeq"
          label={p.filters.packageSeq}
          value={filter.packageSeq}
          any={t.fleet.any}
          options={packageList.map((x) => ({ value: x.seq, label: x.name }))}
        />
        <FilterSelect
          id="pf-type"
          name="searchType"
          label={p.filters.searchType}
          value={filter.searchType}
          options={SEARCH_TYPES.map((s) => ({ value: s, label: p.filters.searchTypes[s] }))}
        />
        <FilterSearch id="pf-text" name="searchText" label={p.filters.searchText} value={filter.searchText} maxLength={100} />
      </FilterForm>

      <DataTable
        caption={`${p.caption} · ${fmt(t.fleet.count, { count: plantList.length })}`}
        rows={plantList}
        rowKey={(row) => row.uid}
        empty={p.empty}
        columns={[
          {
            label: p.columns.name,
            cell: (row) => <AppLink to={`/setting/plant/${encodeURIComponent(row.uid)}`}>{row.name}</AppLink>,
          },
          { label: p.columns.uid, className: "mono", cell: (row) => row.uid },
          { label: p.columns.capa, num: true, cell: (row) => formatNumber(capacityKw(row.capa), 2) },
          { label: p.columns.locality, cell: (row) => row.plantLocality ?? "—" },
          { label: p.columns.node, cell: (row) => row.nodeName ?? "—" },
          { label: p.columns.package, cell: (row) => row.packageName ?? "—" },
          { label: p.columns.rtus, num: true, cell: (row) => row.rtu_count },
          { label: p.columns.devices, num: true, cell: (row) => row.device_count },
          {
            label: p.columns.status,
            cell: (row) => (
              <span className={`tag status-${row.status}`}>
                {row.statusName ? statusLabel(t, row.status) : t.fleet.status.noData}
              </span>
            ),
          },
        ]}
      />

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
