/**
 * /control — remote operation (SPEC §3 Command, §6 control 6, deviceOperation 4, breakStatus 5; §7 /pvstatus/control,
 * /command/hex; §9 refresh every 660 000 ms). What the member may operate, per plant: inverters (on/off) and breakers
 * VCB/ACB (close/trip), each with its current state and last command. A command takes two steps, both plain HTML:
 * choosing is a link (`?plant=&device=&do=on|off`) that opens the confirmation; confirming is a post (CSRF) — a
 * breaker trip needs the device name typed. Each confirmation carries a one-time token (the API's Idempotency-Key):
 * posting it again runs nothing and says when the command was already sent. The outcome (acknowledged by the gateway / failed / timed out /
 * undeliverable) comes back as a flash and in the command log (GET /api/command), which also refreshes.
 */
import { randomUUID } from "node:crypto";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { REFRESH_INTERVAL_MS } from "../../domain/chart";
import { COMMAND_HEX, type CommandRow, type ControlDevice } from "../../domain/contract/alarm";
import { formatSeoul } from "../../domain/seoul-clock";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { SeoulTime, seoulYmdHm } from "~/components/status/format";
import { usePolling } from "~/components/status/usePolling";
import { fmt } from "~/i18n";
import { alarmMessages, useAlarmT, type AlarmCatalogue } from "~/i18n/alarm";
import { commandList, controlList, sendCommand } from "~/models/control.server";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { apiFailure, formFailure, formValues, parseForm, parseSearch } from "~/utils/form-action.server";
import { readPreferences } from "~/utils/preferences.server";
import styles from "~/styles/alarm.css";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = alarmMessages(metaLocale(matches));
  return [{ title: `${t.control.title} · ${t.appName}` }];
};

const Search = z.object({
  plant: z.string().trim().max(64).optional(),
  device: z.string().trim().max(64).optional(),
  do: z.enum(["on", "off"]).optional(),
});

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "control");
  const q = parseSearch(Search, request);
  const plant = q.plant || undefined;
  // One call for the whole list (the plant picker needs every plant); the chosen plant narrows what is shown.
  const [all, commands] = await Promise.all([
    controlList(accessToken),
    commandList(accessToken, { plant, limit: 30 }).catch(() => [] as CommandRow[]),
  ]);
  const known = !!plant && all.plants.some((p) => p.plant_uid === plant);
  const data = { plants: known ? all.plants.filter((p) => p.plant_uid === plant) : all.plants };
  const plantOptions = all.plants.map((p) => ({ uid: p.plant_uid, name: p.name }));
  let confirm: { device: ControlDevice; plantName: string; action: "on" | "off"; once: string } | null = null;
  if (q.device && q.do) {
    for (const p of data.plants) {
      const d = p.devices.find((x) => x.uid === q.device);
      // A fresh one-time token per confirmation shown: the command it sends is recorded once.
      if (d && d.operable) confirm = { device: d, plantName: p.name, action: q.do, once: randomUUID() };
    }
  }
  return json({
    plant: known ? plant! : "",
    plants: data.plants,
    plantOptions,
    commands,
    confirm,
    at: Date.now(),
    readOnly: user.readOnly === 1,
  });
}

const CommandForm = z.object({
  plant: z.string().trim().max(64).optional().default(""),
  deviceUid: z.string().trim().min(1, "required").max(64),
  action: z.enum(["on", "off"]),
  confirmName: z.string().trim().max(100).optional().default(""),
  once: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{16,64}$/, "invalid"),
});

const isBreaker = (kind: number) => kind === 7 || kind === 8;

/** Step two: the confirmed command. The device is looked up again (kind, RTU, may this member operate it). */
async function commandAction(request: Request, token: string, form: FormData, t: AlarmCatalogue) {
  const parsed = parseForm(CommandForm, "command", form);
  if (!parsed.ok) return parsed.response;
  const { deviceUid, action, confirmName, plant, once } = parsed.data;
  const values = formValues(form);
  let device: ControlDevice | undefined;
  try {
    const list = await controlList(token);
    device = list.plants.flatMap((p) => p.devices).find((d) => d.uid === deviceUid);
  } catch (error) {
    return apiFailure("command", error, values);
  }
  if (!device) return formFailure("command", { _form: "device_not_found" }, values, 404);
  if (!device.operable) return formFailure("command", { _form: "forbidden" }, values, 403);
  if (isBreaker(device.kind) && action === "off" && confirmName !== device.name) {
    return formFailure("command", { confirmName: "name_mismatch" }, values);
  }
  let outcome;
  try {
    outcome = await sendCommand(
      token,
      {
        deviceType: device.kind,
        rtuUid: device.rtu_uid,
        deviceUid: device.uid,
        ch: 0,
        hexOn: action === "on" ? COMMAND_HEX.on : null,
        hexOff: action === "off" ? COMMAND_HEX.off : null,
      },
      once,
    );
  } catch (error) {
    return apiFailure("command", error, values);
  }
  const back = plant ? `/control?plant=${encodeURIComponent(plant)}` : "/control";
  const status = t.control.outcome[outcome.status];
  const said = outcome.replayed
    ? fmt(t.control.alreadySent, {
        time: formatSeoul(outcome.requested_at, "YYYY-MM-DD HH:mm:ss").slice(11),
        seq: outcome.seq,
        status,
      })
    : fmt(t.control.sent, { seq: outcome.seq, status });
  return redirectWithFlash(back, `${device.name}: ${said}${outcome.message ? ` (${outcome.message})` : ""}`);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "control");
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = alarmMessages(readPreferences(request).locale);
  if (form.get("intent") === "command") return commandAction(request, accessToken, form, t);
  return formFailure("unknown", { _form: "invalid_input" });
}

