/**
 * /alarm — the alarm screen (SPEC §2 Alarm: one tab with the level sub-filters all -1, interest 1, caution 2,
 * warning 3, severe 4; §7 GET /alarm, GET /code). Every filter lives in the URL: the level tabs are links, the
 * rest one GET form (period default today in Seoul; plant or group scope as `plant`, `isGroup`+`group`; device;
 * alarm type `code`; state), so a bookmark shows the same list and all of it works without JavaScript. Rows say
 * the level by a mark and a word, the state by words; acknowledge (with a note) and release are plain posts,
 * one function per intent. The filtered list exports as CSV (/alarm/export, same search).
 *
 * The scope is picked by name, not from a list of the whole fleet (1,000 plants made a 200 KB page): the form's
 * `find` text goes to GET /api/alarm/scope; when it names one plant or group (or one exactly) the loader redirects
 * to the URL with that `plant` or `group`, otherwise the page lists the matches as links. The chosen scope shows
 * as a chip whose link removes it. With script, a datalist suggests names while typing (resources.alarm-scope).
 * Loader data is what the page shows: the rows' fields on screen, with their fault-code names already resolved.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useState, type CSSProperties } from "react";
import { z, type ZodError } from "zod";
import {
  ALARM_PAGE_SIZES,
  ALARM_STATES,
  type AlarmListResponse,
  type AlarmRow,
  type AlarmScopeResponse,
} from "../../domain/contract/alarm";
import { formatSeoul } from "../../domain/seoul-clock";
import { ALARM_CODE, ALARM_LEVEL_FILTERS } from "../../domain/status";
import { requireSection } from "~/auth/section.server";
import { Pager, TextInput } from "~/components/AdminForm";
import { AppLink } from "~/components/AppLink";
import { AlarmLevel, LEVEL_MARK } from "~/components/alarm/AlarmLevel";
import { ScopeFinder } from "~/components/alarm/ScopeFinder";
import { ScopeChips, ScopeHiddenFields, ScopeMatchList, scopeSuggestions } from "~/components/alarm/ScopeParts";
import { pickOf, scopeSearch } from "~/utils/scope-search";
import { DetailLink } from "~/components/status/DetailLink";
import { SeoulTime, seoulYmdHm, shownMinute } from "~/components/status/format";
import { alarmCodeLabel, alarmSubject, engineMessage } from "~/components/status/labels";
import { fmt } from "~/i18n";
import { alarmMessages, useAlarmT, type AlarmCatalogue } from "~/i18n/alarm";
import { acknowledgeAlarm, alarmList, alarmScope, faultCodes, releaseAlarm } from "~/models/alarm.server";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { alarmSearch, withDefaultPeriod } from "~/utils/alarm-search.server";
import { fieldErrorsOf, formFailure, parseForm } from "~/utils/form-action.server";
import { ApiFailure } from "~/models/api.server";
import { readPreferences } from "~/utils/preferences.server";
import styles from "~/styles/alarm.css";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";
import { searchText } from "../../domain/search-text";
import { formatNumber } from "../../domain/units";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = alarmMessages(metaLocale(matches));
  return [{ title: `${t.alarm.title} · ${t.appName}` }];
};

export { scopeSearch };

const isClientError = (error: unknown) => {
  const status = (error as { status?: number }).status;
  return !!status && status >= 400 && status < 500 && status !== 401;
};

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "alarm");
  const url = new URL(request.url);
  const now = Date.now();
  const today = formatSeoul(now, "YYYY-MM-DD");
  const locale = readPreferences(request).locale;
  const { raw, parsed } = alarmSearch(url);
  const values = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, String(v)]));
  const find = searchText(url.searchParams.get("find"), 100);
  let matches: (NonNullable<AlarmScopeResponse["matches"]> & { find: string }) | null = null;
  if (find) {
    const found = await alarmScope(accessToken, { q: find });
    const pick = found.matches ? pickOf(find, found.matches) : null;
    if (pick) throw redirect(`/alarm?${scopeSearch(url.searchParams, pick)}`);
    matches = { find, ...(found.matches ?? { plants: [], groups: [], more: false }) };
  }
  const q = parsed.success ? parsed.data : null;
  const chosen = { plant: q?.plant, group: q?.isGroup ? q.group : undefined };
  // The scope's names (and the plant's devices), the fault-code table (cached) and the list: made together.
  const [scope, codes, list] = await Promise.all([
    chosen.plant || chosen.group !== undefined
      ? alarmScope(accessToken, chosen).catch((error: unknown) => {
          if (isClientError(error)) return null; // the list says why
          throw error;
        })
      : Promise.resolve(null),
    faultCodes(accessToken),
    q
      ? alarmList(accessToken, withDefaultPeriod(q, now)).catch((error: unknown) => {
          if (isClientError(error))
            return error as { status: number; body?: { message?: string; fields?: Record<string, string> } };
          throw error;
        })
      : Promise.resolve(null),
  ]);
  const faults = new Map(codes.map((c) => [c.code, c]));
  const faultText = (code: number | null) => {
    if (code === null || code === 0) return null;
    const f = faults.get(code);
    return f ? `${f.hex} ${locale === "ko" ? f.name_ko : f.name_en}` : String(code);
  };
  const base = {
    today,
    // The page's clock, for the open alarms' "active for" (shown to the minute): the minute the page was made in, so
    // the same list asked again within it is the same answer (a 304 to a data request that names its ETag).
    now: shownMinute(now),
    values,
    matches,
    readOnly: user.readOnly === 1,
    plant: chosen.plant ? { uid: chosen.plant, name: scope?.plant?.name ?? chosen.plant } : null,
    group: chosen.group !== undefined ? { seq: chosen.group, name: scope?.group?.name ?? `#${chosen.group}` } : null,
    devices: scope?.devices.map((d) => ({ uid: d.uid, name: d.name })) ?? [],
  };
  if (!q || list === null) {
    return json(
      { ...base, errors: q ? {} : fieldErrorsOf((parsed as { error: ZodError }).error), list: null as AlarmPage | null },
      { status: 400 },
    );
  }
  if (!("alarmList" in list)) {
    const errors = { ...(list.body?.fields ?? {}) } as Record<string, string>;
    if (!Object.keys(errors).length) errors._form = list.body?.message ?? "invalid_input";
    return json({ ...base, errors, list: null as AlarmPage | null }, { status: list.status === 404 ? 404 : 400 });
  }
  const page: AlarmPage = {
    total: list.total,
    page: list.page,
    size: list.size,
    start: list.start,
    end: list.end,
    counts: list.counts,
    rows: list.alarmList.map((a) => ({
      seq: a.seq,
      plant_uid: a.plant_uid,
      plantName: a.plantName,
      deviceName: a.deviceName,
      deviceKind: a.deviceKind,
      rtu_uid: a.rtu_uid,
      code: a.code,
      level: a.level,
      messageCode: a.messageCode,
      messageParams: a.messageParams,
      raised_at: a.raised_at,
      released_at: a.released_at,
      status: a.status,
      ack_by: a.ack_by,
      ack_at: a.ack_at,
      ack_note: a.ack_note,
      autoCleared: a.autoCleared,
      toggles: a.toggles,
      fault: faultText(a.fault_code),
    })),
  };
  return json({ ...base, errors: {} as Record<string, string>, list: page });
}

/** What the page shows of GET /alarm: the rows' shown fields, the fault code as its name. */
interface AlarmPage extends Pick<AlarmListResponse, "total" | "page" | "size" | "start" | "end" | "counts"> {
  rows: Array<
    Pick<
      AlarmRow,
      | "seq"
      | "plant_uid"
      | "plantName"
      | "deviceName"
      | "deviceKind"
      | "rtu_uid"
      | "code"
      | "level"
      | "messageCode"
      | "messageParams"
      | "raised_at"
      | "released_at"
      | "status"
      | "ack_by"
      | "ack_at"
      | "ack_note"
      | "autoCleared"
      | "toggles"
    > & { fault: string | null }
  >;
}

