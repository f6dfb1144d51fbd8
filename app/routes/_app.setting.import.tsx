/**
 * /setting/import: register external sources (site type, address, login — the password is stored
 * encrypted and never shown), see what a source offers (?source=id, read live and politely), and import
 * chosen plants, RTUs and devices into one of the member's groups.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { RemoteUrlSchema } from "../../domain/fleet";
import { capacityKw, formatNumber } from "../../domain/units";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, SelectInput, TextInput, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { answerFor, DeleteSection, formatTime, kindLabel, useFleetErrorText } from "~/components/FleetAdmin";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formFailure, formValues, parseForm, parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt, useLocale } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { ApiFailure } from "~/models/api.server";
import {
  adminOptions,
  crawlOffer,
  crawlSources,
  deleteSource,
  importFromSource,
  registerSource,
  updateSource,
} from "~/models/fleet.server";
import type { ImportReport } from "../../domain/contract/fleet";
import { metaLocale } from "~/utils/meta-locale";
import { scrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).importing.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const SourceForm = z.object({
  site: z.enum(["portal"], { errorMap: () => ({ message: "bad_site" }) }),
  name: z.string().trim().min(1, "required").max(100, "too_long"),
  url: RemoteUrlSchema,
  id: z.string().trim().min(1, "required").max(64, "too_long"),
  pw: z.string().max(256, "too_long").optional(),
  address: z.string().trim().max(200, "too_long").optional(),
});
const NewSourceForm = SourceForm.extend({ pw: z.string().min(1, "required").max(256, "too_long") });

/** `source`: the source whose offer is shown; `crawlerId`: the source a delete form posted from a link names. */
const Search = z.object({ source: searchParam.id(), crawlerId: searchParam.id() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "import");
  const { source: chosen } = parseSearch(Search, request);
  const [{ crawlerList }, options] = await Promise.all([crawlSources(accessToken), adminOptions(accessToken)]);
  let offer: Awaited<ReturnType<typeof crawlOffer>> | null = null;
  let offerError: string | null = null;
  if (chosen) {
    try {
      offer = await crawlOffer(accessToken, chosen);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      offerError = error.body.message;
    }
  }
  return json({ crawlerList, nodeList: options.nodeList, offer, offerError, chosen: offer ? chosen : null });
}

function skippedCount(r: ImportReport) {
  return r.plants.skipped.length + r.rtus.skipped.length + r.devices.skipped.length;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "import");
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = adminMessages(localeOf(request));
  const intent = String(form.get("intent") ?? "");
  const values = formValues(form);
  const sourceId = Number(form.get("crawlerId"));
  try {
    if (intent === "register") {
      const parsed = parseForm(NewSourceForm, "register", form);
      if (!parsed.ok) return parsed.response;
      const res = await registerSource(accessToken, parsed.data);
      return redirectWithFlash(
        `/setting/import?source=${res.crawler.crawlerId}`,
        fmt(t.importing.flash.registered, { name: res.crawler.name }),
      );
    }
    if (intent === "update") {
      const parsed = parseForm(SourceForm, "update", form);
      if (!parsed.ok) return parsed.response;
      await updateSource(accessToken, sourceId, parsed.data);
      return redirectWithFlash(`/setting/import?source=${sourceId}`, t.importing.flash.updated);
    }
    if (intent === "delete") {
      const id = parseSearch(Search, request).crawlerId ?? sourceId;
      await deleteSource(accessToken, id, String(form.get("confirm") ?? ""));
      return redirectWithFlash("/setting/import", t.importing.flash.deleted);
    }
    if (intent === "import") {
      const node = String(form.get("node") ?? "");
      const picks = {
        plant: form.getAll("plants").map(String),
        rtu: form.getAll("rtus").map(String),
        device: form.getAll("devices").map(String),
      };
      if (!node) return formFailure("import", { node: "required" }, values);
      if (!picks.plant.length && !picks.rtu.length && !picks.device.length)
        return formFailure("import", { _form: "nothing_chosen" }, values);
      const total = { plants: 0, rtus: 0, devices: 0, skipped: 0 };
      // Plants first (they bring their RTUs and devices), then loose RTUs, then loose devices.
      for (const [what, key] of [
        ["plant", "plants"],
        ["rtu", "rtus"],
        ["device", "devices"],
      ] as const) {
        if (!picks[what].length) continue;
        const r = await importFromSource(accessToken, what, { crawlerId: sourceId, node: Number(node), [key]: picks[what] });
        total.plants += r.plants.imported.length;
        total.rtus += r.rtus.imported.length;
        total.devices += r.devices.imported.length;
        total.skipped += skippedCount(r);
      }
      return redirectWithFlash(`/setting/import?source=${sourceId}`, fmt(t.importing.flash.imported, total));
    }
  } catch (error) {
    return apiFailure(intent, error, values);
  }
  return formFailure("_", { _form: "invalid_input" }, values);
}