function actionWord(t: AlarmCatalogue, kind: number, action: "on" | "off") {
  return isBreaker(kind)
    ? action === "on"
      ? t.control.actions.close
      : t.control.actions.trip
    : action === "on"
      ? t.control.actions.on
      : t.control.actions.off;
}

function DeviceState({ t, d }: { t: AlarmCatalogue; d: ControlDevice }) {
  if (d.state === null) {
    return (
      <span className="control-state">
        <span aria-hidden="true">?</span> {isBreaker(d.kind) ? t.control.state.hidden : t.control.state.unknown}
      </span>
    );
  }
  const on = d.state === 1;
  const word = isBreaker(d.kind)
    ? on
      ? t.control.state.closed
      : t.control.state.open
    : on
      ? t.control.state.on
      : t.control.state.off;
  return (
    <span className={`control-state ${on ? "on" : "off"}`}>
      <span aria-hidden="true">{on ? "●" : "○"}</span> {word}
    </span>
  );
}

function Outcome({ t, status }: { t: AlarmCatalogue; status: CommandRow["status"] }) {
  const mark = status === "done" ? "✔" : status === "pending" ? "…" : "✖";
  return (
    <span className={`outcome-${status}`}>
      <span aria-hidden="true">{mark}</span> {t.control.outcome[status]}
    </span>
  );
}

