/** /notice/{seq}: one notice — read it, or (level 10+) edit its text and use flag, or delete it. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import { canAdminister } from "../../domain/admin-levels";
import { NOTICE_MAX, NoticeFields } from "../../domain/notice-form";
import { type FormFailure, apiFailure, formFailure, orNotFound } from "~/utils/form-action.server";
import { requireSection } from "~/auth/section.server";
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
import { deleteNotices, getNotice, updateNotice } from "~/models/notices.server";
import { noticeDate } from "~/utils/notice-format.server";
import { readPreferences } from "~/utils/preferences.server";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).notices.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

function seqOf(params: { seq?: string }): number {
  const seq = Number(params.seq);
  if (!Number.isInteger(seq) || seq <= 0) throw new Response("not found", { status: 404 });
  return seq;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "notice");
  const seq = seqOf(params);
  const notice = await orNotFound(getNotice(accessToken, seq));
  const editor = user.readOnly !== 1 && canAdminister("setting", user.auth);
  return json({ notice: { ...notice, date: noticeDate(notice.created_at, readPreferences(request).locale) }, editor });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "notice");
  const seq = seqOf(params);
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = adminMessages(readPreferences(request).locale);
  const intent = String(form.get("intent") ?? "");
  if (intent === "delete") {
    const confirm = String(form.get("confirm") ?? "");
    if (!isDeleteConfirmed(confirm)) return formFailure(intent, { confirm: "confirmation_required" });
    try {
      await deleteNotices(accessToken, [seq], confirm);
    } catch (error) {
      return apiFailure(intent, error);
    }
    return redirectWithFlash("/notice", fmt(t.notices.deleted, { count: 1 }));
  }
  const input = { content: String(form.get("content") ?? ""), use: form.get("use") ? 1 : 0 };
  const values = { content: input.content, use: String(input.use) };
  const parsed = NoticeFields.safeParse(input);
  if (!parsed.success) return formFailure("update", fieldErrorsOf(parsed.error), values);
  try {
    await updateNotice(accessToken, seq, parsed.data);
  } catch (error) {
    return apiFailure("update", error, values);
  }
  return redirectWithFlash(`/notice/${seq}`, t.notices.updated);
}

export default function NoticeDetail() {
  const { notice, editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as FormFailure | undefined;
  const navigation = useNavigation();
  const t = useAdminT();
  const n = t.notices;
  const text = useErrorText();
  const busy = navigation.state === "submitting";
  const failed = (intent: string) => (actionData?.intent === intent ? actionData.errors : undefined);
  const update = useClientValidation(failed("update"), (el) => {
    const data = new FormData(el);
    return schemaErrors(NoticeFields, { content: String(data.get("content") ?? ""), use: data.get("use") ? 1 : 0 });
  });
  const del = useClientValidation(failed("delete"), (el): Errors =>
    isDeleteConfirmed(new FormData(el).get("confirm")) ? {} : { confirm: "confirmation_required" },
  );
  const values = actionData?.intent === "update" ? actionData.values : { content: notice.content, use: String(notice.use) };

  return (
    <div className="admin-page">
      <p className="crumbs">
        <AppLink to="/notice">← {t.adminForms.back}</AppLink>
      </p>
      {!editor ? (
        <article className="panel wide">
          <h1>{n.title}</h1>
          <p className="notice-content">{notice.content}</p>
          <p className="notice-meta">{notice.date}</p>
        </article>
      ) : (
        <>
          <section className="panel wide" aria-labelledby="notice-edit-title">
            <h1 id="notice-edit-title">{fmt(n.editTitle, { seq: notice.seq })}</h1>
            <p className="notice-meta">{fmt(n.written, { date: notice.date, author: notice.author_id ?? "—" })}</p>
            <FormAlert message={update.errors._form ? text(update.errors._form) : null} />
            <Form
              method="post"
              noValidate
              onSubmit={update.onSubmit}
              onInput={update.onInput}
              aria-labelledby="notice-edit-title"
            >
              <AuthenticityTokenInput />
              <TextArea
                form="notice-edit"
                name="content"
                label={n.content}
                required
                rows={6}
                maxLength={NOTICE_MAX}
                defaultValue={values.content}
                error={text(update.errors.content)}
              />
              <Checkbox
                form="notice-edit"
                name="use"
                label={n.use}
                defaultChecked={values.use === "1"}
                error={text(update.errors.use)}
              />
              <div className="form-actions">
                <button type="submit" name="intent" value="update" disabled={busy}>
                  {t.adminForms.save}
                </button>
              </div>
            </Form>
          </section>
          <section className="panel wide danger-zone" aria-labelledby="notice-delete-title">
            <h2 id="notice-delete-title">{n.remove.title}</h2>
            <FormAlert message={del.errors._form ? text(del.errors._form) : null} />
            <Form method="post" noValidate onSubmit={del.onSubmit} onInput={del.onInput} aria-labelledby="notice-delete-title">
              <AuthenticityTokenInput />
              <ConfirmDelete form="notice-delete" error={text(del.errors.confirm)} />
              <button type="submit" name="intent" value="delete" className="danger" disabled={busy}>
                {n.remove.submit}
              </button>
            </Form>
          </section>
        </>
      )}
    </div>
  );
}
