/**
 * /setting/total: every plant with its RTU count and RTUs as 'alias (mac)' lines (SPEC §3 Total: lists
 * joined with '^'), totals, devices per plant, and loading a plant's history from another portal.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { RemoteUrlSchema } from "../../domain/fleet";
import { capacityKw, formatCapacityTotal, formatNumber } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, SelectInput, TextInput, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { answerFor, useFleetErrorText } from "~/components/FleetAdmin";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm } from "~/utils/form-action.server";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { loadData, total } from "~/models/fleet.server";
import { metaLocale } from "~/utils/meta-locale";
import { scrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).totals.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const LoadForm = z.object({
  url: RemoteUrlSchema,
  uid: z.string().trim().min(1, "required").max(64),
  id: z.string().trim().min(1, "required").max(64, "too_long"),
  password: z.string().min(1, "required").max(256, "too_long"),
  days: z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_an_integer").min(1, "too_small").max(31, "too_large"),
});

/** 'alias^alias2' + 'mac^mac2' → ['alias (mac)', 'alias2 (mac2)']. */
export function rtuLines(aliases: string, macs: string): string[] {
  if (!aliases) return [];
  const a = aliases.split("^");
  const m = macs.split("^");
  return a.map((alias, i) => (m[i] ? `${alias} (${m[i]})` : alias));
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "total");
  return json(await total(accessToken));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "total");
  const form = await request.formData();
  await assertCsrf(form, request);
  const parsed = parseForm(LoadForm, "load", form);
  if (!parsed.ok) return parsed.response;
  try {
    const res = await loadData(accessToken, parsed.data);
    const rows = Object.values(res.inserted).reduce((s, n) => s + n, 0);
    const t = adminMessages(localeOf(request));
    return redirectWithFlash("/setting/total", fmt(t.totals.load.done, { days: res.days, rows, skipped: res.skippedRows }));
  } catch (error) {
    return apiFailure("load", error, formValues(form));
  }
}

export default function Total() {
  const { totalList, total: sum, totalOfPlantList } = useLoaderData<typeof loader>();
  const totalCapa = formatCapacityTotal(sum.capa);
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const x = t.totals;
  const err = useFleetErrorText();
  const load = answerFor(data, "load");
  const v = useClientValidation(load?.errors, (f) => schemaErrors(LoadForm, Object.fromEntries(new FormData(f))));

  return (
    <div className="admin-page">
      <h1>{x.title}</h1>
      <dl className="summary" aria-label={x.summary.legend}>
        <div>
          <dt>{x.summary.plants}</dt>
          <dd>{sum.plantCount}</dd>
        </div>
        <div>
          <dt>{x.summary.capa}</dt>
          <dd>{`${totalCapa.value} ${totalCapa.unit}`}</dd>
        </div>
        <div>
          <dt>{x.summary.rtus}</dt>
          <dd>{sum.rtuCount}</dd>
        </div>
        <div>
          <dt>{x.summary.rtusNotInPlant}</dt>
          <dd>{sum.rtusNotInPlant}</dd>
        </div>
        <div>
          <dt>{x.summary.devices}</dt>
          <dd>{sum.deviceCount}</dd>
        </div>
      </dl>

      <div {...scrollRegion(x.caption)}>
        <table className="data-table">
          <caption>{x.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{x.columns.plant}</th>
              <th scope="col">{x.columns.node}</th>
              <th scope="col" className="num">
                {x.columns.capa}
              </th>
              <th scope="col" className="num">
                {x.columns.rtuCount}
              </th>
              <th scope="col">{x.columns.rtus}</th>
            </tr>
          </thead>
          <tbody>
            {totalList.length === 0 ? (
              <tr>
                <td colSpan={5} className="empty">
                  {x.empty}
                </td>
              </tr>
            ) : (
              totalList.map((row) => (
                <tr key={row.plant_uid}>
                  <th scope="row">
                    <AppLink to={`/setting/plant/${encodeURIComponent(row.plant_uid)}`}>{row.name}</AppLink>
                  </th>
                  <td>{row.nodeName ?? "—"}</td>
                  <td className="num">{formatNumber(capacityKw(row.capa), 2)}</td>
                  <td className="num">{row.rtu_count}</td>
                  <td className="rtu-lines">
                    {rtuLines(row.rtu_alias_list, row.rtu_mac_list).map((line, i) => (
                      <span key={i} className="line">
                        {line}
                      </span>
                    ))}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <div {...scrollRegion(x.perKind.caption)}>
        <table className="data-table">
          <caption>{x.perKind.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{x.columns.plant}</th>
              <th scope="col" className="num">
                {x.perKind.inverter}
              </th>
              <th scope="col" className="num">
                {x.perKind.connectionBoard}
              </th>
              <th scope="col" className="num">
                {x.perKind.environmentSensor}
              </th>
              <th scope="col" className="num">
                {x.perKind.vcb}
              </th>
              <th scope="col" className="num">
                {x.perKind.acb}
              </th>
            </tr>
          </thead>
          <tbody>
            {totalOfPlantList.map((row) => (
              <tr key={row.plant_uid}>
                <th scope="row">{row.name}</th>
                <td className="num">{row.inverter}</td>
                <td className="num">{row.connectionBoard}</td>
                <td className="num">{row.environmentSensor}</td>
                <td className="num">{row.vcb}</td>
                <td className="num">{row.acb}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <section className="panel" aria-labelledby="load-title">
        <h2 id="load-title">{x.load.title}</h2>
        <p>{x.load.intro}</p>
        <Form method="post" noValidate onSubmit={v.onSubmit}>
          <AuthenticityTokenInput />
          <FormAlert message={err(v.errors._form)} />
          <TextInput
            form="load"
            name="url"
            type="url"
            label={x.load.url}
            required
            defaultValue={load?.values.url}
            error={err(v.errors.url)}
          />
          <SelectInput
            form="load"
            name="uid"
            label={x.load.uid}
            required
            defaultValue={load?.values.uid ?? ""}
            error={err(v.errors.uid)}
            options={[
              { value: "", label: "—" },
              ...totalList.map((p) => ({ value: p.plant_uid, label: `${p.name} (${p.plant_uid})` })),
            ]}
          />
          <div className="form-grid">
            <TextInput form="load" name="id" label={x.load.id} required defaultValue={load?.values.id} error={err(v.errors.id)} />
            <TextInput
              form="load"
              name="password"
              type="password"
              label={x.load.password}
              required
              error={err(v.errors.password)}
            />
            <TextInput
              form="load"
              name="days"
              label={x.load.days}
              required
              defaultValue={load?.values.days ?? "7"}
              error={err(v.errors.days)}
              inputMode="numeric"
            />
          </div>
          <button type="submit" disabled={navigation.state === "submitting"}>
            {x.load.submit}
          </button>
        </Form>
      </section>
    </div>
  );
}
