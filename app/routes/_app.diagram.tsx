/**
 * Diagrams `/diagram?plant=<uid>` (SPEC §2, §7 GET /diagram, /node/diagrams): the single-line diagram of a
 * plant drawn on the server from its devices (d3-hierarchy layout, plain SVG), each element with its live
 * values and state in words and shapes and a link to its measurements; or the drawing an administrator
 * uploaded, its elements bound to devices. The plant lives in the URL; the choice is a GET form, so it all
 * works without JS. With JS the diagram refreshes every minute.
 */
import {
  json,
  unstable_parseMultipartFormData,
  unstable_createMemoryUploadHandler,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useEffect, useRef } from "react";
import { z } from "zod";
import { canAdminister } from "../../domain/admin-levels";
import { SVG_MAX_BYTES, type DiagramBinding } from "../../domain/contract/diagram";
import { DIAGRAM_REFRESH_MS } from "../../domain/diagram";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { layoutDiagram } from "~/components/diagram/layout.server";
import { SingleLine } from "~/components/diagram/SingleLine";
import { deviceLabel, renderUploaded } from "~/components/diagram/uploaded.server";
import {
  CONDITION_MARK,
  conditionText,
  deviceType,
  elementName,
  measurementHref,
  typeLabel,
  valuesText,
} from "~/components/diagram/words";
import { FormAlert as FormError } from "~/components/AdminForm";
import { seoulYmdHm } from "~/components/status/format";
import { usePolling } from "~/components/status/usePolling";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { useWorkspaceT, workspaceMessages } from "~/i18n/workspace";
import { ApiFailure } from "~/models/api.server";
import { diagramList, plantDiagram, removeDiagram, uploadDiagram } from "~/models/diagram.server";
import { readPreferences } from "~/utils/preferences.server";
import { apiFailure, formFailure, orNotFound, parseSearch, type FormFailure } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";

export const meta: MetaFunction = ({ matches }) => {
  const t = workspaceMessages(metaLocale(matches));
  return [{ title: `${t.diagram.title} · ${t.appName}` }];
};

const Search = z.object({ plant: z.string().trim().max(64, "too_long").optional() });

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "diagram");
  const { plant: wanted } = parseSearch(Search, request);
  const t = workspaceMessages(readPreferences(request).locale);
  const { diagramList: list } = await diagramList(accessToken);
  const plantUid = wanted || list[0]?.plant_uid;
  if (!plantUid) return json({ list, diagram: null, layout: null, uploaded: null, labels: {}, at: Date.now() });
  const d = await orNotFound(plantDiagram(accessToken, plantUid));
  const { root, ...diagram } = d;
  const layout = layoutDiagram(root);
  const uploaded = d.kind === "svg" ? renderUploaded(d, t) : null;
  const labels = Object.fromEntries(d.devices.map((x) => [x.device_uid, deviceLabel(t, x)]));
  return json({
    list,
    diagram: { ...diagram, editable: diagram.editable && canAdminister("plant", user.auth) },
    layout,
    uploaded,
    labels,
    at: d.now,
  });
}

type Intent = "upload" | "remove";

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "diagram");
  const t = workspaceMessages(readPreferences(request).locale);
  const form = await unstable_parseMultipartFormData(
    request,
    unstable_createMemoryUploadHandler({ maxPartSize: SVG_MAX_BYTES + 1024 }),
  ).catch(() => null);
  if (!form) return formFailure("upload", { svg: "too_large" });
  await assertCsrf(form, request);
  const intent = String(form.get("intent") ?? "") as Intent;
  const plant = String(form.get("plant") ?? "").trim();
  if (!plant) return formFailure(intent || "upload", { _form: "required" });
  const back = `/diagram?${new URLSearchParams({ plant })}`;
  if (intent === "remove") {
    try {
      await removeDiagram(accessToken, plant);
    } catch (error) {
      return apiFailure(intent, error);
    }
    return redirectWithFlash(back, t.diagram.upload.deleted);
  }
  // Bindings: one text field per device, `bind.<device uid>` = the element's id.
  const bindings: DiagramBinding[] = [];
  const values: Record<string, string> = {};
  for (const [k, v] of form.entries()) {
    if (!k.startsWith("bind.") || typeof v !== "string") continue;
    values[k] = v;
    if (v.trim()) bindings.push({ element: v.trim(), device_uid: k.slice(5) });
  }
  const file = form.get("svg");
  let svg = file && typeof file !== "string" && file.size > 0 ? await file.text() : "";
  if (!svg) {
    // No new file: keep the stored drawing and change only the bindings.
    const current = await orNotFound(plantDiagram(accessToken, plant));
    if (!current.svg) return formFailure("upload", { svg: "svg_required" }, values);
    svg = current.svg;
  }
  try {
    const res = await uploadDiagram(accessToken, plant, { svg, bindings });
    return redirectWithFlash(
      back,
      res.removed.length ? fmt(t.diagram.upload.savedRemoved, { list: res.removed.join(", ") }) : t.diagram.upload.saved,
    );
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 400) {
      // bindings.N.element / bindings.N.device_uid → the device's field.
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries(error.body.fields ?? {})) {
        const m = /^bindings\.(\d+)\./.exec(k);
        fields[m ? `bind.${bindings[Number(m[1])]?.device_uid}` : k] = v;
      }
      return formFailure("upload", Object.keys(fields).length ? fields : { _form: error.body.message }, values);
    }
    return apiFailure("upload", error, values);
  }
}