/** At most a page of the largest size (ALARM_PAGE_SIZES) at a time. */
const MAX_PICKED = 100;
const SeqList = z.object({
  // One checkbox ticked is one value, several are an array (formObject); none is nothing at all.
  seq: z.preprocess(
    (v) => (v === undefined ? [] : ([] as unknown[]).concat(v)),
    z
      .array(
        z.coerce
          .number()
          .int()
          .min(1)
          .max(2 ** 31 - 1),
      )
      .min(1, "none_selected")
      .max(MAX_PICKED, "too_many"),
  ),
  note: z.string().trim().max(500, "too_long").optional().default(""),
});

/** Back to the list the form was posted from (its search is kept in the action URL). */
const backTo = (request: Request) => `/alarm${new URL(request.url).search.replace(/[?&]index\b[^&]*/, "")}`;

/** How many API calls of one table action run at a time. */
const ACT_PARALLEL = 4;

/**
 * Acknowledges or releases the ticked alarms, each by its own API call (permission-checked and audit-logged there).
 * All done: back to the list with a flash. Any refused: the page again with what was refused and why, per alarm
 * (the others are done; the list shows them so).
 */
async function tableAction(
  request: Request,
  token: string,
  form: FormData,
  intent: "acknowledge" | "release",
  t: AlarmCatalogue,
) {
  const parsed = parseForm(SeqList, intent, form);
  if (!parsed.ok) return parsed.response;
  const { seq: seqs, note } = parsed.data;
  const act = intent === "acknowledge" ? acknowledgeAlarm : releaseAlarm;
  const refused: Record<string, string[]> = {};
  for (let i = 0; i < seqs.length; i += ACT_PARALLEL) {
    await Promise.all(
      seqs.slice(i, i + ACT_PARALLEL).map((seq) =>
        act(token, seq, note).catch((error: unknown) => {
          if (!(error instanceof ApiFailure) || error.status === 401 || error.status >= 500) throw error;
          refused[String(seq)] = [error.body.message || "forbidden"];
        }),
      ),
    );
  }
  const failed = Object.keys(refused);
  if (failed.length) {
    const only = failed.length === 1 && seqs.length === 1 ? refused[failed[0]!]![0]! : "some_failed";
    return formFailure(intent, { _form: only }, { seq: failed.join(","), note }, 409, refused);
  }
  const n = seqs.length;
  const done =
    intent === "acknowledge"
      ? n === 1
        ? t.alarm.acknowledged
        : fmt(t.alarm.acknowledgedMany, { n })
      : n === 1
        ? t.alarm.released
        : fmt(t.alarm.releasedMany, { n });
  return redirectWithFlash(backTo(request), done);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "alarm");
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = alarmMessages(readPreferences(request).locale);
  const intent = form.get("intent");
  if (intent === "acknowledge" || intent === "release") return tableAction(request, accessToken, form, intent, t);
  return formFailure("unknown", { _form: "invalid_input" });
}

