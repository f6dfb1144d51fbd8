/**
 * /control — remote operation (SPEC §3 Command, §6 control 6, deviceOperation 4, breakStatus 5; §7 /pvstatus/control,
 * /command/hex; §9 refresh every 660 000 ms). What the member may operate, per plant: inverters (on/off) and breakers
 * VCB/ACB (close/trip), each with its current state and last command. A command takes two steps, both plain HTML:
 * choosing is a link (`?plant=&device=&do=on|off`) that opens the confirmation; confirming is a post (CSRF) — a
 * breaker trip needs the device name typed. Each confirmation carries a one-time token (the API's Idempotency-Key):
 * posting it again runs nothing and says when the command was already sent. The outcome (acknowledged by the gateway / failed / timed out /
 * undeliverable) comes back as a flash and in the command log (GET /api/command), which also refreshes; the gateway's
 * answer is said in the member's language (domain/command-state.ts commandAnswer, the catalogue's words).
 * A device commanded since its newest reading shows "awaiting the next reading", not a state (awaitingReading).
 *
 * The list scales as the alarm screen's (issue 26 point 10): its scope is a plant or a group picked by name
 * (`find`, app/utils/scope-search.ts; a name that picks no plant or group searches device and plant names), a kind
 * filter and pages of CONTROL_PAGE_SIZE devices, all in the URL (a GET form and links, no JavaScript needed).
 */
import { randomUUID } from "node:crypto";
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { REFRESH_INTERVAL_MS } from "../../domain/chart";
import {
  COMMAND_HEX,
  CONTROL_KIND_FILTERS,
  type AlarmScopeResponse,
  type CommandRow,
  type ControlDevice,
  type ControlKindFilter,
} from "../../domain/contract/alarm";
import { awaitingReading, commandAnswer } from "../../domain/command-state";
import { formatNumber, formatPower } from "../../domain/units";
import { formatSeoul } from "../../domain/seoul-clock";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { Qty, SeoulTime, seoulYmdHm } from "~/components/status/format";
import { AwaitingReading, BeforeCommand } from "~/components/status/AwaitingReading";
import { Pager } from "~/components/AdminForm";
import { FilterSelect } from "~/components/DataTable";
import { NameFinder } from "~/components/NameFinder";
import { ScopeChips, ScopeHiddenFields, ScopeMatchList, scopeSuggestions } from "~/components/alarm/ScopeParts";
import { alarmScope } from "~/models/alarm.server";
import { pickOf, scopeSearch, type ScopeMatches } from "~/utils/scope-search";
import { searchParam } from "~/utils/search-params";
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

const KIND_FILTERS = Object.keys(CONTROL_KIND_FILTERS) as ControlKindFilter[];

/** The list's URL (lenient: a stale bookmark shows the unfiltered list); `device` and `do` open a confirmation. */
const Search = z.object({
  find: searchParam.text(100),
  plant: searchParam.text(64),
  isGroup: searchParam.oneOf(["1"]),
  group: searchParam.id(),
  kind: searchParam.oneOf(KIND_FILTERS),
  page: searchParam.id(),
  device: z.string().trim().max(64).optional(),
  do: z.enum(["on", "off"]).optional(),
});

const isClientError = (error: unknown) => {
  const status = (error as { status?: number }).status;
  return !!status && status >= 400 && status < 500 && status !== 401;
};

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "control");
  const url = new URL(request.url);
  const q = parseSearch(Search, request);
  // A name that picks one plant or group becomes the scope; one that picks none searches device and plant names.
  let matches: (ScopeMatches & { find: string }) | null = null;
  if (q.find) {
    const found = await alarmScope(accessToken, { q: q.find });
    const pick = found.matches ? pickOf(q.find, found.matches) : null;
    if (pick) throw redirect(`/control?${scopeSearch(url.searchParams, pick)}`);
    matches = { find: q.find, ...(found.matches ?? { plants: [], groups: [], more: false }) };
  }
  const scopeQuery = { plant: q.plant || undefined, group: q.isGroup ? q.group : undefined };
  const [scope, list, commands, one] = await Promise.all([
    scopeQuery.plant || scopeQuery.group !== undefined
      ? alarmScope(accessToken, scopeQuery).catch((error: unknown) => {
          if (isClientError(error)) return null;
          throw error;
        })
      : Promise.resolve(null as AlarmScopeResponse | null),
    controlList(accessToken, { ...scopeQuery, q: q.find || undefined, kind: q.kind || undefined, page: q.page ?? 1 }).catch(
      (error: unknown) => {
        // A plant or group not (or no longer) seen: the list says there is nothing, the chip is gone.
        if (isClientError(error)) return null;
        throw error;
      },
    ),
    commandList(accessToken, { plant: scopeQuery.plant, limit: 30 }).catch(() => [] as CommandRow[]),
    q.device && q.do ? controlList(accessToken, { device: q.device }).catch(() => null) : Promise.resolve(null),
  ]);
  let confirm: { device: ControlDevice; plantName: string; action: "on" | "off"; once: string } | null = null;
  for (const p of one?.plants ?? []) {
    const d = p.devices.find((x) => x.uid === q.device);
    // A fresh one-time token per confirmation shown: the command it sends is recorded once.
    if (d && d.operable && q.do) confirm = { device: d, plantName: p.name, action: q.do, once: randomUUID() };
  }
  return json({
    plant: scope?.plant ?? null,
    group: scope?.group ?? null,
    matches,
    kind: q.kind,
    plants: list?.plants ?? [],
    total: list?.total ?? 0,
    page: list?.page ?? 1,
    size: list?.size ?? 20,
    commands,
    confirm,
    at: Date.now(),
    readOnly: user.readOnly === 1,
  });
}