function PlantPicker({
  list,
  current,
}: {
  list: Array<{ plant_uid: string; name: string; kind: string }>;
  current: string | undefined;
}) {
  const t = useWorkspaceT();
  return (
    <Form method="get" action="/diagram" className="inline-form diagram-picker">
      <label htmlFor="diagram-plant">{t.diagram.choose}</label>
      <select
        id="diagram-plant"
        name="plant"
        defaultValue={current}
        key={current}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        {list.map((p) => (
          <option key={p.plant_uid} value={p.plant_uid}>
            {p.name}
          </option>
        ))}
      </select>
      <button type="submit">{t.diagram.show}</button>
    </Form>
  );
}

/** With JS, a click on a bound shape of an uploaded drawing opens its measurements (bound groups are links already). */
function useBoundClicks(ref: React.RefObject<HTMLDivElement>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onClick = (ev: MouseEvent) => {
      const target = (ev.target as Element).closest("[data-href]");
      if (target && target.tagName.toLowerCase() !== "a") window.location.assign(target.getAttribute("data-href")!);
    };
    el.addEventListener("click", onClick);
    return () => el.removeEventListener("click", onClick);
  }, [ref]);
}

export default function DiagramScreen() {
  const { list, diagram, layout, uploaded, labels, at } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as FormFailure | undefined;
  const t = useWorkspaceT();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const drawing = useRef<HTMLDivElement>(null);
  useBoundClicks(drawing);
  usePolling(() => {
    if (revalidator.state === "idle" && navigation.state === "idle") revalidator.revalidate();
  }, DIAGRAM_REFRESH_MS);
  const err = (k: string | undefined) => (k ? ((t.diagram.errors as Record<string, string>)[k] ?? k) : undefined);
  const failed = actionData?.errors ?? {};
  const elements = layout ? layout.elements : [];

  return (
    <div className="diagram-page">
      <div className="page-head">
        <h1>{t.diagram.title}</h1>
        <p className="muted small" aria-live="polite">
          {fmt(t.diagram.asOf, { time: seoulYmdHm(at) })}
        </p>
      </div>
      {!diagram || !layout ? (
        <p className="panel">{t.diagram.noPlants}</p>
      ) : (
        <>
          <PlantPicker list={list} current={diagram.plant.plant_uid} />
          <section className="panel wide diagram-panel" aria-labelledby="diagram-name">
            <h2 id="diagram-name">{diagram.plant.name}</h2>
            <p className="muted small">
              {diagram.kind === "svg" && diagram.uploaded_at
                ? fmt(t.diagram.uploaded, { time: seoulYmdHm(diagram.uploaded_at), who: diagram.uploaded_by ?? "" })
                : t.diagram.auto}
            </p>
            <p className="small diagram-legend">
              <span className="visually-hidden">{t.diagram.legendTitle}: </span>
              {t.diagram.legend}
            </p>
            {diagram.kind === "svg" && uploaded ? (
              <>
                <div className="diagram-scroll uploaded-drawing" ref={drawing} dangerouslySetInnerHTML={{ __html: uploaded }} />
                <h3>{t.diagram.bound}</h3>
                {diagram.bindings.length ? (
                  <>
                    <p className="muted small">{t.diagram.boundHint}</p>
                    <ul className="bound-list">
                      {diagram.bindings.map((b) => {
                        const d = diagram.devices.find((x) => x.device_uid === b.device_uid)!;
                        return (
                          <li key={b.element} className={`sl-cond-${d.condition}`}>
                            <span aria-hidden="true">{CONDITION_MARK[d.condition]} </span>
                            <code>{b.element}</code> →{" "}
                            <AppLink to={measurementHref(diagram.plant.plant_uid, d.device_uid)}>{labels[d.device_uid]}</AppLink>
                          </li>
                        );
                      })}
                    </ul>
                  </>
                ) : (
                  <p>{t.diagram.boundEmpty}</p>
                )}
              </>
            ) : (
              <div className="diagram-scroll">
                <SingleLine
                  layout={layout}
                  plantUid={diagram.plant.plant_uid}
                  title={fmt(t.diagram.figure, { name: diagram.plant.name })}
                />
              </div>
            )}
            <details className="diagram-table">
              <summary>{t.diagram.tableView}</summary>
              <div className="table-scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t.diagram.table.element}</th>
                      <th scope="col">{t.diagram.table.kind}</th>
                      <th scope="col">{t.diagram.table.values}</th>
                      <th scope="col">{t.diagram.table.state}</th>
                      <th scope="col">{t.diagram.table.time}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {elements.map((e) => (
                      <tr key={e.id} className={`sl-cond-${e.condition}`}>
                        <th scope="row" style={{ paddingInlineStart: `${0.5 + e.depth * 0.75}rem` }}>
                          {e.device_uid && e.type !== "string" ? (
                            <AppLink to={measurementHref(diagram.plant.plant_uid, e.device_uid)}>{elementName(t, e)}</AppLink>
                          ) : (
                            elementName(t, e)
                          )}
                        </th>
                        <td>{typeLabel(t, e)}</td>
                        <td>{valuesText(t, e.type, e.values) || "–"}</td>
                        <td>
                          {e.condition === "none" ? (
                            "–"
                          ) : (
                            <>
                              <span aria-hidden="true">{CONDITION_MARK[e.condition]} </span>
                              {conditionText(t, e.condition, e.alarm)}
                            </>
                          )}
                        </td>
                        <td>{e.ts ? seoulYmdHm(e.ts) : "–"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
            {diagram.sensors.length ? (
              <>
                <h3>{t.diagram.sensors}</h3>
                <ul className="sensor-list">
                  {diagram.sensors.map((s) => (
                    <li key={s.device_uid}>
                      <strong>{s.name}</strong> {s.iis != null ? `${t.diagram.sensor.iis} ${s.iis.toFixed(0)} W/m² · ` : ""}
                      {s.his != null ? `${t.diagram.sensor.his} ${s.his.toFixed(0)} W/m² · ` : ""}
                      {s.sts != null ? `${t.diagram.sensor.sts} ${s.sts.toFixed(1)} °C · ` : ""}
                      {s.ats != null ? `${t.diagram.sensor.ats} ${s.ats.toFixed(1)} °C` : ""}{" "}
                      <span className="muted">
                        ({CONDITION_MARK[s.condition]} {conditionText(t, s.condition, null)})
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
          {diagram.editable ? (
            <section className="panel wide" aria-labelledby="diagram-upload">
              <h2 id="diagram-upload">{t.diagram.upload.title}</h2>
              <p className="small">{t.diagram.upload.hint}</p>
              <FormError message={actionData?.intent === "upload" ? err(failed._form) : null} />
              <Form method="post" encType="multipart/form-data" className="diagram-upload-form">
                <AuthenticityTokenInput />
                <input type="hidden" name="plant" value={diagram.plant.plant_uid} />
                <div className="field">
                  <label htmlFor="f-svg">{t.diagram.upload.file}</label>
                  <input
                    id="f-svg"
                    name="svg"
                    type="file"
                    accept=".svg,image/svg+xml"
                    aria-invalid={failed.svg ? true : undefined}
                    aria-describedby="f-svg-hint"
                  />
                  <span className="hint" id="f-svg-hint">
                    {diagram.svg ? t.diagram.upload.keep : null}
                  </span>
                  {failed.svg ? <span className="error">{err(failed.svg)}</span> : null}
                </div>
                <fieldset>
                  <legend>{t.diagram.upload.bindings}</legend>
                  {diagram.devices.map((d) => {
                    const name = `bind.${d.device_uid}`;
                    const current = diagram.bindings.find((b) => b.device_uid === d.device_uid)?.element ?? "";
                    return (
                      <div className="field inline" key={d.device_uid}>
                        <label htmlFor={`f-${name}`}>
                          {typeLabel(t, { type: deviceType(d.kind) })} {d.name} — {t.diagram.element}
                        </label>
                        <input
                          id={`f-${name}`}
                          name={name}
                          defaultValue={actionData?.intent === "upload" ? (actionData.values[name] ?? current) : current}
                          aria-invalid={failed[name] ? true : undefined}
                        />
                        {failed[name] ? <span className="error">{err(failed[name])}</span> : null}
                      </div>
                    );
                  })}
                </fieldset>
                <div className="form-actions">
                  <button type="submit" name="intent" value="upload">
                    {t.diagram.upload.submit}
                  </button>
                </div>
              </Form>
              {diagram.kind === "svg" ? (
                <Form method="post" encType="multipart/form-data">
                  <AuthenticityTokenInput />
                  <input type="hidden" name="plant" value={diagram.plant.plant_uid} />
                  <button type="submit" name="intent" value="remove" className="secondary">
                    {t.diagram.upload.remove}
                  </button>
                </Form>
              ) : null}
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