function duration(t: AlarmCatalogue, ms: number): string {
  const m = Math.max(0, Math.floor(ms / 60_000));
  if (m < 60) return fmt(t.alarm.duration.m, { m });
  const h = Math.floor(m / 60);
  if (h < 24) return fmt(t.alarm.duration.hm, { h, m: m % 60 });
  return fmt(t.alarm.duration.dh, { d: Math.floor(h / 24), h: h % 24 });
}

const STATE_MARK: Record<AlarmRow["status"], string> = { active: "●", acknowledged: "◐", cleared: "○" };

type PageRow = AlarmPage["rows"][number];

/**
 * One alarm as a table row, kept light (50–100 of them make the page): no form of its own (the table's one form
 * acts on the ticked rows), no per-cell phone label (the table's style holds the column names once, alarm.css shows
 * them), text joined before React sees it (no comment markers between pieces).
 */
function AlarmTableRow({
  t,
  a,
  now,
  pick,
}: {
  t: AlarmCatalogue;
  a: PageRow;
  now: number;
  pick: "none" | "box" | "checked" | "empty";
}) {
  const kind = alarmCodeLabel(t, a.code);
  return (
    <tr className={`alarm-${a.status}`}>
      {pick === "none" ? null : (
        <td className="pick">
          {pick === "empty" ? null : (
            <input
              type="checkbox"
              name="seq"
              value={a.seq}
              defaultChecked={pick === "checked"}
              aria-label={fmt(t.alarm.pickRow, { kind, time: seoulYmdHm(a.raised_at) })}
            />
          )}
        </td>
      )}
      <td className="nowrap">
        <AppLink to={`/alarm/${a.seq}`}>
          <SeoulTime ts={a.raised_at} />
        </AppLink>
      </td>
      <td className="nowrap">
        {a.released_at !== null ? (
          <SeoulTime ts={a.released_at} />
        ) : (
          <strong>{fmt(t.alarm.activeFor, { duration: duration(t, now - a.raised_at) })}</strong>
        )}
      </td>
      <td>
        <DetailLink kind="plant" uid={a.plant_uid} name={a.plantName} />
      </td>
      <td>{alarmSubject(t, a)}</td>
      <td title={engineMessage(t, a)}>
        {`${kind} `}
        <span className="muted small">{`(${a.code})`}</span>
        {a.fault ? <div className="small">{`${t.alarm.col.fault}: ${a.fault}`}</div> : null}
      </td>
      <td>
        <AlarmLevel t={t} level={a.level} />
      </td>
      <td>
        <span className={`alarm-state state-${a.status}`}>
          <span aria-hidden="true">{STATE_MARK[a.status]}</span>
          {` ${t.alarm.states[a.status]}`}
          {a.autoCleared ? <span className="auto-cleared">{` · ${t.alarmOne.autoCleared}`}</span> : null}
        </span>
        {a.toggles > 0 ? (
          <div className="small toggles" title={t.alarmOne.togglesHint}>
            <span aria-hidden="true">↻ </span>
            {fmt(t.alarmOne.toggles, { n: a.toggles })}
          </div>
        ) : null}
        {a.ack_by ? (
          <div className="small ack">
            {fmt(t.alarm.ackBy, { who: a.ack_by, time: a.ack_at ? seoulYmdHm(a.ack_at) : "" })}
            {a.ack_note ? <q className="ack-note">{a.ack_note}</q> : null}
          </div>
        ) : null}
      </td>
    </tr>
  );
}