export default function ControlScreen() {
  const data = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const t = useAlarmT();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  usePolling(() => revalidator.state === "idle" && revalidator.revalidate(), REFRESH_INTERVAL_MS.control);
  const kindWord = (kind: number) => t.control.kinds[`k${kind}` as "k1"] ?? String(kind);
  const errors = failure && "errors" in failure ? failure.errors : {};
  const errorText = (code: string | undefined) =>
    code ? ((t.control.errors as Record<string, string>)[code] ?? code) : undefined;
  const chooseHref = (d: ControlDevice, action: "on" | "off") => {
    const u = new URLSearchParams();
    if (data.plant) u.set("plant", data.plant);
    u.set("device", d.uid);
    u.set("do", action);
    return `/control?${u}#confirm`;
  };
  const cancelHref = data.plant ? `/control?plant=${encodeURIComponent(data.plant)}` : "/control";
  const c = data.confirm;
  const confirmAction = c ? chooseHref(c.device, c.action).replace("#confirm", "") : "/control";
  const trip = c ? isBreaker(c.device.kind) && c.action === "off" : false;
  return (
    <div className="analysis-screen control-screen">
      <h1>{t.control.title}</h1>
      <div className="alarm-list-head">
        <Form method="get" className="inline-form" aria-label={t.control.plant}>
          <div className="field">
            <label htmlFor="c-plant">{t.control.plant}</label>
            <select id="c-plant" name="plant" defaultValue={data.plant} key={data.plant}>
              <option value="">{t.control.allPlants}</option>
              {data.plantOptions.map((p) => (
                <option key={p.uid} value={p.uid}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">{t.control.show}</button>
        </Form>
        <p className="muted small" aria-live="polite">
          {fmt(t.control.asOf, { time: seoulYmdHm(data.at) })}
        </p>
      </div>

      {c ? (
        <section className="confirm-panel" id="confirm" aria-labelledby="confirm-title">
          <h2 id="confirm-title">{t.control.confirmTitle}</h2>
          <p>
            {fmt(t.control.confirmText, {
              device: `${c.plantName} · ${c.device.name} (${kindWord(c.device.kind)})`,
              action: actionWord(t, c.device.kind, c.action),
            })}
          </p>
          {errors._form ? (
            <p className="alert error" role="alert">
              {errorText(errors._form)}
            </p>
          ) : null}
          {/* Posted to this very URL: a refused confirmation comes back with the panel and its error. */}
          <Form method="post" action={confirmAction}>
            <AuthenticityTokenInput />
            <input type="hidden" name="plant" value={data.plant} />
            <input type="hidden" name="deviceUid" value={c.device.uid} />
            <input type="hidden" name="action" value={c.action} />
            <input type="hidden" name="once" value={c.once} />
            {trip ? (
              <div className="field">
                <label htmlFor="confirmName">{t.control.typeName}</label>
                <input
                  id="confirmName"
                  name="confirmName"
                  required
                  autoComplete="off"
                  aria-invalid={errors.confirmName ? true : undefined}
                  aria-describedby={`confirmName-hint${errors.confirmName ? " confirmName-error" : ""}`}
                />
                <span className="hint" id="confirmName-hint">
                  {fmt(t.control.confirmTrip, { device: c.device.name })}
                </span>
                {errors.confirmName ? (
                  <span className="error" id="confirmName-error">
                    {errorText(errors.confirmName)}
                  </span>
                ) : null}
              </div>
            ) : null}
            <button
              type="submit"
              name="intent"
              value="command"
              className={c.action === "off" ? "danger" : undefined}
              disabled={navigation.state === "submitting"}
            >
              {actionWord(t, c.device.kind, c.action)} · {t.control.send}
            </button>
            <AppLink to={cancelHref} className="button secondary">
              {t.control.cancel}
            </AppLink>
          </Form>
        </section>
      ) : errors._form ? (
        <p className="alert error" role="alert">
          {errorText(errors._form)}
        </p>
      ) : null}

      {data.plants.length === 0 ? (
        <p>{t.control.empty}</p>
      ) : (
        data.plants.map((p) => (
          <section key={p.plant_uid} className="panel wide control-plant" aria-labelledby={`cp-${p.plant_uid}`}>
            <h2 id={`cp-${p.plant_uid}`}>{p.name}</h2>
            <div className="table-wrap">
              <table className="data-table stack-on-phone">
                <thead>
                  <tr>
                    <th scope="col">{t.control.col.device}</th>
                    <th scope="col">{t.control.col.kind}</th>
                    <th scope="col">{t.control.col.state}</th>
                    <th scope="col" className="num">
                      {t.control.col.output}
                    </th>
                    <th scope="col">{t.control.col.last}</th>
                    <th scope="col">{t.control.col.action}</th>
                  </tr>
                </thead>
                <tbody>
                  {p.devices.map((d) => (
                    <tr key={d.uid}>
                      <th scope="row">{d.name}</th>
                      <td data-label={t.control.col.kind}>{kindWord(d.kind)}</td>
                      <td data-label={t.control.col.state}>
                        <DeviceState t={t} d={d} />
                      </td>
                      <td className="num" data-label={t.control.col.output}>
                        {d.iw === null
                          ? "–"
                          : `${(d.iw / 1000).toLocaleString("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 })} kW`}
                      </td>
                      <td data-label={t.control.col.last}>
                        {d.lastCommand ? (
                          <>
                            {actionWord(t, d.kind, d.lastCommand.action)} · <Outcome t={t} status={d.lastCommand.status} />
                            <div className="muted small">
                              <SeoulTime ts={d.lastCommand.requested_at} /> · {d.lastCommand.requested_by}
                            </div>
                          </>
                        ) : (
                          "–"
                        )}
                      </td>
                      <td data-label={t.control.col.action}>
                        {d.operable && !data.readOnly ? (
                          <span className="control-actions">
                            {(["on", "off"] as const).map((a) => (
                              <AppLink
                                key={a}
                                to={chooseHref(d, a)}
                                className={`button small ${a === "off" ? "danger" : "secondary"}`}
                                aria-label={`${d.name} ${actionWord(t, d.kind, a)}`}
                              >
                                {actionWord(t, d.kind, a)}
                              </AppLink>
                            ))}
                          </span>
                        ) : (
                          <span className="muted small">{t.control.notOperable}</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ))
      )}

      <section className="panel wide" aria-labelledby="audit-title">
        <h2 id="audit-title">{t.control.auditTitle}</h2>
        {data.commands.length === 0 ? (
          <p className="muted">{t.control.auditEmpty}</p>
        ) : (
          <div className="table-wrap">
            <table className="data-table stack-on-phone command-log">
              <caption className="visually-hidden">{t.control.auditCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.control.auditCol.time}</th>
                  <th scope="col">{t.control.auditCol.who}</th>
                  <th scope="col">{t.control.auditCol.device}</th>
                  <th scope="col">{t.control.auditCol.action}</th>
                  <th scope="col">{t.control.auditCol.outcome}</th>
                  <th scope="col">{t.control.auditCol.done}</th>
                </tr>
              </thead>
              <tbody>
                {data.commands.map((cmd) => (
                  <tr key={cmd.seq}>
                    <td className="nowrap" data-label={t.control.auditCol.time}>
                      <SeoulTime ts={cmd.requested_at} />
                    </td>
                    <td data-label={t.control.auditCol.who}>{cmd.requested_by}</td>
                    <td data-label={t.control.auditCol.device}>
                      {cmd.deviceName ?? cmd.device_uid} ({kindWord(cmd.device_type)})
                    </td>
                    <td data-label={t.control.auditCol.action}>{actionWord(t, cmd.device_type, cmd.action)}</td>
                    <td data-label={t.control.auditCol.outcome}>
                      <Outcome t={t} status={cmd.status} />
                      {cmd.message ? <div className="muted small">{cmd.message}</div> : null}
                    </td>
                    <td className="nowrap" data-label={t.control.auditCol.done}>
                      {cmd.completed_at ? formatSeoul(cmd.completed_at, "YYYY-MM-DD HH:mm:ss") : "–"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
