/**
 * /setting/group: the group tree (level 10 only, SPEC §6) — which plants and RTUs sit where, RTUs
 * in no plant, and the forms to rename, re-order, move (never under itself), add a subgroup and
 * delete an empty group. The selected group is in the URL (?node=seq), so it works without JS.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { useAlarmT } from "~/i18n/alarm";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import {
  GroupCreateFields,
  GroupUpdateFields,
  buildTree,
  descendantsOf,
  flattenTree,
  moveProblem,
  pathTo,
  type GroupRow,
  type TreeNode,
} from "../../domain/group-tree";
import { toInt } from "../../domain/member-form";
import { type FormFailure, formFailure, formValues, parseSearch, runIntent } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
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
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { adminMessages, useAdminT } from "~/i18n/admin";
import { createGroup, deleteGroup, groupList, updateGroup } from "~/models/groups.server";
import { readPreferences } from "~/utils/preferences.server";
import { metaLocale } from "~/utils/meta-locale";
import { scrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${adminMessages(metaLocale(matches)).groups.title} · ${adminMessages(metaLocale(matches)).appName}` },
];

/** The group shown (a group the member cannot see, or none, shows the member's own root). */
const Search = z.object({ node: searchParam.id() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "group");
  const data = await groupList(accessToken);
  const { node: asked } = parseSearch(Search, request);
  const selected = data.groupList.some((g) => g.seq === asked) ? asked! : data.rootSeq;
  return json({ ...data, selected });
}

interface GroupCtx {
  accessToken: string;
  form: FormData;
  t: ReturnType<typeof adminMessages>;
  /** The group the form is about. */
  seq: number;
}

const at = (s: number) => `/setting/group?node=${s}`;

async function rename({ accessToken, form, t, seq }: GroupCtx, intent: string) {
  const parsed = GroupUpdateFields.safeParse({ name: form.get("name") ?? "", sort_order: form.get("sort_order") ?? "" });
  if (!parsed.success) return formFailure(intent, fieldErrorsOf(parsed.error), formValues(form));
  await updateGroup(accessToken, seq, { name: parsed.data.name, sort_order: parsed.data.sort_order });
  return redirectWithFlash(at(seq), t.groups.saved);
}

async function move({ accessToken, form, t, seq }: GroupCtx, intent: string) {
  const parent = toInt(String(form.get("parent_seq") ?? ""));
  if (typeof parent !== "number") return formFailure(intent, { parent_seq: "required" }, formValues(form));
  await updateGroup(accessToken, seq, { parent_seq: parent });
  return redirectWithFlash(at(seq), t.groups.moved);
}

async function add({ accessToken, form, t }: GroupCtx, intent: string) {
  const parsed = GroupCreateFields.safeParse({ name: form.get("name") ?? "", parent_seq: form.get("parent_seq") ?? "" });
  if (!parsed.success) return formFailure(intent, fieldErrorsOf(parsed.error), formValues(form));
  const node = await createGroup(accessToken, parsed.data);
  return redirectWithFlash(at(node.seq), fmt(t.groups.created, { name: node.name }));
}

async function remove({ accessToken, form, t, seq }: GroupCtx, intent: string) {
  const confirm = String(form.get("confirm") ?? "");
  if (!isDeleteConfirmed(confirm)) return formFailure(intent, { confirm: "confirmation_required" }, formValues(form));
  const parent = String(form.get("parent_seq") ?? "");
  await deleteGroup(accessToken, seq, confirm);
  return redirectWithFlash(
    parent ? at(Number(parent)) : "/setting/group",
    fmt(t.groups.deleted, { name: String(form.get("name") ?? "") }),
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "group");
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = adminMessages(readPreferences(request).locale);
  return runIntent(
    form,
    { rename, move, add, delete: remove },
    { accessToken, form, t, seq: Number(form.get("seq")) },
    { fallback: "rename" },
  );
}

function TreeList({ nodes, selected }: { nodes: TreeNode<GroupRow>[]; selected: number }) {
  const t = useAdminT();
  return (
    <ul>
      {nodes.map(({ node, children }) => (
        <li key={node.seq}>
          <AppLink
            to={`?node=${node.seq}`}
            aria-current={node.seq === selected ? "page" : undefined}
            preventScrollReset
            className="tree-link"
          >
            <span className="tree-name">{node.name}</span>
            <span className="tree-counts">
              {fmt(t.groups.counts, { plants: node.plantCount, rtus: node.rtuCount, members: node.memberCount })}
            </span>
          </AppLink>
          {children.length ? <TreeList nodes={children} selected={selected} /> : null}
        </li>
      ))}
    </ul>
  );
}

export default function Groups() {
  const { selected } = useLoaderData<typeof loader>();
  const t = useAdminT();
  if (selected === null) {
    return (
      <div className="admin-page">
        <h1>{t.groups.title}</h1>
        <p className="panel">{t.groups.noGroup}</p>
      </div>
    );
  }
  return <GroupScreen selected={selected} />;
}

