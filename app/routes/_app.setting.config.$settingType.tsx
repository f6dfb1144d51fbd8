/**
 * /setting/config/{settingType}: alarm-engine thresholds, the group-status polling interval and the
 * fault-code table (domain/settings.ts). One page per setting type, tabs between them.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, NavLink, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z, type ZodType } from "zod";
import {
  AlarmSettingsSchema,
  FaultCodeSchema,
  PollingSettingsSchema,
  SETTING_FIELDS,
  SETTING_TYPES,
  isSettingType,
  type ValueSettingType,
} from "../../domain/settings";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, SelectInput, TextInput, schemaErrors, useClientValidation } from "~/components/AdminForm";
import { answerFor, DeleteSection, formatTime, useFleetErrorText } from "~/components/FleetAdmin";
import { assertCsrf } from "~/utils/csrf.server";
import { apiFailure, formValues, parseForm, parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { localeOf } from "~/utils/fleet-locale.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt, useLocale } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { useAlarmT } from "~/i18n/alarm";
import { createFaultCode, deleteFaultCode, faultCodes, putSettings, settings, updateFaultCode } from "~/models/fleet.server";
import { metaLocale } from "~/utils/meta-locale";
import { scrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).config.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

const SCHEMAS: Record<ValueSettingType, ZodType<Record<string, number>, any, any>> = {
  alarm: AlarmSettingsSchema,
  polling: PollingSettingsSchema,
};

/** `edit`: the fault code whose form is open; `code`: the fault code a form posted from a link names. */
const Search = z.object({ edit: searchParam.id(0), code: searchParam.id(0) });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "config");
  const type = params.settingType;
  if (!isSettingType(type)) throw new Response("not found", { status: 404 });
  const { edit: editParam } = parseSearch(Search, request);
  if (type === "faultCodes") {
    const { codeList } = await faultCodes(accessToken);
    const editing = codeList.find((c) => c.code === editParam) ?? null;
    return json({ type, codeList, editing, values: null, meta: null });
  }
  const all = await settings(accessToken);
  return json({ type, codeList: [], editing: null, values: all[type] as Record<string, number>, meta: all.meta[type] ?? null });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "config");
  const type = params.settingType;
  if (!isSettingType(type)) throw new Response("not found", { status: 404 });
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = adminMessages(localeOf(request));
  const values = formValues(form);
  const here = `/setting/config/${type}`;
  if (type !== "faultCodes") {
    const parsed = parseForm(SCHEMAS[type], "settings", form);
    if (!parsed.ok) return parsed.response;
    try {
      await putSettings(accessToken, type, parsed.data as Record<string, unknown>);
      return redirectWithFlash(here, t.config.saved);
    } catch (error) {
      return apiFailure("settings", error, values);
    }
  }
  const intent = String(form.get("intent") ?? "");
  const code = Number(form.get("code") ?? parseSearch(Search, request).code);
  try {
    if (intent === "delete") {
      await deleteFaultCode(accessToken, code, String(form.get("confirm") ?? ""));
      return redirectWithFlash(here, fmt(t.config.faultCodes.deleted, { code }));
    }
    const parsed = parseForm(FaultCodeSchema, intent === "update" ? "update" : "add", form);
    if (!parsed.ok) return parsed.response;
    if (intent === "update") {
      const { code: c, ...rest } = parsed.data;
      await updateFaultCode(accessToken, c, rest);
      return redirectWithFlash(here, fmt(t.config.faultCodes.updated, { code: c }));
    }
    await createFaultCode(accessToken, parsed.data);
    return redirectWithFlash(here, fmt(t.config.faultCodes.created, { code: parsed.data.code }));
  } catch (error) {
    return apiFailure(intent === "update" ? "update" : intent === "delete" ? "delete" : "add", error, values);
  }
}

function ValueSettings({
  type,
  values,
  meta,
}: {
  type: ValueSettingType;
  values: Record<string, number>;
  meta: { updatedAt: number; updatedBy: string | null } | null;
}) {
  const t = useAdminT();
  const locale = useLocale();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const err = useFleetErrorText();
  const answer = answerFor(data, "settings");
  const v = useClientValidation(answer?.errors, (f) => schemaErrors(SCHEMAS[type], Object.fromEntries(new FormData(f))));
  const labels = t.config[type] as Record<string, string>;
  return (
    <section className="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">{labels.legend}</h2>
      {meta ? (
        <p className="muted">
          {fmt(t.config.lastChanged, { at: formatTime(meta.updatedAt, locale), by: meta.updatedBy ?? "—" })}
        </p>
      ) : null}
      <Form method="post" noValidate onSubmit={v.onSubmit} key={meta?.updatedAt ?? 0}>
        <AuthenticityTokenInput />
        <FormAlert message={Object.keys(v.errors).length ? (err(v.errors._form) ?? t.fleet.fixErrors) : null} />
        {(SETTING_FIELDS[type] as string[]).map((field) => (
          <TextInput
            key={field}
            form="settings"
            name={field}
            label={labels[field]!}
            hint={labels[`${field}Hint`]}
            required
            inputMode="text"
            defaultValue={answer?.values[field] ?? String(values[field])}
            error={err(v.errors[field])}
          />
        ))}
        <button type="submit" disabled={navigation.state === "submitting"}>
          {t.fleet.save}
        </button>
      </Form>
    </section>
  );
}

type Code = { code: number; hex: string; name_ko: string; name_en: string; level: number };

