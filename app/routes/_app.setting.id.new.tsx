/**
 * /setting/id/new: create a member. The same schema validates in the browser (before the round
 * trip) and in the action; the API validates again and checks the id is free.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { buildTree, flattenTree } from "../../domain/group-tree";
import { MemberCreateFields } from "../../domain/member-form";
import { MEMBER_ID_PATTERN } from "../../domain/password-policy";
import { apiFailure, formFailure } from "~/utils/form-action.server";
import { requireSettingScreen } from "~/auth/section.server";
import { FormAlert, fieldErrorsOf, schemaErrors, useClientValidation, useErrorText } from "~/components/AdminForm";
import { MemberFields, useIdCheck } from "~/components/MemberForm";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { groupList } from "~/models/groups.server";
import { checkMemberId, createMember } from "~/models/members-admin.server";
import { readPreferences } from "~/utils/preferences.server";
import { memberInput, memberValues } from "~/schemas/member-form";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).members.newTitle} · ${adminMessages(metaLocale(matches)).appName}` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSettingScreen(request, context, "id");
  const groups = await groupList(accessToken);
  const nodes = flattenTree(buildTree(groups.groupList)).map(({ node, depth }) => ({ seq: node.seq, name: node.name, depth }));
  return json({ nodes, maxLevel: user.auth });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "id");
  const form = await request.formData();
  await assertCsrf(form, request);
  const input = memberInput(form, { create: true });
  const values = memberValues(input);
  const parsed = MemberCreateFields.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    // Report a taken id together with the other field errors, not one round trip later.
    const id = typeof input.id === "string" ? input.id.trim() : "";
    if (!errors.id && MEMBER_ID_PATTERN.test(id) && (await checkMemberId(accessToken, id)).exists) errors.id = "id_taken";
    return formFailure("create", errors, values);
  }
  try {
    await createMember(accessToken, parsed.data);
  } catch (error) {
    return apiFailure("create", error, values);
  }
  const t = adminMessages(readPreferences(request).locale);
  return redirectWithFlash(
    `/setting/id/edit/${encodeURIComponent(parsed.data.id)}`,
    fmt(t.members.created, { id: parsed.data.id }),
  );
}

export default function NewMember() {
  const { nodes, maxLevel } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useAdminT();
  const text = useErrorText();
  const idCheck = useIdCheck();
  const { errors, onSubmit, onInput } = useClientValidation(actionData?.errors, (el) => {
    const found = schemaErrors(MemberCreateFields, memberInput(new FormData(el), { create: true }));
    if (!found.id && idCheck.status === "taken") found.id = "id_taken";
    return found;
  });
  const busy = navigation.state === "submitting";
  return (
    <div className="admin-page">
      <p className="crumbs">
        <AppLink to="/setting/id">← {t.adminForms.back}</AppLink>
      </p>
      <section className="panel wide" aria-labelledby="new-member-title">
        <h1 id="new-member-title">{t.members.newTitle}</h1>
        <FormAlert message={errors._form ? text(errors._form) : Object.keys(errors).length ? t.adminForms.fixErrors : null} />
        <Form method="post" noValidate onSubmit={onSubmit} onInput={onInput} aria-labelledby="new-member-title">
          <AuthenticityTokenInput />
          <MemberFields
            form="new"
            create
            values={actionData?.values ?? {}}
            errors={errors}
            text={text}
            nodes={nodes}
            maxLevel={maxLevel}
            idStatus={idCheck.status}
            onIdInput={idCheck.onIdInput}
          />
          <div className="form-actions">
            <button type="submit" disabled={busy}>
              {t.adminForms.save}
            </button>
            <AppLink to="/setting/id" className="button secondary">
              {t.adminForms.cancel}
            </AppLink>
          </div>
        </Form>
      </section>
    </div>
  );
}
