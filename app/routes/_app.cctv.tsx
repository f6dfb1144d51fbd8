/**
 * Cameras `/cctv?camera=<uid>` (SPEC §2, §7 GET /cctv/url): the member's cameras by plant, one of them shown.
 * Without script the camera is a still snapshot (kiosks); with script a live HLS video (hls.js or native).
 * The stream's resolution is shown against MOTIE's 2 MP rule. Administrators of a plant register and delete
 * its cameras here with plain forms; the credentials go to the API and never come back.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { canAdminister } from "../../domain/admin-levels";
import { megapixels, meetsMotie } from "../../domain/cctv";
import { CameraCreate, type CameraItem, type CameraState, type CctvUrlResponse } from "../../domain/contract/cctv";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { FormAlert } from "~/components/AdminForm";
import { CameraPlayer } from "~/components/cctv/CameraPlayer";
import { fmt } from "~/i18n";
import { cctvMessages, useCctvT } from "~/i18n/cctv";
import { ApiFailure } from "~/models/api.server";
import { addCamera, cameraList, cameraUrl, removeCamera } from "~/models/cctv.server";
import { plantList } from "~/models/fleet.server";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import {
  apiFailure,
  formFailure,
  formValues,
  orNotFound,
  parseForm,
  parseSearch,
  runIntent,
  type FormFailure,
} from "~/utils/form-action.server";
import { readPreferences } from "~/utils/preferences.server";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";

export const meta: MetaFunction = ({ matches }) => {
  const t = cctvMessages(metaLocale(matches));
  return [{ title: `${t.cctv.title} · ${t.appName}` }];
};

const Search = z.object({ camera: z.string().trim().max(40, "too_long").optional() });

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "cctv");
  const { camera: wanted } = parseSearch(Search, request);
  const admin = !user.readOnly && canAdminister("plant", user.auth);
  const [{ cameraList: cameras }, plants] = await Promise.all([
    cameraList(accessToken),
    admin ? plantList(accessToken).then((r) => r.plantList.map((p) => ({ uid: p.uid, name: p.name }))) : Promise.resolve([]),
  ]);
  const uid = wanted || cameras[0]?.uid;
  let stream: CctvUrlResponse | null = null;
  if (uid) stream = await orNotFound(cameraUrl(accessToken, uid));
  const selected = uid ? (cameras.find((c) => c.uid === uid) ?? null) : null;
  return json({ cameras, selected, stream, admin, plants }, { headers: { "Cache-Control": "no-store" } });
}

interface CctvCtx {
  token: string;
  form: FormData;
  t: ReturnType<typeof cctvMessages>;
}

async function add({ token, form, t }: CctvCtx) {
  const values = formValues(form);
  delete values.password;
  const parsed = parseForm(CameraCreate, "add", form);
  if (!parsed.ok) return parsed.response;
  const d = parsed.data;
  try {
    const saved = await addCamera(token, { ...d, username: d.username || undefined, password: d.password || undefined });
    return redirectWithFlash(`/cctv?${new URLSearchParams({ camera: saved.uid })}`, t.cctv.admin.added);
  } catch (error) {
    return apiFailure("add", error, values);
  }
}

async function remove({ token, form, t }: CctvCtx) {
  const uid = String(form.get("uid") ?? "").trim();
  if (!uid) return formFailure("remove", { _form: "camera_not_found" });
  try {
    await removeCamera(token, uid);
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return formFailure("remove", { _form: "camera_not_found" }, {}, 404);
    return apiFailure("remove", error);
  }
  return redirectWithFlash("/cctv", t.cctv.admin.removed);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "cctv");
  const t = cctvMessages(readPreferences(request).locale);
  const form = await request.formData();
  await assertCsrf(form, request);
  return runIntent(form, { add, remove }, { token: accessToken, form, t }, { fallback: "add" });
}

function StateLine({ state, error }: { state: CameraState; error?: string | null }) {
  const t = useCctvT();
  return (
    <span className={`cctv-state cctv-state-${state}`}>
      <span aria-hidden="true">{t.cctv.stateMarks[state]} </span>
      {t.cctv.states[state]}
      {error && state === "unreachable" ? <span className="muted small"> — {fmt(t.cctv.reason, { reason: error })}</span> : null}
    </span>
  );
}

function Resolution({ width, height }: { width: number | null; height: number | null }) {
  const t = useCctvT();
  const mp = megapixels(width, height);
  if (mp === null || !width || !height) return <span className="muted">{t.cctv.resolutionUnknown}</span>;
  const ok = meetsMotie(width, height);
  return (
    <span className="cctv-resolution">
      {fmt(t.cctv.resolution, { w: width, h: height, mp: mp.toFixed(1) })}{" "}
      <span className={ok ? "cctv-motie-ok" : "cctv-motie-low"}>
        <span aria-hidden="true">{ok ? "✓ " : "△ "}</span>
        {ok ? t.cctv.motieOk : t.cctv.motieLow}
      </span>
    </span>
  );
}

function CameraPicker({ cameras, current }: { cameras: CameraItem[]; current: string | undefined }) {
  const t = useCctvT();
  const byPlant = new Map<string, CameraItem[]>();
  for (const c of cameras) byPlant.set(c.plant_name, [...(byPlant.get(c.plant_name) ?? []), c]);
  return (
    <Form method="get" action="/cctv" className="inline-form cctv-picker">
      <label htmlFor="cctv-camera">{t.cctv.choose}</label>
      <select
        id="cctv-camera"
        name="camera"
        defaultValue={current}
        key={current}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        {[...byPlant].map(([plant, list]) => (
          <optgroup key={plant} label={plant}>
            {list.map((c) => (
              <option key={c.uid} value={c.uid}>
                {c.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <button type="submit">{t.cctv.show}</button>
    </Form>
  );
}

export default function CctvScreen() {
  const { cameras, selected, stream, admin, plants } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as FormFailure | undefined;
  const t = useCctvT();
  const err = (k: string | undefined) => (k ? ((t.cctv.errors as Record<string, string>)[k] ?? k) : undefined);
  const failed = actionData?.intent === "add" ? actionData.errors : {};
  const values = actionData?.intent === "add" ? actionData.values : {};

  return (
    <div className="cctv-page">
      <div className="page-head">
        <h1>{t.cctv.title}</h1>
      </div>
      {!cameras.length ? <p className="panel">{admin ? t.cctv.noCamerasAdmin : t.cctv.noCameras}</p> : null}
      {selected && stream ? (
        <>
          <CameraPicker cameras={cameras} current={selected.uid} />
          <section className="panel wide cctv-panel" aria-labelledby="cctv-name">
            <h2 id="cctv-name">
              {selected.name} <span className="muted small">· {selected.plant_name}</span>
            </h2>
            {/* The camera's state is the player's one status line (the server's word without script). */}
            <p className="small">
              <Resolution width={stream.width} height={stream.height} />
            </p>
            <CameraPlayer key={selected.uid} camera={{ uid: selected.uid, name: selected.name }} stream={stream} />
            <p className="small">
              <AppLink to={`/cctv?${new URLSearchParams({ camera: selected.uid })}`}>{t.cctv.refresh}</AppLink>
            </p>
          </section>
        </>
      ) : null}
      {cameras.length ? (
        <section className="panel wide" aria-labelledby="cctv-list">
          <h2 id="cctv-list">{t.cctv.list}</h2>
          <FormAlert message={actionData?.intent === "remove" ? err(actionData.errors._form) : null} />
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.cctv.table.plant}</th>
                  <th scope="col">{t.cctv.table.camera}</th>
                  <th scope="col">{t.cctv.table.state}</th>
                  <th scope="col">{t.cctv.table.resolution}</th>
                  {admin ? <th scope="col">{t.cctv.table.address}</th> : null}
                  {admin ? <th scope="col">{t.cctv.table.credentials}</th> : null}
                  {admin ? <th scope="col">{t.cctv.table.actions}</th> : null}
                </tr>
              </thead>
              <tbody>
                {cameras.map((c) => (
                  <tr key={c.uid} aria-current={c.uid === selected?.uid ? "true" : undefined}>
                    <td>{c.plant_name}</td>
                    <th scope="row">
                      <AppLink to={`/cctv?${new URLSearchParams({ camera: c.uid })}`}>{c.name}</AppLink>
                    </th>
                    <td>
                      {/* The camera shown above has one state line, the player's; the list does not say another. */}
                      {c.uid === selected?.uid ? (
                        <span className="cctv-state">
                          <span aria-hidden="true">▲ </span>
                          {t.cctv.shownAbove}
                        </span>
                      ) : (
                        <StateLine state={c.state} />
                      )}
                    </td>
                    <td>
                      <Resolution width={c.width} height={c.height} />
                    </td>
                    {admin ? (
                      <td className="cctv-url">
                        <code>{c.url}</code>
                      </td>
                    ) : null}
                    {admin ? <td>{c.has_credentials ? t.cctv.credentials.yes : t.cctv.credentials.no}</td> : null}
                    {admin ? (
                      <td>
                        {c.editable ? (
                          <Form method="post">
                            <AuthenticityTokenInput />
                            <input type="hidden" name="uid" value={c.uid} />
                            <button
                              type="submit"
                              name="intent"
                              value="remove"
                              className="secondary"
                              aria-label={fmt(t.cctv.admin.removeLabel, { name: c.name })}
                            >
                              {t.cctv.admin.remove}
                            </button>
                          </Form>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {admin && plants.length ? (
        <section className="panel wide" aria-labelledby="cctv-add">
          <h2 id="cctv-add">{t.cctv.admin.title}</h2>
          <p className="small" id="cctv-add-hint">
            {t.cctv.admin.hint}
          </p>
          <FormAlert message={err(failed._form)} />
          <Form method="post" className="cctv-add-form" aria-describedby="cctv-add-hint">
            <AuthenticityTokenInput />
            <div className="field">
              <label htmlFor="cam-plant">{t.cctv.admin.plant}</label>
              <select
                id="cam-plant"
                name="plantUid"
                defaultValue={values.plantUid ?? selected?.plant_uid ?? plants[0]?.uid}
                aria-invalid={failed.plantUid ? true : undefined}
              >
                {plants.map((p) => (
                  <option key={p.uid} value={p.uid}>
                    {p.name}
                  </option>
                ))}
              </select>
              {failed.plantUid ? <span className="error">{err(failed.plantUid)}</span> : null}
            </div>
            <Field name="name" label={t.cctv.admin.name} value={values.name} error={err(failed.name)} required maxLength={60} />
            <Field
              name="url"
              label={t.cctv.admin.url}
              value={values.url}
              error={err(failed.url)}
              required
              maxLength={500}
              placeholder="rtsp://192.168.0.64:554/Streaming/Channels/101"
            />
            <Field
              name="username"
              label={t.cctv.admin.username}
              value={values.username}
              error={err(failed.username)}
              maxLength={100}
              autoComplete="off"
            />
            <Field
              name="password"
              label={t.cctv.admin.password}
              error={err(failed.password)}
              type="password"
              maxLength={200}
              autoComplete="new-password"
            />
            <div className="form-actions">
              <button type="submit" name="intent" value="add">
                {t.cctv.admin.submit}
              </button>
            </div>
          </Form>
        </section>
      ) : null}
    </div>
  );
}

function Field(props: {
  name: string;
  label: string;
  value?: string;
  error?: string;
  required?: boolean;
  maxLength?: number;
  type?: string;
  placeholder?: string;
  autoComplete?: string;
}) {
  const id = `cam-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        defaultValue={props.value}
        required={props.required}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      {props.error ? (
        <span className="error" id={`${id}-error`}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}