function CodeFields({
  form,
  values,
  errors,
  lockCode,
}: {
  form: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  lockCode?: boolean;
}) {
  const t = useAdminT();
  const f = t.config.faultCodes;
  const err = useFleetErrorText();
  return (
    <div className="form-grid">
      {lockCode ? (
        <input type="hidden" name="code" value={values.code} />
      ) : (
        <TextInput
          form={form}
          name="code"
          label={f.code}
          required
          inputMode="numeric"
          defaultValue={values.code}
          error={err(errors.code)}
        />
      )}
      <TextInput form={form} name="hex" label={f.hex} required defaultValue={values.hex} error={err(errors.hex)} maxLength={10} />
      <TextInput
        form={form}
        name="name_ko"
        label={f.name_ko}
        required
        defaultValue={values.name_ko}
        error={err(errors.name_ko)}
        maxLength={100}
      />
      <TextInput
        form={form}
        name="name_en"
        label={f.name_en}
        required
        defaultValue={values.name_en}
        error={err(errors.name_en)}
        maxLength={100}
      />
      <SelectInput
        form={form}
        name="level"
        label={f.level}
        required
        defaultValue={values.level ?? "3"}
        error={err(errors.level)}
        options={(["1", "2", "3", "4"] as const).map((l) => ({ value: l, label: f.levels[l] }))}
      />
    </div>
  );
}

function FaultCodes({ codeList, editing }: { codeList: Code[]; editing: Code | null }) {
  const t = useAdminT();
  const locale = useLocale();
  const f = t.config.faultCodes;
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const err = useFleetErrorText();
  const add = answerFor(data, "add");
  const update = answerFor(data, "update");
  const addV = useClientValidation(add?.errors, (el) => schemaErrors(FaultCodeSchema, Object.fromEntries(new FormData(el))));
  const updV = useClientValidation(update?.errors, (el) => schemaErrors(FaultCodeSchema, Object.fromEntries(new FormData(el))));
  const asValues = (c: Code) => ({
    code: String(c.code),
    hex: c.hex,
    name_ko: c.name_ko,
    name_en: c.name_en,
    level: String(c.level),
  });
  return (
    <>
      {editing ? (
        <section className="panel" aria-labelledby="code-edit-title">
          <h2 id="code-edit-title">{fmt(f.editTitle, { code: editing.code })}</h2>
          <Form method="post" noValidate onSubmit={updV.onSubmit}>
            <AuthenticityTokenInput />
            <FormAlert message={err(updV.errors._form)} />
            <CodeFields form="update" lockCode values={update?.values ?? asValues(editing)} errors={updV.errors} />
            <button type="submit" name="intent" value="update" disabled={navigation.state === "submitting"}>
              {t.fleet.save}
            </button>{" "}
            <AppLink to="/setting/config/faultCodes" className="button secondary">
              {t.fleet.cancel}
            </AppLink>
          </Form>
          <DeleteCode code={editing.code} />
        </section>
      ) : null}
      <div {...scrollRegion(f.caption)}>
        <table className="data-table">
          <caption>{f.caption}</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                {f.code}
              </th>
              <th scope="col">{f.hex}</th>
              <th scope="col">{locale === "en" ? f.name_en : f.name_ko}</th>
              <th scope="col">{f.level}</th>
              <th scope="col">
                <span className="visually-hidden">{t.fleet.edit}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {codeList.length === 0 ? (
              <tr>
                <td colSpan={5} className="empty">
                  {f.empty}
                </td>
              </tr>
            ) : (
              codeList.map((c) => (
                <tr key={c.code} aria-current={editing?.code === c.code ? "true" : undefined}>
                  <th scope="row" className="num">
                    {c.code}
                  </th>
                  <td className="mono">{c.hex}</td>
                  <td>{locale === "en" ? c.name_en : c.name_ko}</td>
                  <td>{f.levels[String(c.level) as "1"] ?? c.level}</td>
                  <td>
                    <AppLink to={`?edit=${c.code}`} aria-label={`${t.fleet.edit} ${c.code}`}>
                      {t.fleet.edit}
                    </AppLink>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <section className="panel" aria-labelledby="code-add-title">
        <h2 id="code-add-title">{f.add}</h2>
        <Form method="post" noValidate onSubmit={addV.onSubmit} key={codeList.length}>
          <AuthenticityTokenInput />
          <FormAlert message={err(addV.errors._form)} />
          <CodeFields form="add" values={add?.values ?? {}} errors={addV.errors} />
          <button type="submit" name="intent" value="add" disabled={navigation.state === "submitting"}>
            {t.fleet.create}
          </button>
        </Form>
      </section>
    </>
  );
}

/** Deleting a code: the shared delete section, the code carried in the action URL. */
function DeleteCode({ code }: { code: number }) {
  const t = useAdminT();
  const data = useActionData<typeof action>();
  return (
    <DeleteSection
      id={`delete-code-${code}`}
      intro={fmt(t.config.faultCodes.deleteIntro, { code })}
      answer={answerFor(data, "delete")}
      action={`?edit=${code}&code=${code}`}
    />
  );
}

export default function ConfigPage() {
  const { type, codeList, editing, values, meta } = useLoaderData<typeof loader>();
  const t = useAdminT();
  const alarmT = useAlarmT();
  return (
    <div className="admin-page">
      <h1>{t.config.title}</h1>
      <nav className="subnav" aria-label={t.config.nav}>
        {SETTING_TYPES.map((s) => (
          <NavLink key={s} to={`/setting/config/${s}`}>
            {t.config.tabs[s]}
          </NavLink>
        ))}
        <NavLink to="/setting/config/delivery">{alarmT.delivery.title}</NavLink>
      </nav>
      {type === "faultCodes" ? (
        <FaultCodes codeList={codeList} editing={editing} />
      ) : (
        <ValueSettings key={type} type={type} values={values!} meta={meta} />
      )}
    </div>
  );
}