const CommandForm = z.object({
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
  const { deviceUid, action, confirmName, once } = parsed.data;
  const values = formValues(form);
  let device: ControlDevice | undefined;
  try {
    const list = await controlList(token, { device: deviceUid });
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
  // Back to the list as it was (the confirmation's own keys dropped).
  const back = new URL(request.url);
  back.searchParams.delete("device");
  back.searchParams.delete("do");
  const status = t.control.outcome[outcome.status];
  const answer = t.command.answer[commandAnswer(outcome)];
  const said = outcome.replayed
    ? fmt(t.control.alreadySent, {
        time: formatSeoul(outcome.requested_at, "YYYY-MM-DD HH:mm:ss").slice(11),
        seq: outcome.seq,
        status,
      })
    : fmt(t.control.sent, { seq: outcome.seq, status });
  return redirectWithFlash(`/control${back.search}`, `${device.name}: ${said} — ${answer}`);
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
  // Commanded since the newest reading: that reading is not the device's state (issue 26 point 5).
  const awaiting = awaitingReading(d.lastCommand, d.readingAt);
  if (awaiting) return <AwaitingReading since={awaiting.requested_at} />;
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
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  usePolling(() => revalidator.state === "idle" && revalidator.revalidate(), REFRESH_INTERVAL_MS.control);
  const search = new URLSearchParams(location.search);
  const kindWord = (kind: number) => t.control.kinds[`k${kind}` as "k1"] ?? String(kind);
  const errors = failure && "errors" in failure ? failure.errors : {};
  const errorText = (code: string | undefined) =>
    code ? ((t.control.errors as Record<string, string>)[code] ?? code) : undefined;
  // The list's own search (scope, name, kind, page), without a confirmation's keys.
  const listSearch = new URLSearchParams(search);
  listSearch.delete("device");
  listSearch.delete("do");
  const chooseHref = (d: ControlDevice, action: "on" | "off") => {
    const u = new URLSearchParams(listSearch);
    u.set("device", d.uid);
    u.set("do", action);
    return `/control?${u}#confirm`;
  };
  const cancelHref = listSearch.toString() ? `/control?${listSearch}` : "/control";
  const c = data.confirm;
  const confirmAction = c ? chooseHref(c.device, c.action).replace("#confirm", "") : "/control";
  const trip = c ? isBreaker(c.device.kind) && c.action === "off" : false;
  return (
    <div className="analysis-screen control-screen">
      <h1>{t.control.title}</h1>
      <Form method="get" className="alarm-filters control-filters" aria-label={t.control.filters}>
        <div className="field scope-field">
          <label htmlFor="cf-find">{t.control.find}</label>
          <NameFinder
            id="cf-find"
            section="control"
            defaultValue={data.matches?.find ?? ""}
            placeholder={t.control.findPlaceholder}
            suggestions={scopeSuggestions(data.matches)}
          />
        </div>
        <ScopeHiddenFields plant={data.plant} group={data.group} />
        <FilterSelect
          key={`k${data.kind}`}
          id="cf-kind"
          name="kind"
          label={t.control.kind}
          value={data.kind}
          any={t.control.allKinds}
          options={KIND_FILTERS.map((k) => ({ value: k, label: t.control.kindFilters[k] }))}
        />
        <div className="filter-actions">
          <button type="submit">{t.control.show}</button>
          <AppLink to="/control" className="button secondary">
            {t.control.reset}
          </AppLink>
        </div>
      </Form>
      <ScopeChips path="/control" search={listSearch} plant={data.plant} group={data.group} />
      <ScopeMatchList path="/control" search={listSearch} matches={data.matches} quietWhenNone />
      <p className="muted small" aria-live="polite">
        {fmt(t.control.listCaption, { total: formatNumber(data.total, 0) })} ·{" "}
        {fmt(t.control.asOf, { time: seoulYmdHm(data.at) })}
      </p>

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
        <p>{data.matches || data.kind || data.plant || data.group ? t.control.noneMatching : t.control.empty}</p>
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
                        {d.iw === null ? "–" : <Qty q={formatPower(d.iw)} />}
                        {d.iw !== null && awaitingReading(d.lastCommand, d.readingAt) ? <BeforeCommand /> : null}
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
      {data.total > data.size ? <Pager page={data.page} size={data.size} total={data.total} search={listSearch} /> : null}

      <section className="panel wide" aria-labelledby="audit-title">
        <h2 id="audit-title">{t.control.auditTitle}</h2>
        <p>
          <AppLink to="/control/log">{t.chain.link}</AppLink>
        </p>
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
                      <div className="muted small">{t.command.answer[commandAnswer(cmd)]}</div>
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