function GroupScreen({ selected }: { selected: number }) {
  const { groupList: groups, plantList, rtuList, rtusNotInPlant, rootSeq } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as FormFailure | undefined;
  const navigation = useNavigation();
  const t = useAdminT();
  const g = t.groups;
  const text = useErrorText();
  const busy = navigation.state === "submitting";
  const failed = (intent: string) =>
    actionData?.intent === intent && actionData.values.seq === String(selected) ? actionData.errors : undefined;

  const tree = buildTree(groups);
  const flat = flattenTree(tree);
  const node = groups.find((n) => n.seq === selected)!;
  const ladderLink = useAlarmT().ladder.link;
  const isTop = node.seq === rootSeq;
  const own = descendantsOf(groups, node.seq);
  const nameOf = new Map(groups.map((n) => [n.seq, n.name]));
  const plantsHere = plantList.filter((p) => p.node_seq === node.seq);
  const rtusHere = rtusNotInPlant.filter((r) => r.node_seq === node.seq);

  const rename = useClientValidation(failed("rename"), (el) => {
    const d = new FormData(el);
    return schemaErrors(GroupUpdateFields, { name: d.get("name") ?? "", sort_order: d.get("sort_order") ?? "" });
  });
  const move = useClientValidation(failed("move"), (el) => {
    const parent = Number(new FormData(el).get("parent_seq"));
    const problem = moveProblem(groups, node.seq, parent);
    return problem ? { parent_seq: problem } : {};
  });
  const add = useClientValidation(failed("add"), (el) => {
    const d = new FormData(el);
    return schemaErrors(GroupCreateFields, { name: d.get("name") ?? "", parent_seq: d.get("parent_seq") ?? "" });
  });
  const del = useClientValidation(failed("delete"), (el): Errors =>
    isDeleteConfirmed(new FormData(el).get("confirm")) ? {} : { confirm: "confirmation_required" },
  );
  const kept = (intent: string, name: string, fallback: string) =>
    actionData?.intent === intent && actionData.values.seq === String(selected)
      ? (actionData.values[name] ?? fallback)
      : fallback;
  const inUse = actionData?.intent === "delete" && actionData.values.seq === String(selected) ? actionData.details : undefined;

  return (
    <div className="admin-page">
      <h1>{g.title}</h1>
      <div className="group-layout">
        <nav className="panel group-tree" aria-labelledby="group-tree-title">
          <h2 id="group-tree-title">{g.tree}</h2>
          <TreeList nodes={tree} selected={selected} />
        </nav>

        <div className="stack group-detail">
          <section className="panel" aria-labelledby="group-selected-title">
            <p className="crumbs" aria-label={g.path}>
              {pathTo(groups, node.seq)
                .map((n) => n.name)
                .join(" › ")}
            </p>
            <h2 id="group-selected-title">{node.name}</h2>
            <p className="muted">{fmt(g.counts, { plants: node.plantCount, rtus: node.rtuCount, members: node.memberCount })}</p>
            <p>
              <AppLink to={`/setting/ladder?group=${node.seq}`}>{ladderLink}</AppLink>
            </p>
            <h3>{g.plants}</h3>
            {plantsHere.length ? (
              <ul className="plain-list">
                {plantsHere.map((p) => {
                  const rtus = rtuList.filter((r) => r.plant_uid === p.uid);
                  return (
                    <li key={p.uid}>
                      <strong>{p.name}</strong> <span className="muted">({p.uid})</span> ·{" "}
                      {fmt(g.plantRtus, { count: rtus.length })}
                      {rtus.length ? <span className="muted"> — {rtus.map((r) => r.alias || r.name).join(", ")}</span> : null}
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className="muted">{g.noPlants}</p>
            )}
            {rtusHere.length ? (
              <>
                <h3>{g.rtusHere}</h3>
                <ul className="plain-list">
                  {rtusHere.map((r) => (
                    <li key={r.uid}>
                      {r.alias || r.name} <span className="muted">{r.mac ? `(${r.mac})` : `(${r.uid})`}</span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>

          <section className="panel" aria-labelledby="group-rename-title">
            <h2 id="group-rename-title">{g.rename.title}</h2>
            <FormAlert message={rename.errors._form ? text(rename.errors._form) : null} />
            <Form
              method="post"
              noValidate
              onSubmit={rename.onSubmit}
              onInput={rename.onInput}
              key={`rename-${node.seq}`}
              aria-labelledby="group-rename-title"
            >
              <AuthenticityTokenInput />
              <input type="hidden" name="seq" value={node.seq} />
              <div className="field-row">
                <TextInput
                  form="rename"
                  name="name"
                  label={g.rename.name}
                  required
                  maxLength={50}
                  defaultValue={kept("rename", "name", node.name)}
                  error={text(rename.errors.name)}
                />
                <TextInput
                  form="rename"
                  name="sort_order"
                  label={g.rename.order}
                  inputMode="numeric"
                  maxLength={4}
                  defaultValue={kept("rename", "sort_order", String(node.sort_order))}
                  error={text(rename.errors.sort_order)}
                />
              </div>
              <button type="submit" name="intent" value="rename" disabled={busy}>
                {g.rename.submit}
              </button>
            </Form>
          </section>

          <section className="panel" aria-labelledby="group-move-title">
            <h2 id="group-move-title">{g.move.title}</h2>
            {isTop ? (
              <p className="muted">{g.move.rootHint}</p>
            ) : (
              <>
                <FormAlert message={move.errors._form ? text(move.errors._form) : null} />
                <Form
                  method="post"
                  noValidate
                  onSubmit={move.onSubmit}
                  onInput={move.onInput}
                  key={`move-${node.seq}`}
                  aria-labelledby="group-move-title"
                >
                  <AuthenticityTokenInput />
                  <input type="hidden" name="seq" value={node.seq} />
                  <SelectInput
                    form="move"
                    name="parent_seq"
                    label={g.move.parent}
                    defaultValue={kept("move", "parent_seq", String(node.parent_seq ?? ""))}
                    error={text(move.errors.parent_seq)}
                    options={flat.map(({ node: n, depth }) => ({
                      value: String(n.seq),
                      label: `${"\u00a0\u00a0".repeat(depth)}${n.name}`,
                      // A group cannot hang under itself or its own subgroups (the API refuses it too).
                      disabled: own.has(n.seq),
                    }))}
                  />
                  <button type="submit" name="intent" value="move" disabled={busy}>
                    {g.move.submit}
                  </button>
                </Form>
              </>
            )}
          </section>

          <section className="panel" aria-labelledby="group-add-title">
            <h2 id="group-add-title">{g.add.title}</h2>
            <FormAlert message={add.errors._form ? text(add.errors._form) : null} />
            <Form
              method="post"
              noValidate
              onSubmit={add.onSubmit}
              onInput={add.onInput}
              key={`add-${node.seq}`}
              aria-labelledby="group-add-title"
            >
              <AuthenticityTokenInput />
              <input type="hidden" name="seq" value={node.seq} />
              <input type="hidden" name="parent_seq" value={node.seq} />
              <TextInput
                form="add"
                name="name"
                label={g.add.name}
                required
                maxLength={50}
                defaultValue={kept("add", "name", "")}
                error={text(add.errors.name)}
              />
              <button type="submit" name="intent" value="add" disabled={busy}>
                {g.add.submit}
              </button>
            </Form>
          </section>

          <section className="panel danger-zone" aria-labelledby="group-delete-title">
            <h2 id="group-delete-title">{g.remove.title}</h2>
            {isTop ? (
              <p className="muted">{g.remove.rootHint}</p>
            ) : (
              <>
                <p>{g.remove.hint}</p>
                {inUse ? (
                  <div className="alert error" role="alert">
                    <p>{g.remove.inUse}</p>
                    <dl className="facts">
                      {(["children", "plants", "rtus", "members"] as const).map((k) =>
                        inUse[k]?.length ? (
                          <div key={k} className="fact-row">
                            <dt>{g.remove[k]}</dt>
                            <dd>{inUse[k].join(", ")}</dd>
                          </div>
                        ) : null,
                      )}
                    </dl>
                  </div>
                ) : (
                  <FormAlert message={del.errors._form ? text(del.errors._form) : null} />
                )}
                <Form
                  method="post"
                  noValidate
                  onSubmit={del.onSubmit}
                  onInput={del.onInput}
                  key={`delete-${node.seq}`}
                  aria-labelledby="group-delete-title"
                >
                  <AuthenticityTokenInput />
                  <input type="hidden" name="seq" value={node.seq} />
                  <input type="hidden" name="name" value={node.name} />
                  <input type="hidden" name="parent_seq" value={node.parent_seq ?? ""} />
                  <ConfirmDelete form="group-delete" error={text(del.errors.confirm)} />
                  <button type="submit" name="intent" value="delete" className="danger" disabled={busy}>
                    {g.remove.submit}
                  </button>
                </Form>
              </>
            )}
          </section>
        </div>
      </div>

      <section className="panel wide" aria-labelledby="rtus-free-title">
        <h2 id="rtus-free-title">{g.rtusNotInPlant}</h2>
        {rtusNotInPlant.length ? (
          <div {...scrollRegion(g.rtusNotInPlant)}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">RTU</th>
                  <th scope="col">MAC</th>
                  <th scope="col">{g.rtuNode}</th>
                </tr>
              </thead>
              <tbody>
                {rtusNotInPlant.map((r) => (
                  <tr key={r.uid}>
                    <th scope="row">
                      <AppLink to={`/setting/rtu/${encodeURIComponent(r.uid)}`}>{r.alias || r.name}</AppLink>
                    </th>
                    <td>{r.mac ?? "—"}</td>
                    <td>
                      {r.node_seq !== null && nameOf.has(r.node_seq) ? (
                        <AppLink to={`?node=${r.node_seq}`} preventScrollReset>
                          {nameOf.get(r.node_seq)}
                        </AppLink>
                      ) : (
                        g.unassigned
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">{g.noRtusNotInPlant}</p>
        )}
      </section>
    </div>
  );
}