export default function AlarmScreen() {
  const data = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const t = useAlarmT();
  const location = useLocation();
  const navigation = useNavigation();
  const search = new URLSearchParams(location.search);
  const v = data.values;
  const errorText = (code: string | undefined) => (code ? ((t.alarm.errors as Record<string, string>)[code] ?? code) : undefined);
  const levelHref = (level: number) => {
    const next = new URLSearchParams(search);
    next.delete("page");
    if (level === -1) next.delete("level");
    else next.set("level", String(level));
    const s = next.toString();
    return s ? `/alarm?${s}` : "/alarm";
  };
  const currentLevel = Number(v.level ?? -1);
  const list = data.list;
  const exportSearch = new URLSearchParams(search);
  exportSearch.delete("page");
  exportSearch.delete("size");
  const busy = navigation.state === "submitting";
  const actionError = failure && "intent" in failure ? failure : null;
  const [formKey, setFormKey] = useState(location.key);
  if (!failure && formKey !== location.key) setFormKey(location.key);
  // The table acts on ticked rows when the member may act and a row is still open.
  const acting = !!list && !data.readOnly && list.rows.some((a) => a.status !== "cleared");
  const refusedSeqs = new Set(actionError?.values.seq?.split(",") ?? []);
  const columns = [
    ...(acting ? [t.alarm.col.pick] : []),
    t.alarm.col.raised,
    t.alarm.col.cleared,
    t.alarm.col.plant,
    t.alarm.col.device,
    t.alarm.col.kind,
    t.alarm.col.level,
    t.alarm.col.state,
  ];
  // The column names once for the phone layout (alarm.css: each stacked cell shows its column's --cN).
  const columnVars = Object.fromEntries(columns.map((c, i) => [`--c${i + 1}`, JSON.stringify(c)])) as CSSProperties;
  return (
    <div className="analysis-screen alarm-screen">
      <h1>{t.alarm.title}</h1>
      <nav aria-label={t.alarm.tabsLabel} className="tabs-nav">
        <ul className="tab-list">
          {ALARM_LEVEL_FILTERS.map((level) => {
            const key = level === -1 ? "all" : (`l${level}` as const);
            const count = list ? list.counts[String(level) as "-1"] : null;
            return (
              <li key={level}>
                <AppLink to={levelHref(level)} aria-current={currentLevel === level ? "page" : undefined}>
                  {level !== -1 ? <span aria-hidden="true">{LEVEL_MARK[level]} </span> : null}
                  {t.alarm.tabs[key]}
                  {count !== null ? <span className="tab-count"> {formatNumber(count, 0)}</span> : null}
                </AppLink>
              </li>
            );
          })}
        </ul>
      </nav>

      <Form method="get" className="alarm-filters" aria-label={t.alarm.filters}>
        {currentLevel !== -1 ? <input type="hidden" name="level" value={currentLevel} /> : null}
        {(["start", "end"] as const).map((name) => {
          // A day of the period; an empty one when only the other end is given (the list then covers that one day).
          const value = v[name] ?? (v[name === "start" ? "end" : "start"] ? "" : data.today);
          return (
            <TextInput
              key={`${name}${value}`}
              form="af"
              name={name}
              type="date"
              label={t.alarm[name]}
              defaultValue={value}
              error={errorText(data.errors[name])}
            />
          );
        })}
        <div className="field scope-field">
          <label htmlFor="af-find">{t.alarm.scopeFind}</label>
          <ScopeFinder
            defaultValue={data.matches?.find ?? ""}
            placeholder={t.alarm.scopeFindPlaceholder}
            suggestions={scopeSuggestions(data.matches)}
          />
        </div>
        <ScopeHiddenFields plant={data.plant} group={data.group} />
        {data.devices.length ? (
          <div className="field">
            <label htmlFor="af-device">{t.alarm.device}</label>
            <select id="af-device" name="device" defaultValue={v.device ?? ""} key={`d${v.device}`}>
              <option value="">{t.alarm.allDevices}</option>
              {data.devices.map((d) => (
                <option key={d.uid} value={d.uid}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
        ) : v.device ? (
          <input type="hidden" name="device" value={v.device} />
        ) : null}
        <div className="field">
          <label htmlFor="af-code">{t.alarm.code}</label>
          <select id="af-code" name="code" defaultValue={v.code ?? ""} key={`c${v.code}`}>
            <option value="">{t.alarm.allCodes}</option>
            {Object.values(ALARM_CODE).map((c) => (
              <option key={c} value={c}>
                {alarmCodeLabel(t, c)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="af-status">{t.alarm.state}</label>
          <select id="af-status" name="status" defaultValue={v.status ?? ""} key={`st${v.status}`}>
            <option value="">{t.alarm.allStates}</option>
            {ALARM_STATES.map((s) => (
              <option key={s} value={s}>
                {t.alarm.states[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field narrow">
          <label htmlFor="af-size">{t.alarm.size}</label>
          <select id="af-size" name="size" defaultValue={v.size ?? "50"} key={`z${v.size}`}>
            {ALARM_PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit">{t.alarm.submit}</button>
          <AppLink to="/alarm" className="button secondary">
            {t.alarm.reset}
          </AppLink>
        </div>
      </Form>
      <ScopeChips path="/alarm" search={search} plant={data.plant} group={data.group} />
      <ScopeMatchList path="/alarm" search={search} matches={data.matches} />
      {data.errors._form ? (
        <p className="alert error" role="alert">
          {errorText(data.errors._form)}
        </p>
      ) : null}
      {Object.entries(data.errors)
        .filter(([k]) => !["start", "end", "_form"].includes(k))
        .map(([k, code]) => (
          <p key={k} className="alert error" role="alert">
            {k}: {errorText(code)}
          </p>
        ))}

      {list ? (
        <section aria-labelledby="alarm-list-title" className="panel wide">
          <div className="alarm-list-head">
            <h2 id="alarm-list-title">
              {fmt(t.alarm.summary, {
                start: formatSeoul(list.start, "YYYY-MM-DD"),
                end: formatSeoul(list.end - 1, "YYYY-MM-DD"),
                total: formatNumber(list.total, 0),
              })}
            </h2>
            <a href={`/alarm/export?${exportSearch}`} className="button secondary" download>
              {t.alarm.export}
            </a>
            <AppLink to={`/alarm/figures?${figuresSearch(exportSearch)}`} className="button secondary">
              {t.figures.link}
            </AppLink>
          </div>
          {list.rows.length === 0 ? (
            <p className="muted">{t.alarm.empty}</p>
          ) : (
            // Keyed by the last navigation that was not a refused action: after an action's redirect the ticks are
            // gone (its rows are done), while a refused action leaves what was ticked as it was — also what was
            // ticked after its message showed: the router shows the action's answer before the list is read again,
            // and keying by every navigation remounted the form then and dropped those ticks (an e2e flake).
            <Form method="post" className="alarm-act-form" key={formKey}>
              {acting ? (
                <fieldset className="alarm-act-bar">
                  <legend className="visually-hidden">{t.alarm.actBar}</legend>
                  <AuthenticityTokenInput />
                  <div className="field note-field">
                    <label htmlFor="alarm-note">{t.alarm.note}</label>
                    <input
                      id="alarm-note"
                      name="note"
                      maxLength={500}
                      placeholder={t.alarm.notePlaceholder}
                      defaultValue={actionError?.values.note ?? ""}
                    />
                  </div>
                  <button type="submit" name="intent" value="acknowledge" disabled={busy}>
                    {t.alarm.acknowledge}
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="release"
                    className="secondary"
                    disabled={busy}
                    title={t.alarm.releaseHint}
                  >
                    {t.alarm.release}
                  </button>
                </fieldset>
              ) : null}
              {actionError ? (
                <div className="alert error" role="alert">
                  <p>{errorText(Object.values(actionError.errors)[0])}</p>
                  {actionError.details && Object.keys(actionError.details).length > 1 ? (
                    <ul>
                      {Object.entries(actionError.details).map(([seq, codes]) => (
                        <li key={seq}>{`#${seq}: ${errorText(codes[0])}`}</li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              ) : null}
              <div className="table-wrap">
                <table className="data-table alarm-table stack-on-phone" style={columnVars}>
                  <caption className="visually-hidden">{t.alarm.caption}</caption>
                  <thead>
                    <tr>
                      {columns.map((c) => (
                        <th key={c} scope="col">
                          {c}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {list.rows.map((a) => (
                      <AlarmTableRow
                        key={a.seq}
                        t={t}
                        a={a}
                        now={data.now}
                        pick={
                          !acting ? "none" : a.status === "cleared" ? "empty" : refusedSeqs.has(String(a.seq)) ? "checked" : "box"
                        }
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            </Form>
          )}
          {list.total > list.size ? <Pager page={list.page} size={list.size} total={list.total} search={search} /> : null}
        </section>
      ) : null}
    </div>
  );
}

/** The figures' search: the list's period and scope (plant or group) only. */
function figuresSearch(search: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const k of ["start", "end", "plant", "isGroup", "group"]) {
    const v = search.get(k);
    if (v) out.set(k, v);
  }
  return out;
}
