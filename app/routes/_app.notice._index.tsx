/**
 * /notice: notices (SPEC §3 Notice). Everybody reads the published ones; members with the
 * 'setting' admin area (level 10+) also see hidden ones, post new ones and delete one or many
 * with the typed confirmation.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import { canAdminister } from "../../domain/admin-levels";
import { NOTICE_MAX, NoticeFields } from "../../domain/notice-form";
import { type FormFailure, apiFailure, formFailure, formValues, parseSearch, runIntent } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { requireSection } from "~/auth/section.server";
import { FilterLinks } from "~/components/DataTable";
import {
  Checkbox,
  ConfirmDelete,
  FormAlert,
  TextArea,
  fieldErrorsOf,
  schemaErrors,
  useClientValidation,
  useErrorText,
  type Errors,
} from "~/components/AdminForm";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { withDates } from "~/utils/notice-format.server";
import { createNotice, deleteNotices, listNotices } from "~/models/notices.server";
import { readPreferences } from "~/utils/preferences.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).notices.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

function noticeInput(form: FormData) {
  return { content: String(form.get("content") ?? ""), use: form.get("use") ? 1 : 0 };
}

/** An editor may list the notices in use (1), not in use (0) or all; everyone else sees those in use. */
const Search = z.object({ use: searchParam.oneOf(["0", "1"]) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "notice");
  const editor = user.readOnly !== 1 && canAdminister("setting", user.auth);
  const { use: useParam } = parseSearch(Search, request);
  const use = editor ? (useParam === "" ? undefined : (Number(useParam) as 0 | 1)) : 1;
  const list = await listNotices(accessToken, use);
  return json({ notices: withDates(list, readPreferences(request).locale), editor });
}

interface NoticeCtx {
  accessToken: string;
  form: FormData;
  t: ReturnType<typeof adminMessages>;
}

async function create({ accessToken, form, t }: NoticeCtx, intent: string) {
  const input = noticeInput(form);
  const values = { content: input.content, use: String(input.use) };
  const parsed = NoticeFields.safeParse(input);
  if (!parsed.success) return formFailure(intent, fieldErrorsOf(parsed.error), values);
  try {
    await createNotice(accessToken, parsed.data);
  } catch (error) {
    return apiFailure(intent, error, values);
  }
  return redirectWithFlash("/notice", t.notices.created);
}

