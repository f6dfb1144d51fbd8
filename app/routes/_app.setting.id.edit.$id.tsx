/**
 * /setting/id/edit/{id}: one member — edit, temporary password, logo, plant links, delete.
 * Several forms on one page, told apart by their `intent` button; each answers with its own field
 * errors, and every success redirects back with a flash message (no double submit on reload).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { readUploadForm } from "~/utils/upload-form.server";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import { buildTree, flattenTree } from "../../domain/group-tree";
import { LOGO_ACCEPT, LOGO_FIELD, LOGO_MAX_BYTES, logoProblem } from "../../domain/logo";
import { MemberEditFields, passwordResetFields } from "../../domain/member-form";
import { type FormFailure, apiFailure, formFailure, orNotFound } from "~/utils/form-action.server";
import { requireSettingScreen } from "~/auth/section.server";
import {
  ConfirmDelete,
  FormAlert,
  SelectInput,
  TextInput,
  fieldErrorsOf,
  schemaErrors,
  useClientValidation,
  useErrorText,
  type Errors,
} from "~/components/AdminForm";
import { MemberFields } from "~/components/MemberForm";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { groupList } from "~/models/groups.server";
import {
  deleteMember,
  getMember,
  linkMemberPlant,
  removeMemberLogo,
  resetMemberPassword,
  unlinkMemberPlant,
  updateMember,
  uploadMemberLogo,
} from "~/models/members-admin.server";
import { readPreferences } from "~/utils/preferences.server";
import { TokenTable } from "~/components/api-tokens/TokenTable";
import { apiTokensMessages, useApiTokensT } from "~/i18n/api-tokens";
import { memberApiTokens, revokeApiToken } from "~/models/api-tokens.server";
import { memberInput, memberValues } from "~/schemas/member-form";
import { metaLocale } from "~/utils/meta-locale";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: `${data?.member.id ?? ""} · ${adminMessages(metaLocale(matches)).members.title} · ${adminMessages(metaLocale(matches)).appName}`,
  },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSettingScreen(request, context, "id");
  const id = params.id ?? "";
  const [detail, groups, tokens] = await Promise.all([
    orNotFound(getMember(accessToken, id)),
    groupList(accessToken),
    // A member above the admin's level: their tokens are not the admin's to see (the API answers 404).
    memberApiTokens(accessToken, id).then(
      (r) => r.tokens,
      () => null,
    ),
  ]);
  const nodes = flattenTree(buildTree(groups.groupList)).map(({ node, depth }) => ({ seq: node.seq, name: node.name, depth }));
  const linked = new Set(detail.memberOfPlantList.map((p) => p.uid));
  const plantChoices = groups.plantList.filter((p) => !linked.has(p.uid)).map((p) => ({ uid: p.uid, name: p.name }));
  return json({
    ...detail,
    nodes,
    plantChoices,
    me: { id: user.id, auth: user.auth },
    editable: detail.member.auth <= user.auth,
    tokens,
    tokenPlantNames: Object.fromEntries(groups.plantList.map((p) => [p.uid, p.name])),
    now: Date.now(),
  });
}

const INTENTS = ["update", "reset", "logo", "logoRemove", "link", "unlink", "delete", "revokeToken"] as const;
type Intent = (typeof INTENTS)[number];

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "id");
  const id = params.id ?? "";
  const here = `/setting/id/edit/${encodeURIComponent(id)}`;
  const t = adminMessages(readPreferences(request).locale);
  const form = await readUploadForm(request, { field: LOGO_FIELD, maxBytes: LOGO_MAX_BYTES });
  // An oversized upload is refused before anything is read further; nothing is written.
  if (form === "too_large") return formFailure("logo", { [LOGO_FIELD]: "too_large" });
  await assertCsrf(form, request);
  const intent = String(form.get("intent") ?? "") as Intent;
  if (!INTENTS.includes(intent)) return formFailure("update", { _form: "invalid_input" });
  try {
    switch (intent) {
      case "update": {
        const input = memberInput(form, { create: false });
        const values = memberValues(input);
        const parsed = MemberEditFields.safeParse(input);
        if (!parsed.success) return formFailure(intent, fieldErrorsOf(parsed.error), values);
        try {
          await updateMember(accessToken, id, parsed.data);
        } catch (error) {
          return apiFailure(intent, error, values);
        }
        return redirectWithFlash(here, t.members.updated);
      }
      case "reset": {
        const parsed = passwordResetFields(id).safeParse({ password: String(form.get("password") ?? "") });
        if (!parsed.success) return formFailure(intent, fieldErrorsOf(parsed.error));
        await resetMemberPassword(accessToken, id, parsed.data.password);
        return redirectWithFlash(here, t.members.reset.done);
      }
      case "logo": {
        const file = form.get(LOGO_FIELD);
        const problem = logoProblem(file instanceof File ? { size: file.size } : null);
        if (problem || !(file instanceof File)) return formFailure(intent, { [LOGO_FIELD]: problem ?? "required" });
        await uploadMemberLogo(accessToken, id, file);
        return redirectWithFlash(here, t.members.logo.uploaded);
      }
      case "logoRemove":
        await removeMemberLogo(accessToken, id);
        return redirectWithFlash(here, t.members.logo.removed);
      case "link":
      case "unlink": {
        const plantUid = String(form.get("plantUid") ?? "").trim();
        const plantName = String(form.get("plantName") ?? plantUid);
        if (!plantUid) return formFailure(intent, { plantUid: "required" });
        if (intent === "link") await linkMemberPlant(accessToken, id, plantUid);
        else await unlinkMemberPlant(accessToken, id, plantUid);
        return redirectWithFlash(
          here,
          fmt(intent === "link" ? t.members.links.linked : t.members.links.unlinked, { plant: plantName }),
        );
      }
      case "revokeToken":
        await revokeApiToken(accessToken, String(form.get("id") ?? ""));
        return redirectWithFlash(here, apiTokensMessages(readPreferences(request).locale).apiTokens.revoked);
      case "delete": {
        const confirm = String(form.get("confirm") ?? "");
        if (!isDeleteConfirmed(confirm)) return formFailure(intent, { confirm: "confirmation_required" });
        await deleteMember(accessToken, id, confirm);
        return redirectWithFlash("/setting/id", fmt(t.members.deleted, { id }));
      }
    }
  } catch (error) {
    return apiFailure(intent, error);
  }
}

export default function EditMember() {
  const { member, memberOfPlantList, memberOfRTUs, nodes, plantChoices, me, editable, tokens, tokenPlantNames, now } =
    useLoaderData<typeof loader>();
  const tokensT = useApiTokensT().apiTokens;
  const actionData = useActionData<typeof action>() as FormFailure | undefined;
  const navigation = useNavigation();
  const t = useAdminT();
  const m = t.members;
  const text = useErrorText();
  const busy = navigation.state === "submitting";
  const failed = (intent: string): Errors | undefined => (actionData?.intent === intent ? actionData.errors : undefined);
  const isSelf = member.id === me.id;

  const update = useClientValidation(failed("update"), (el) =>
    schemaErrors(MemberEditFields, memberInput(new FormData(el), { create: false })),
  );
  const reset = useClientValidation(failed("reset"), (el) =>
    schemaErrors(passwordResetFields(member.id), { password: String(new FormData(el).get("password") ?? "") }),
  );
  const logo = useClientValidation(failed("logo"), (el): Errors => {
    const file = new FormData(el).get(LOGO_FIELD);
    const problem = logoProblem(file instanceof File ? { size: file.size, type: file.type } : null);
    return problem ? { [LOGO_FIELD]: problem } : {};
  });
  const del = useClientValidation(failed("delete"), (el): Errors =>
    isDeleteConfirmed(new FormData(el).get("confirm")) ? {} : { confirm: "confirmation_required" },
  );
  const formAlert = (errors: Errors) => <FormAlert message={errors._form ? text(errors._form) : null} />;

  const values =
    actionData?.intent === "update"
      ? actionData.values
      : {
          name: member.name,
          auth: String(member.auth),
          node_seq: member.node_seq === null ? "" : String(member.node_seq),
          phone: member.phone ?? "",
          email: member.email ?? "",
          service: String(member.service),
          use_yn: String(member.use_yn),
          diagram: String(member.diagram),
          cctv: String(member.cctv),
          page: String(member.page),
        };

  return (
    <div className="admin-page">
      <p className="crumbs">
        <AppLink to="/setting/id">← {t.adminForms.back}</AppLink>
      </p>
      <h1>{fmt(m.editTitle, { id: member.id })}</h1>
      {!editable ? (
        <p className="alert warn" role="status">
          {m.aboveOwn}
        </p>
      ) : null}
      <div className="admin-grid">
        <section className="panel wide" aria-labelledby="member-edit-title">
          <h2 id="member-edit-title">{m.detailsTitle}</h2>
          {formAlert(update.errors)}
          <Form method="post" noValidate onSubmit={update.onSubmit} onInput={update.onInput} aria-labelledby="member-edit-title">
            <AuthenticityTokenInput />
            <fieldset disabled={!editable} className="plain">
              <MemberFields
                form="edit"
                create={false}
                values={values}
                errors={update.errors}
                text={text}
                nodes={nodes}
                maxLevel={me.auth}
              />
              <div className="form-actions">
                <button type="submit" name="intent" value="update" disabled={busy}>
                  {t.adminForms.save}
                </button>
              </div>
            </fieldset>
          </Form>
        </section>

        <div className="stack">
          <section className="panel" aria-labelledby="logo-title">
            <h2 id="logo-title">{m.logo.title}</h2>
            {member.logo ? (
              <img className="member-logo" src={`/uploads/${member.logo}`} alt={fmt(m.logo.alt, { id: member.id })} />
            ) : (
              <p className="muted">{m.logo.none}</p>
            )}
            {editable ? (
              <>
                {formAlert(logo.errors)}
                <Form
                  method="post"
                  encType="multipart/form-data"
                  noValidate
                  onSubmit={logo.onSubmit}
                  onInput={logo.onInput}
                  aria-labelledby="logo-title"
                >
                  <AuthenticityTokenInput />
                  <TextInput
                    form="logo"
                    name={LOGO_FIELD}
                    type="file"
                    label={m.logo.file}
                    hint={m.logo.hint}
                    error={text(logo.errors[LOGO_FIELD])}
                    accept={LOGO_ACCEPT}
                  />
                  <div className="form-actions">
                    <button type="submit" name="intent" value="logo" disabled={busy}>
                      {m.logo.upload}
                    </button>
                  </div>
                </Form>
                {member.logo ? (
                  <Form method="post" className="inline-form">
                    <AuthenticityTokenInput />
                    <button type="submit" name="intent" value="logoRemove" className="secondary" disabled={busy}>
                      {m.logo.remove}
                    </button>
                  </Form>
                ) : null}
              </>
            ) : null}
          </section>

          <section className="panel" aria-labelledby="reset-title">
            <h2 id="reset-title">{m.reset.title}</h2>
            {isSelf ? (
              <p>
                <AppLink to="/modify">{m.reset.self}</AppLink>
              </p>
            ) : member.readOnly ? (
              <p className="muted">{t.adminForms.messages.read_only_member}</p>
            ) : editable ? (
              <>
                <p className="muted">{m.reset.hint}</p>
                {formAlert(reset.errors)}
                <Form method="post" noValidate onSubmit={reset.onSubmit} onInput={reset.onInput} aria-labelledby="reset-title">
                  <AuthenticityTokenInput />
                  <TextInput
                    form="reset"
                    name="password"
                    type="password"
                    label={m.fields.password}
                    required
                    autoComplete="new-password"
                    hint={m.fields.passwordHint}
                    error={text(reset.errors.password)}
                  />
                  <button type="submit" name="intent" value="reset" disabled={busy}>
                    {m.reset.submit}
                  </button>
                </Form>
              </>
            ) : null}
          </section>
        </div>
      </div>

      <section className="panel wide" aria-labelledby="links-title">
        <h2 id="links-title">{m.links.title}</h2>
        {actionData?.intent === "link" || actionData?.intent === "unlink" ? formAlert(actionData.errors) : null}
        {memberOfPlantList.length === 0 ? (
          <p className="muted">{m.links.none}</p>
        ) : (
          <ul className="link-list">
            {memberOfPlantList.map((p) => (
              <li key={p.uid}>
                <span>
                  {p.name} <span className="muted">({p.uid})</span>
                </span>
                {editable ? (
                  <Form method="post" className="inline-form">
                    <AuthenticityTokenInput />
                    <input type="hidden" name="plantUid" value={p.uid} />
                    <input type="hidden" name="plantName" value={p.name} />
                    <button
                      type="submit"
                      name="intent"
                      value="unlink"
                      className="secondary small"
                      aria-label={fmt(m.links.removeLabel, { plant: p.name })}
                      disabled={busy}
                    >
                      {m.links.remove}
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {memberOfRTUs.length ? (
          <p className="muted">
            {m.links.rtus}: {memberOfRTUs.map((r) => r.alias || r.name).join(", ")}
          </p>
        ) : null}
        {editable ? (
          plantChoices.length ? (
            <Form method="post" className="inline-fields" aria-labelledby="links-title">
              <AuthenticityTokenInput />
              <SelectInput
                form="link"
                name="plantUid"
                label={m.links.choose}
                error={actionData?.intent === "link" ? text(actionData.errors.plantUid) : undefined}
                options={plantChoices.map((p) => ({ value: p.uid, label: `${p.name} (${p.uid})` }))}
              />
              <button type="submit" name="intent" value="link" disabled={busy}>
                {m.links.add}
              </button>
            </Form>
          ) : (
            <p className="muted">{m.links.noChoices}</p>
          )
        ) : null}
      </section>

      {tokens ? (
        <section className="panel wide" aria-labelledby="member-tokens-title">
          <h2 id="member-tokens-title">{tokensT.adminTitle}</h2>
          {actionData?.intent === "revokeToken" ? formAlert(actionData.errors) : null}
          <TokenTable
            tokens={tokens}
            now={now}
            plantNames={tokenPlantNames}
            canRevoke={editable}
            caption={tokensT.adminTitle}
            empty={tokensT.adminNone}
          />
        </section>
      ) : null}

      {editable && !isSelf && !member.readOnly ? (
        <section className="panel wide danger-zone" aria-labelledby="delete-title">
          <h2 id="delete-title">{m.remove.title}</h2>
          <p>{m.remove.hint}</p>
          {formAlert(del.errors)}
          <Form method="post" noValidate onSubmit={del.onSubmit} onInput={del.onInput} aria-labelledby="delete-title">
            <AuthenticityTokenInput />
            <ConfirmDelete form="delete" error={text(del.errors.confirm)} />
            <button type="submit" name="intent" value="delete" className="danger" disabled={busy}>
              {m.remove.submit}
            </button>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