export default function ImportPage() {
  const { crawlerList, nodeList, offer, offerError, chosen } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const locale = useLocale();
  const m = t.importing;
  const err = (code?: string) => (code === "nothing_chosen" ? m.offer.nothingChosen : errText(code));
  const errText = useFleetErrorText();
  const reg = answerFor(data, "register");
  const upd = answerFor(data, "update");
  const imp = answerFor(data, "import");
  const regV = useClientValidation(reg?.errors, (f) => schemaErrors(NewSourceForm, Object.fromEntries(new FormData(f))));
  const updV = useClientValidation(upd?.errors, (f) => schemaErrors(SourceForm, Object.fromEntries(new FormData(f))));
  const impV = useClientValidation(imp?.errors, (f) => {
    const fd = new FormData(f);
    return fd.getAll("plants").length + fd.getAll("rtus").length + fd.getAll("devices").length ? {} : { _form: "nothing_chosen" };
  });
  const busy = navigation.state !== "idle";
  const source = chosen ? crawlerList.find((s) => s.crawlerId === chosen) : undefined;
  const siteOptions = [{ value: "portal", label: m.sites.portal }];

  return (
    <div className="admin-page">
      <h1>{m.title}</h1>
      <p>{m.intro}</p>

      <div {...scrollRegion(m.sources.caption)}>
        <table className="data-table">
          <caption>{m.sources.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{m.sources.name}</th>
              <th scope="col">{m.sources.site}</th>
              <th scope="col">{m.sources.url}</th>
              <th scope="col">{m.sources.id}</th>
              <th scope="col">{m.sources.lastPolled}</th>
              <th scope="col">{m.sources.lastError}</th>
            </tr>
          </thead>
          <tbody>
            {crawlerList.length === 0 ? (
              <tr>
                <td colSpan={6} className="empty">
                  {m.sources.empty}
                </td>
              </tr>
            ) : (
              crawlerList.map((s) => (
                <tr key={s.crawlerId} aria-current={s.crawlerId === chosen ? "true" : undefined}>
                  <th scope="row">
                    <AppLink to={`?source=${s.crawlerId}`} aria-label={`${m.sources.browse}: ${s.name}`}>
                      {s.name}
                    </AppLink>
                  </th>
                  <td>{(m.sites as Record<string, string>)[s.site] ?? s.site}</td>
                  <td className="mono">{s.url}</td>
                  <td>{s.id}</td>
                  <td>{formatTime(s.last_polled_at, locale)}</td>
                  <td>{s.last_error ? <span className="tag warn">{errText(`source_${s.last_error}`)}</span> : "—"}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      {offerError ? (
        <p className="alert error" role="alert">
          {errText(offerError)}
        </p>
      ) : null}

      {offer && source ? (
        <section className="panel wide" aria-labelledby="offer-title">
          <h2 id="offer-title">{fmt(m.offer.title, { name: source.name })}</h2>
          {offer.rejected ? <p className="alert warn">{fmt(m.offer.rejected, { count: offer.rejected })}</p> : null}
          <Form method="post" noValidate onSubmit={impV.onSubmit}>
            <AuthenticityTokenInput />
            <input type="hidden" name="crawlerId" value={source.crawlerId} />
            <FormAlert message={err(impV.errors._form)} />
            <SelectInput
              form="import"
              name="node"
              label={m.offer.node}
              required
              defaultValue={imp?.values.node ?? String(nodeList[0]?.seq ?? "")}
              error={err(impV.errors.node)}
              options={nodeList.map((n) => ({ value: String(n.seq), label: `${"\u00a0\u00a0".repeat(n.depth)}${n.name}` }))}
            />
            <fieldset className="checks">
              <legend>{m.offer.plants}</legend>
              <p className="hint">{m.offer.plantHint}</p>
              {offer.plantList.length === 0 ? <p>{m.offer.none}</p> : null}
              {offer.plantList.map((p) => (
                <div className="check" key={p.uid}>
                  <input type="checkbox" id={`imp-plant-${p.uid}`} name="plants" value={p.uid} disabled={p.exists} />
                  <label htmlFor={`imp-plant-${p.uid}`}>
                    {p.name} <span className="mono muted">{p.uid}</span> · {formatNumber(capacityKw(p.capa), 2)} kW
                    {p.exists ? <span className="tag off">{m.offer.exists}</span> : null}
                  </label>
                </div>
              ))}
            </fieldset>
            <fieldset className="checks">
              <legend>{m.offer.rtus}</legend>
              {offer.rtuList.length === 0 ? <p>{m.offer.none}</p> : null}
              {offer.rtuList.map((r) => (
                <div className="check" key={r.uid}>
                  <input type="checkbox" id={`imp-rtu-${r.uid}`} name="rtus" value={r.uid} disabled={r.exists} />
                  <label htmlFor={`imp-rtu-${r.uid}`}>
                    {r.alias || r.name}{" "}
                    <span className="mono muted">
                      {r.uid}
                      {r.mac ? ` · ${r.mac}` : ""}
                    </span>
                    {r.exists ? <span className="tag off">{m.offer.exists}</span> : null}
                  </label>
                </div>
              ))}
            </fieldset>
            <fieldset className="checks">
              <legend>{m.offer.devices}</legend>
              <p className="hint">{m.offer.deviceHint}</p>
              {offer.deviceList.length === 0 ? <p>{m.offer.none}</p> : null}
              {offer.deviceList.map((d) => (
                <div className="check" key={d.id}>
                  <input type="checkbox" id={`imp-dev-${d.id}`} name="devices" value={d.id} disabled={d.exists} />
                  <label htmlFor={`imp-dev-${d.id}`}>
                    {d.name} · {kindLabel(t, d.kind)}{" "}
                    <span className="mono muted">
                      {d.id}
                      {d.rtuUid ? ` · RTU ${d.rtuUid}` : ""}
                    </span>
                    {d.exists ? <span className="tag off">{m.offer.exists}</span> : null}
                  </label>
                </div>
              ))}
            </fieldset>
            <button type="submit" name="intent" value="import" disabled={busy}>
              {m.offer.submit}
            </button>
          </Form>
        </section>
      ) : null}

      {source ? (
        <section className="panel" aria-labelledby="edit-source-title">
          <h2 id="edit-source-title">{m.editSource}</h2>
          <Form method="post" noValidate onSubmit={updV.onSubmit}>
            <AuthenticityTokenInput />
            <input type="hidden" name="crawlerId" value={source.crawlerId} />
            <FormAlert message={errText(updV.errors._form)} />
            <SourceFields
              form="update"
              values={
                upd?.values ?? {
                  site: source.site,
                  name: source.name,
                  url: source.url,
                  id: source.id,
                  address: source.address ?? "",
                }
              }
              errors={updV.errors}
              siteOptions={siteOptions}
              keepPassword
            />
            <button type="submit" name="intent" value="update" disabled={busy}>
              {t.fleet.save}
            </button>
          </Form>
          <DeleteSection
            id="delete-source"
            intro={m.deleteSource}
            answer={answerFor(data, "delete")}
            action={`?source=${source.crawlerId}&crawlerId=${source.crawlerId}`}
          />
        </section>
      ) : null}

      <section className="panel" aria-labelledby="register-title">
        <h2 id="register-title">{m.register.legend}</h2>
        <Form method="post" noValidate onSubmit={regV.onSubmit}>
          <AuthenticityTokenInput />
          <FormAlert message={errText(regV.errors._form)} />
          <SourceFields
            form="register"
            values={reg?.values ?? { site: "portal" }}
            errors={regV.errors}
            siteOptions={siteOptions}
          />
          <button type="submit" name="intent" value="register" disabled={busy}>
            {m.register.submit}
          </button>
        </Form>
      </section>
    </div>
  );
}

function SourceFields(props: {
  form: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  siteOptions: Array<{ value: string; label: string }>;
  keepPassword?: boolean;
}) {
  const t = useAdminT();
  const r = t.importing.register;
  const err = useFleetErrorText();
  const { form, values: v, errors: e } = props;
  return (
    <div className="form-grid">
      <SelectInput
        form={form}
        name="site"
        label={r.site}
        required
        defaultValue={v.site ?? "portal"}
        error={err(e.site)}
        options={props.siteOptions}
      />
      <TextInput form={form} name="name" label={r.name} required defaultValue={v.name} error={err(e.name)} maxLength={100} />
      <TextInput
        form={form}
        name="url"
        type="url"
        label={r.url}
        hint={r.urlHint}
        required
        defaultValue={v.url}
        error={err(e.url)}
      />
      <TextInput form={form} name="id" label={r.id} required defaultValue={v.id} error={err(e.id)} maxLength={64} />
      <TextInput
        form={form}
        name="pw"
        type="password"
        label={r.pw}
        hint={props.keepPassword ? r.pwKeep : r.pwHint}
        required={!props.keepPassword}
        error={err(e.pw)}
        autoComplete="new-password"
      />
      <TextInput form={form} name="address" label={r.address} defaultValue={v.address} error={err(e.address)} maxLength={200} />
    </div>
  );
}