async function remove({ accessToken, form, t }: NoticeCtx, intent: string) {
  const seqs = form
    .getAll("noticesSeq")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const values = { ...formValues(form), noticesSeq: seqs.join(",") };
  const errors: Errors = {};
  if (!seqs.length) errors.noticesSeq = "required";
  const confirm = String(form.get("confirm") ?? "");
  if (!isDeleteConfirmed(confirm)) errors.confirm = "confirmation_required";
  if (Object.keys(errors).length) return formFailure(intent, errors, values);
  try {
    await deleteNotices(accessToken, seqs, confirm);
  } catch (error) {
    return apiFailure(intent, error, values);
  }
  return redirectWithFlash("/notice", fmt(t.notices.deleted, { count: seqs.length }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "notice");
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = adminMessages(readPreferences(request).locale);
  return runIntent(form, { create, delete: remove }, { accessToken, form, t }, { fallback: "create" });
}

export default function Notices() {
  const { notices, editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as FormFailure | undefined;
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const t = useAdminT();
  const n = t.notices;
  const text = useErrorText();
  const busy = navigation.state === "submitting";
  const failed = (intent: string) => (actionData?.intent === intent ? actionData.errors : undefined);
  const create = useClientValidation(failed("create"), (el) => schemaErrors(NoticeFields, noticeInput(new FormData(el))));
  const del = useClientValidation(failed("delete"), (el) => {
    const data = new FormData(el);
    const errors: Errors = {};
    if (!data.getAll("noticesSeq").length) errors.noticesSeq = "required";
    if (!isDeleteConfirmed(data.get("confirm"))) errors.confirm = "confirmation_required";
    return errors;
  });
  const createValues = actionData?.intent === "create" ? actionData.values : { use: "1" };
  // Without JS a refused delete re-renders the page: keep the boxes that were ticked.
  const selected = new Set((actionData?.intent === "delete" ? (actionData.values.noticesSeq ?? "") : "").split(",").map(Number));
  const useFilter = params.get("use");

  return (
    <div className="admin-page">
      <h1>{n.title}</h1>
      {editor ? (
        <section className="panel wide" aria-labelledby="notice-new-title">
          <h2 id="notice-new-title">{n.newTitle}</h2>
          <FormAlert message={create.errors._form ? text(create.errors._form) : null} />
          <Form method="post" noValidate onSubmit={create.onSubmit} onInput={create.onInput} aria-labelledby="notice-new-title">
            <AuthenticityTokenInput />
            <TextArea
              form="notice-new"
              name="content"
              label={n.content}
              required
              rows={4}
              maxLength={NOTICE_MAX}
              defaultValue={createValues.content}
              error={text(create.errors.content)}
            />
            <Checkbox
              form="notice-new"
              name="use"
              label={n.use}
              defaultChecked={createValues.use === "1"}
              error={text(create.errors.use)}
            />
            <div className="form-actions">
              <button type="submit" name="intent" value="create" disabled={busy}>
                {n.create}
              </button>
            </div>
          </Form>
        </section>
      ) : null}

      <section className="panel wide" aria-labelledby="notice-list-title">
        <h2 id="notice-list-title">{n.list}</h2>
        {editor ? (
          <FilterLinks
            label={n.list}
            links={[
              { to: "/notice", label: t.adminForms.any, current: useFilter === null },
              { to: "/notice?use=1", label: n.active, current: useFilter === "1" },
              { to: "/notice?use=0", label: n.inactive, current: useFilter === "0" },
            ]}
          />
        ) : null}
        {notices.length === 0 ? <p className="muted">{n.empty}</p> : null}
        {editor && notices.length ? (
          <Form method="post" noValidate onSubmit={del.onSubmit} onInput={del.onInput} aria-labelledby="notice-list-title">
            <AuthenticityTokenInput />
            {del.errors.noticesSeq ? (
              <p className="alert error" role="alert">
                {n.noneSelected}
              </p>
            ) : null}
            <FormAlert message={del.errors._form ? text(del.errors._form) : null} />
            <ul className="notice-list">
              {notices.map((item) => (
                <li key={item.seq} className={item.use ? undefined : "hidden-notice"}>
                  <div className="notice-select">
                    <input
                      type="checkbox"
                      id={`notice-sel-${item.seq}`}
                      name="noticesSeq"
                      value={item.seq}
                      defaultChecked={selected.has(item.seq)}
                    />
                    <label htmlFor={`notice-sel-${item.seq}`} className="visually-hidden">
                      {fmt(n.select, { seq: item.seq })}
                    </label>
                  </div>
                  <div className="notice-body">
                    <p className="notice-content">{item.content}</p>
                    <p className="notice-meta">
                      <span className={item.use ? "tag ok" : "tag off"}>{item.use ? n.active : n.inactive}</span>{" "}
                      {fmt(n.written, { date: item.date, author: item.author_id ?? "—" })} ·{" "}
                      <AppLink to={`/notice/${item.seq}`}>{n.edit}</AppLink>
                    </p>
                  </div>
                </li>
              ))}
            </ul>
            <fieldset className="bulk-delete">
              <legend>{n.bulkTitle}</legend>
              <ConfirmDelete form="notice-bulk" error={text(del.errors.confirm)} />
              <button type="submit" name="intent" value="delete" className="danger" disabled={busy}>
                {n.bulkDelete}
              </button>
            </fieldset>
          </Form>
        ) : (
          <ul className="notice-list">
            {notices.map((item) => (
              <li key={item.seq}>
                <div className="notice-body">
                  <p className="notice-content">{item.content}</p>
                  <p className="notice-meta">{item.date}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
