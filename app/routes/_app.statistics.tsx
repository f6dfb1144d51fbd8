/**
 * /statistics — the five reports of SPEC §2 (integrated, inverter history, environment sensor, VCB, ACB) for
 * one plant, a group (node and descendants) or the member's fleet, over a day/week/month/year/custom period
 * at a unit of 10 or 30 minutes, an hour, a day or a month. Everything is in the URL (domain/statistics-view.ts):
 * the controls are one GET form and links, so a bookmarked report renders the same report and all of it works
 * without JavaScript. A report tab is hidden when the scope has no device of its kind.
 *
 * The page prints as an A4 document (app/styles/statistics.css: no navigation, a header with scope, period,
 * generated at and by, page numbers, table heads repeated, charts kept whole, black-and-white readable) and
 * exports CSV, XLSX and PDF (streamed from the API; the PDF complete at the detail picked in its form: summary only,
 * daily or hourly, api/statistics/pdf-report.ts).
 * Each report says how much of the expected 10-minute data it is built from; gaps are marked in chart and table.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { AppLink } from "~/components/AppLink";
import { requireSection } from "~/auth/section.server";
import { fmt, useLocale } from "~/i18n";
import { statisticsMessages, useStatisticsT, type StatisticsCatalogue } from "~/i18n/statistics";
import { ApiFailure } from "~/models/api.server";
import {
  statisticsReport,
  statisticsScope,
  statisticsSubscriptions,
  subscribeReport,
  unsubscribeReport,
  type SubscriptionItem,
} from "~/models/statistics.server";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readPreferences } from "~/utils/preferences.server";
import { apiFailure, formFailure, formValues, orNotFound, refusalPage, parseForm, parseSearch } from "~/utils/form-action.server";
import styles from "~/styles/statistics.css";
import {
  PDF_DETAILS,
  REPORT_DEVICE_KIND,
  REPORT_KINDS,
  SUBSCRIPTION_FREQUENCIES,
  type ReportKind,
  type StatisticsResponse,
} from "../../domain/contract/statistics";
import { UID_PATTERN } from "../../domain/fleet";
import { formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import { hasService } from "../../domain/service-bits";
import {
  addPeriod,
  axisLabel,
  CO2_KG_PER_KWH,
  formatIrradiation,
  formatPr,
  isGap,
  PERIOD_PRESETS,
  REC_WEIGHT,
  REC_WON_PER_REC,
  SMP_WON_PER_KWH,
  STAT_UNITS,
  type StatUnit,
} from "../../domain/statistics";
import {
  pageHead,
  REPORT_COLUMNS,
  REPORT_TITLES,
  shownRow,
  totalColumns,
  WITHHELD,
  type Lang,
  type RowInfo,
  type ShownRow,
} from "../../domain/statistics-table";
import {
  pageIn,
  resolveView,
  rowsPerPage,
  StatisticsViewSchema,
  viewSearch,
  type StatisticsView,
} from "../../domain/statistics-view";
import { formatCapacityTotal, formatCo2, formatEnergy, formatNumber, formatPower } from "../../domain/units";

/** CO₂ avoided: kg, from 1,000 kg tonnes (domain/units.ts formatCo2). */
const co2Text = (kg: number, t: StatisticsCatalogue) => {
  const q = formatCo2(kg);
  return `${q.value} ${q.unit === "t" ? t.statistics.tonnes : t.statistics.kg}`;
};
import { IRRADIANCE_COVERAGE_MIN } from "../../domain/performance";
import { metaLocale } from "~/utils/meta-locale";
import { scrollRegion } from "~/components/scroll-region";
import { StatChart, type StatChartSeries } from "~/components/charts/StatChart";
import { useHydratedView } from "~/utils/use-hydrated-view";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = statisticsMessages(metaLocale(matches));
  return [{ title: `${t.statistics.title} · ${t.appName}` }];
};

const ROW_FIELD = {
  integrated: "reportPlants",
  inverter: "reportInverters",
  env: "reportEnvs",
  vcb: "reportVcbs",
  acb: "reportAcbs",
} as const;

/** Why a figure is withheld: its title on the screen and the footnote of the page and the PDF. */
const withheldNote = (t: StatisticsCatalogue) => fmt(t.statistics.prWithheld, { pct: Math.round(IRRADIANCE_COVERAGE_MIN * 100) });

/** Bars the chart draws at most: beyond, consecutive steps share a bar (their sum; a gap if any step has one). */
const MAX_BARS = 400;

/**
 * What the page shows of the API's answer: `report` holds one page of rows (`rowCount` in all), the totals and the
 * per-step series of the whole report; the page gets the summary, the formatted rows and totals, and the chart's
 * bars. Kept per answer by statisticsReport (a repeated report is not shaped again).
 */
function shapeReport(report: StatisticsResponse, kind: ReportKind, lang: Lang, page: number, perPage: number) {
  const rows = (report[ROW_FIELD[kind]] ?? []) as unknown as Array<
    Record<string, unknown> & { device_uid: string; ts: number; samples: number; expected: number }
  >;
  const plantOf = new Map(report.deviceInverters.map((d) => [d.uid, d.plantName ?? ""]));
  const info = (key: string): RowInfo => ({
    unit: report.unit,
    name: report.deviceNames[key] ?? key,
    plantName: kind === "integrated" ? (report.deviceNames[key] ?? key) : (plantOf.get(key) ?? ""),
    capa: report.deviceCapas[key] ?? null,
  });
  const columns = REPORT_COLUMNS[kind];
  const tcols = totalColumns(kind);
  const total = report.rowCount;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(page, pages);
  const from = (current - 1) * perPage;
  // Chart: the scope's total per step (mean irradiation for the environment report), at most MAX_BARS bars.
  const steps = report.series ?? [];
  const oneDay = steps.length > 0 && seoulDayStart(steps[0]!.ts) === seoulDayStart(steps[steps.length - 1]!.ts);
  const per = Math.max(1, Math.ceil(steps.length / MAX_BARS));
  const chart: StatChartSeries = { labels: [], values: [], gaps: [] };
  for (let i = 0; i < steps.length; i += per) {
    const group = steps.slice(i, i + per);
    const values = group.map((s) => s.value).filter((v): v is number => v !== null);
    const sum = values.length ? values.reduce((a, b) => a + b, 0) : null;
    const value = sum === null ? null : kind === "env" && per > 1 ? sum / values.length : sum;
    if (group.some((s) => isGap(s.samples, s.expected))) chart.gaps.push(chart.labels.length);
    chart.labels.push(axisLabel(group[0]!.ts, report.unit, oneDay));
    chart.values.push(value === null ? null : value / 1000);
  }
  const tables = {
    heads: columns.map((c) => ({ text: pageHead(c, lang), num: c.unit !== undefined })),
    rows: rows.map((r) => shownRow(columns, r, info(r.device_uid))),
    totalHeads: tcols.map((c) => ({ text: pageHead(c, lang), num: c.unit !== undefined })),
    totals: report.totals.map((t) => shownRow(tcols, t as unknown as Record<string, unknown> & typeof t, info(t.device_uid))),
    page: current,
    pages,
    from: total ? from + 1 : 0,
    to: from + rows.length,
    total,
  };
  return { rowCount: report.rowCount, report: { summary: report.summary, source: report.source }, tables, chart };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = requireSection(request, context, "statistics");
  const { locale } = readPreferences(request);
  const now = Date.now();
  const url = new URL(request.url);
  // The form's scope select (`scope=g:<seq>` | `p:<uid>` | ""): turned into the bookmarkable group/plant parameters.
  if (url.searchParams.has("scope")) {
    const picked = url.searchParams.get("scope") ?? "";
    url.searchParams.delete("scope");
    url.searchParams.delete("plant");
    url.searchParams.delete("group");
    if (picked.startsWith("g:")) url.searchParams.set("group", picked.slice(2));
    else if (picked.startsWith("p:")) url.searchParams.set("plant", picked.slice(2));
    throw redirect(`/statistics?${viewSearch(resolveView(parseSearch(StatisticsViewSchema, url), now))}`);
  }
  const view = resolveView(parseSearch(StatisticsViewSchema, url), now);
  // Scheduled report mails: the member's own list, and their address as the form's default (never fatal here);
  // asked beside the scope and the report, not after them.
  const subscriptions = view.print ? null : statisticsSubscriptions(auth.accessToken).catch(() => null);
  const scope = await orNotFound(statisticsScope(auth.accessToken, view));
  const tabs = REPORT_KINDS.filter((k) => k === "integrated" || scope.kinds.includes(REPORT_DEVICE_KIND[k]));
  let shown: ReturnType<typeof shapeReport> | null = null;
  let problem: Record<string, string> | null = null;
  if (tabs.includes(view.report)) {
    try {
      // The screen pages 100 rows, the print view (and so the PDF) 500 (domain/statistics-view.ts).
      const perPage = rowsPerPage(view);
      const pageOf = (page: number) =>
        statisticsReport(
          auth.accessToken,
          view,
          { offset: (page - 1) * perPage, limit: perPage },
          [locale, view.report, page, perPage].join("|"),
          (r) => shapeReport(r, view.report, locale, page, perPage),
        );
      shown = await pageOf(view.page);
      // A page past the end (a bookmark of a longer report) shows the last page.
      const last = Math.max(1, Math.ceil(shown.rowCount / perPage));
      if (view.page > last && shown.rowCount > 0) shown = await pageOf(last);
    } catch (e) {
      // A period or unit the API refuses is shown beside the controls; a scope it hides is the 403/404 page.
      if (!(e instanceof ApiFailure && e.status === 400)) throw refusalPage(e);
      problem = e.body.fields ?? { _form: e.body.message };
    }
  }
  const subs = await subscriptions;
  return json(
    {
      view,
      scope,
      tabs,
      // What the screen draws from the answer: the summary, the rows formatted, the chart's bars (drawn by StatChart).
      report: shown?.report ?? null,
      tables: shown?.tables ?? null,
      chart: shown?.chart ?? null,
      problem,
      by: auth.user.id,
      // When this page was made: a repeated report may come from the API's cache (its generatedAt is when its
      // numbers were computed), which is dropped by any change of the data, so the numbers are those of now.
      generatedAt: formatSeoul(now, "YYYY-MM-DD HH:mm"),
      subscriptions: subs?.subscriptions ?? null,
      email: subs?.email ?? "",
      readOnly: auth.user.readOnly === 1,
      mailConfigured: Boolean(process.env.SMTP_URL),
      hideCo2: hasService(auth.user.service, "co2Hide"),
      hideRevenue: hasService(auth.user.service, "recSmpHide"),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const SubscribeForm = z.object({
  report: z.enum(REPORT_KINDS, { errorMap: () => ({ message: "invalid" }) }),
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES, { errorMap: () => ({ message: "invalid" }) }),
  plant: z.string().trim().regex(UID_PATTERN, "not_an_id").optional(),
  group: z.coerce
    .number({ invalid_type_error: "not_an_id" })
    .int("not_an_id")
    .min(0, "not_an_id")
    .max(2_147_483_647, "not_an_id")
    .optional(),
  email: z.string({ required_error: "required" }).trim().min(1, "required").max(200, "invalid_email").email("invalid_email"),
});
const UnsubscribeForm = z.object({ seq: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Back to the report the form was posted from (its search is kept in the action URL). */
const backTo = (request: Request) => `/statistics${new URL(request.url).search.replace(/[?&]index\b[^&]*/, "")}`;

async function subscribeAction(request: Request, token: string, form: FormData, t: StatisticsCatalogue, lang: Lang) {
  const parsed = parseForm(SubscribeForm, "subscribe", form);
  if (!parsed.ok) return parsed.response;
  const { plant, group, ...rest } = parsed.data;
  try {
    await subscribeReport(token, { ...rest, lang, ...(group !== undefined ? { isGroup: true, group } : plant ? { plant } : {}) });
  } catch (error) {
    return apiFailure("subscribe", error, formValues(form));
  }
  return redirectWithFlash(backTo(request), t.statistics.subscribed);
}

async function unsubscribeAction(request: Request, token: string, form: FormData, t: StatisticsCatalogue) {
  const parsed = parseForm(UnsubscribeForm, "unsubscribe", form);
  if (!parsed.ok) return parsed.response;
  try {
    await unsubscribeReport(token, parsed.data.seq);
  } catch (error) {
    return apiFailure("unsubscribe", error, formValues(form));
  }
  return redirectWithFlash(backTo(request), t.statistics.unsubscribed);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "statistics");
  const form = await request.formData();
  await assertCsrf(form, request);
  const { locale } = readPreferences(request);
  const t = statisticsMessages(locale);
  switch (form.get("intent")) {
    case "subscribe":
      return subscribeAction(request, accessToken, form, t, locale);
    case "unsubscribe":
      return unsubscribeAction(request, accessToken, form, t);
    default:
      return formFailure("unknown", { _form: "invalid" });
  }
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type T = StatisticsCatalogue;

function ReportTabs({ view, tabs }: { view: StatisticsView; tabs: ReportKind[] }) {
  const lang = useLocale();
  const t = useStatisticsT();
  return (
    <nav className="subnav stat-tabs no-print" aria-label={t.statistics.tabs}>
      {tabs.map((k) => (
        <AppLink
          key={k}
          to={`/statistics?${viewSearch(view, { report: k, page: 1 })}`}
          aria-current={view.report === k ? "page" : undefined}
        >
          {REPORT_TITLES[k][lang]}
        </AppLink>
      ))}
    </nav>
  );
}

function errorText(t: T, code: string | undefined): string | undefined {
  if (!code) return undefined;
  return (t.statistics.errors as Record<string, string>)[code] ?? t.statistics.errors.invalid;
}

function Filters({ data }: { data: Data }) {
  const t = useStatisticsT();
  const { view, scope, problem } = data;
  const scopeValue = view.group !== undefined ? `g:${view.group}` : view.plant ? `p:${view.plant}` : "";
  return (
    <Form method="get" className="filters stat-filters no-print" aria-label={t.statistics.filters}>
      {view.report !== "integrated" ? <input type="hidden" name="report" value={view.report} /> : null}
      <div className="field">
        <label htmlFor="stat-scope">{t.statistics.scope}</label>
        <select id="stat-scope" name="scope" defaultValue={scopeValue}>
          <option value="">{t.statistics.fleet}</option>
          {scope.groups.length ? (
            <optgroup label={t.statistics.groups}>
              {scope.groups.map((g) => (
                <option key={g.seq} value={`g:${g.seq}`}>{`${"\u00a0\u00a0".repeat(g.depth)}${g.name}`}</option>
              ))}
            </optgroup>
          ) : null}
          <optgroup label={t.statistics.plants}>
            {scope.plants.map((p) => (
              <option key={p.uid} value={`p:${p.uid}`}>
                {p.name}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
      <div className="field">
        <label htmlFor="stat-period">{t.statistics.period}</label>
        <select id="stat-period" name="period" defaultValue={view.period}>
          {PERIOD_PRESETS.map((p) => (
            <option key={p} value={p}>
              {t.statistics.periods[p]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="stat-date">{t.statistics.date}</label>
        <input id="stat-date" type="date" name="date" defaultValue={view.date} />
      </div>
      <div className="field">
        <label htmlFor="stat-start">{t.statistics.start}</label>
        <input
          id="stat-start"
          type="date"
          name="start"
          defaultValue={view.start}
          aria-describedby="stat-custom-hint"
          aria-invalid={problem?.start ? true : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor="stat-end">{t.statistics.end}</label>
        <input
          id="stat-end"
          type="date"
          name="end"
          defaultValue={view.end}
          aria-describedby="stat-custom-hint stat-end-error"
          aria-invalid={problem?.end ? true : undefined}
        />
        {problem?.end ? (
          <span className="error" id="stat-end-error">
            {errorText(t, problem.end)}
          </span>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="stat-unit">{t.statistics.unit}</label>
        <select
          id="stat-unit"
          name="unit"
          defaultValue={view.unit}
          aria-describedby="stat-unit-error"
          aria-invalid={problem?.unit ? true : undefined}
        >
          {STAT_UNITS.map((u) => (
            <option key={u} value={u}>
              {t.statistics.units[u]}
            </option>
          ))}
        </select>
        {problem?.unit ? (
          <span className="error" id="stat-unit-error">
            {errorText(t, problem.unit)}
          </span>
        ) : null}
      </div>
      <label className="check">
        <input type="checkbox" name="sunRise" value="1" defaultChecked={view.sunRise} /> {t.statistics.sunRise}
      </label>
      <div className="filter-actions">
        <button type="submit">{t.statistics.show}</button>
      </div>
      <p className="hint muted" id="stat-custom-hint">
        {t.statistics.customHint}
      </p>
    </Form>
  );
}

function PeriodNav({ view }: { view: StatisticsView }) {
  const t = useStatisticsT();
  if (view.period === "custom") return null;
  const step = (n: -1 | 1) =>
    `/statistics?${viewSearch(view, { date: addPeriod(view.date, view.period as Exclude<typeof view.period, "custom">, n), page: 1 })}`;
  return (
    <p className="period-nav no-print">
      <AppLink to={step(-1)} rel="prev">
        ◀ {t.statistics.prev}
      </AppLink>
      <AppLink to={step(1)} rel="next">
        {t.statistics.next} ▶
      </AppLink>
    </p>
  );
}

/** Shown once the page's script runs: it prints. Without JS the print view link and the how-to remain. */
function PrintButton({ label }: { label: string }) {
  const js = useHydratedView();
  return js ? (
    <button type="button" className="secondary" onClick={() => window.print()}>
      {label}
    </button>
  ) : null;
}

function Actions({ data }: { data: Data }) {
  const t = useStatisticsT();
  const lang = useLocale();
  const search = viewSearch(data.view, { page: 1, print: false });
  return (
    <section className="stat-actions no-print" aria-label={t.statistics.actions}>
      {data.view.print ? (
        <AppLink
          className="button secondary"
          to={`/statistics?${viewSearch(data.view, { page: pageIn(data.view, false), print: false })}`}
        >
          {t.statistics.backToScreen}
        </AppLink>
      ) : (
        <AppLink
          className="button secondary"
          to={`/statistics?${viewSearch(data.view, { page: pageIn(data.view, true), print: true })}`}
        >
          {t.statistics.printView}
        </AppLink>
      )}
      <PrintButton label={t.statistics.print} />
      <a className="button secondary" href={`/statistics/export?format=csv&lang=${lang}&${search}`} download>
        {t.statistics.csv}
      </a>
      <a className="button secondary" href={`/statistics/export?format=xlsx&lang=${lang}&${search}`} download>
        {t.statistics.xlsx}
      </a>
      <PdfForm view={data.view} />
      <p className="muted pdf-howto">{t.statistics.pdfHowTo}</p>
    </section>
  );
}

/**
 * The PDF with the detail the member picks (summary only, daily, hourly): a GET form to /statistics/pdf carrying
 * the report's search, so it works without JavaScript (reloadDocument: the answer is a file, not a page).
 */
function PdfForm({ view }: { view: StatisticsView }) {
  const t = useStatisticsT();
  const params = [...new URLSearchParams(viewSearch(view, { page: 1, print: false })).entries()].filter(([k]) => k !== "detail");
  return (
    <Form method="get" action="/statistics/pdf" reloadDocument className="stat-pdf">
      {params.map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor="stat-pdf-detail">{t.statistics.pdfDetail}</label>
      <select id="stat-pdf-detail" name="detail" defaultValue={view.detail}>
        {PDF_DETAILS.map((d) => (
          <option key={d} value={d}>
            {t.statistics.pdfDetails[d]}
          </option>
        ))}
      </select>
      <button type="submit" className="secondary">
        {t.statistics.pdf}
      </button>
    </Form>
  );
}

function Summary({ data }: { data: Data }) {
  const t = useStatisticsT();
  const r = data.report!;
  const s = r.summary;
  const kind = data.view.report;
  const gen = kind === "integrated" || kind === "inverter";
  const energy = formatEnergy(s.energy_wh);
  const peak = formatPower(s.peak_w ?? 0);
  const pct = s.completeness;
  const capa = formatCapacityTotal(s.capa);
  const facts: Array<[string, string, string?]> = [[t.statistics.capacity, `${capa.value} ${capa.unit}`]];
  if (kind !== "env") {
    facts.push([
      gen ? t.statistics.generation : t.statistics.energy,
      `${energy.value} ${energy.unit}`,
      gen ? t.statistics.measured : undefined,
    ]);
    if (gen) facts.push([t.statistics.genHours, `${formatNumber(s.genHours, 2)} ${t.statistics.hours}`]);
    facts.push([t.statistics.peak, s.peak_w === null ? "–" : `${peak.value} ${peak.unit}`]);
  }
  if (kind !== "vcb" && kind !== "acb") facts.push([t.statistics.irradiation, `${formatIrradiation(s.irradiation_wh)} kWh/m²`]);
  if (gen)
    facts.push([t.statistics.pr, s.pr_withheld ? WITHHELD : `${formatPr(s.pr)} %`, s.pr_withheld ? withheldNote(t) : undefined]);
  if (s.co2_kg !== undefined)
    facts.push([t.statistics.co2, co2Text(s.co2_kg, t), fmt(t.statistics.co2Note, { factor: CO2_KG_PER_KWH })]);
  if (s.revenue) {
    facts.push([
      t.statistics.revenue,
      `${formatNumber(s.revenue.total, 0)} ${t.statistics.won}`,
      fmt(t.statistics.revenueNote, { smp: SMP_WON_PER_KWH, rec: formatNumber(REC_WON_PER_REC, 0), weight: REC_WEIGHT }),
    ]);
  }
  facts.push([t.statistics.completeness, pct === null ? "–" : `${formatNumber(pct, 1)} %`]);
  return (
    <section className="stat-summary" aria-labelledby="stat-summary-h">
      <h2 id="stat-summary-h">{t.statistics.summary}</h2>
      <dl className="stat-facts">
        {facts.map(([label, value, note]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <strong>{value}</strong>
              {note ? <small className="muted">{note}</small> : null}
            </dd>
          </div>
        ))}
      </dl>
      <p className={pct !== null && pct < 100 ? "alert warn completeness" : "muted completeness"}>
        {pct !== null
          ? fmt(t.statistics.completenessNote, {
              samples: formatNumber(s.samples, 0),
              expected: formatNumber(s.expected, 0),
              pct: formatNumber(pct, 1),
            })
          : null}
        {pct !== null && pct < 100 ? <> {t.statistics.incomplete}</> : null}
      </p>
    </section>
  );
}

function Table({
  caption,
  heads,
  rows,
  gapText,
}: {
  caption: string;
  heads: Array<{ text: string; num: boolean }>;
  rows: ShownRow[];
  gapText: string;
}) {
  const t = useStatisticsT();
  const why = withheldNote(t);
  return (
    <div {...scrollRegion(caption, "stat-table-wrap")}>
      <table className="data-table stat-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {heads.map((h) => (
              <th key={h.text} scope="col" className={h.num ? "num" : undefined}>
                {h.text}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className={r.gap ? "gap" : undefined}>
              {r.cells.map((c, j) => (
                <td key={j} className={heads[j]?.num ? "num" : undefined} title={r.withheld?.includes(j) ? why : undefined}>
                  {c}
                  {r.withheld?.includes(j) ? <sup aria-hidden="true">*</sup> : null}
                  {r.gap && j === r.cells.length - 1 ? <span className="gap-tag"> ▲ {gapText}</span> : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StepPager({ data }: { data: Data }) {
  const t = useStatisticsT();
  const tb = data.tables!;
  if (tb.pages <= 1) return null;
  const link = (page: number) => `/statistics?${viewSearch(data.view, { page })}`;
  return (
    <nav className="pager no-print" aria-label={t.statistics.pager}>
      {tb.page > 1 ? (
        <AppLink to={link(tb.page - 1)} rel="prev">
          {t.statistics.prev}
        </AppLink>
      ) : null}
      <span>
        {tb.page} / {tb.pages}
      </span>
      {tb.page < tb.pages ? (
        <AppLink to={link(tb.page + 1)} rel="next">
          {t.statistics.next}
        </AppLink>
      ) : null}
    </nav>
  );
}

/** The member's scheduled report mails: the list with an unsubscribe button each, and a form for this report. */
function Subscriptions({ data }: { data: Data }) {
  const t = useStatisticsT();
  const lang = useLocale();
  const failure = useActionData<typeof action>() as unknown as
    { intent: string; errors: Record<string, string>; values: Record<string, string> } | undefined;
  const fail = failure && typeof failure === "object" && "intent" in failure ? failure : null;
  const subFail = fail?.intent === "subscribe" ? fail : null;
  const { view } = data;
  const list = (data.subscriptions ?? []) as SubscriptionItem[];
  const at = (ts: number | null) => (ts === null ? "–" : formatSeoul(ts, "YYYY-MM-DD HH:mm"));
  const action = `/statistics?${viewSearch(view)}`;
  const scopeName = data.scope.scope.name;
  const err = (field: string) => errorText(t, subFail?.errors[field]);
  return (
    <section className="stat-subscriptions no-print" aria-labelledby="stat-subs-h">
      <h2 id="stat-subs-h">{t.statistics.subscriptions}</h2>
      <p className="muted">{t.statistics.subscribeWhen}</p>
      {!data.mailConfigured ? <p className="alert info">{t.statistics.noMail}</p> : null}
      {fail && fail.intent === "unsubscribe" ? (
        <p className="alert error" role="alert">
          {errorText(t, Object.values(fail.errors)[0])}
        </p>
      ) : null}
      {list.length ? (
        <div className="table-wrap">
          <table className="data-table stat-sub-table">
            <caption className="visually-hidden">{t.statistics.subscriptions}</caption>
            <thead>
              <tr>
                <th scope="col">{t.statistics.subscriptionReport}</th>
                <th scope="col">{t.statistics.subscriptionScope}</th>
                <th scope="col">{t.statistics.frequency}</th>
                <th scope="col">{t.statistics.email}</th>
                <th scope="col">{t.statistics.lastSent}</th>
                <th scope="col">{t.statistics.nextRun}</th>
                <th scope="col">
                  <span className="visually-hidden">{t.statistics.unsubscribe}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.seq}>
                  <td data-label={t.statistics.subscriptionReport}>{REPORT_TITLES[s.report][lang]}</td>
                  <td data-label={t.statistics.subscriptionScope}>{s.scope.name}</td>
                  <td data-label={t.statistics.frequency}>{t.statistics.frequencies[s.frequency]}</td>
                  <td data-label={t.statistics.email}>{s.email}</td>
                  <td data-label={t.statistics.lastSent}>
                    {at(s.last_sent_at)}
                    {s.last_error ? (
                      <small className="error"> ⚠ {fmt(t.statistics.skipped, { reason: t.statistics.scopeGone })}</small>
                    ) : null}
                  </td>
                  <td data-label={t.statistics.nextRun}>{at(s.next_run)}</td>
                  <td>
                    <Form method="post" action={action}>
                      <AuthenticityTokenInput />
                      <input type="hidden" name="seq" value={s.seq} />
                      <button type="submit" name="intent" value="unsubscribe" className="secondary">
                        {t.statistics.unsubscribe}
                        <span className="visually-hidden">
                          {" "}
                          — {REPORT_TITLES[s.report][lang]}, {s.scope.name}
                        </span>
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">{data.subscriptions === null ? "–" : t.statistics.noSubscriptions}</p>
      )}
      {data.readOnly ? (
        <p className="muted">{t.statistics.subscribeReadOnly}</p>
      ) : (
        <>
          <p className="hint stat-sub-hint" id="stat-sub-hint">
            {t.statistics.subscribeHint}{" "}
            <strong>
              {REPORT_TITLES[view.report][lang]} · {scopeName}
            </strong>
          </p>
          <Form method="post" action={action} className="filters stat-subscribe" aria-describedby="stat-sub-hint">
            <AuthenticityTokenInput />
            <input type="hidden" name="report" value={view.report} />
            {view.group !== undefined ? (
              <input type="hidden" name="group" value={view.group} />
            ) : view.plant ? (
              <input type="hidden" name="plant" value={view.plant} />
            ) : null}
            <div className="field">
              <label htmlFor="stat-sub-frequency">{t.statistics.frequency}</label>
              <select id="stat-sub-frequency" name="frequency" defaultValue={subFail?.values.frequency ?? "daily"}>
                {SUBSCRIPTION_FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {t.statistics.frequencies[f]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field stat-sub-email">
              <label htmlFor="stat-sub-email">{t.statistics.email}</label>
              <input
                id="stat-sub-email"
                type="email"
                name="email"
                required
                maxLength={200}
                autoComplete="email"
                defaultValue={subFail?.values.email ?? data.email}
                aria-invalid={subFail?.errors.email ? true : undefined}
                aria-describedby={subFail?.errors.email ? "stat-sub-email-error" : undefined}
              />
              {subFail?.errors.email ? (
                <span className="error" id="stat-sub-email-error">
                  {err("email")}
                </span>
              ) : null}
            </div>
            {subFail && !subFail.errors.email ? (
              <p className="error" role="alert">
                {errorText(t, Object.values(subFail.errors)[0])}
              </p>
            ) : null}
            <div className="filter-actions">
              <button type="submit" name="intent" value="subscribe">
                {t.statistics.subscribe}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

export default function StatisticsScreen() {
  const data = useLoaderData<typeof loader>();
  const t = useStatisticsT();
  const lang = useLocale();
  const { view, report, tables } = data;
  const title = REPORT_TITLES[view.report][lang];
  const unitText = t.statistics.units[view.unit as StatUnit];
  return (
    <div className={view.print ? "stat-page print-view" : "stat-page"}>
      <h1 className="no-print">{t.statistics.title}</h1>
      <ReportTabs view={view} tabs={data.tabs} />
      <Filters data={data} />
      <PeriodNav view={view} />
      <Actions data={data} />
      <header className="report-head">
        <h2 className="report-title">{title}</h2>
        <p className="report-scope">
          <strong>{data.scope.scope.name}</strong>
        </p>
        <p className="report-meta">
          {fmt(t.statistics.periodText, { start: view.start, end: view.end, unit: unitText })}
          {report ? ` · ${fmt(t.statistics.sourceText, { source: t.statistics.source[report.source] })}` : null}
        </p>
        <p className="report-meta">{fmt(t.statistics.generated, { at: data.generatedAt, by: data.by })}</p>
      </header>
      {data.problem ? (
        <p className="alert error" role="alert">
          {errorText(t, Object.values(data.problem)[0])}
        </p>
      ) : null}
      {!data.tabs.includes(view.report) ? <p className="alert info">{t.statistics.noDevices}</p> : null}
      {report && tables ? (
        <>
          <Summary data={data} />
          <figure className="stat-figure">
            <figcaption>
              {t.statistics.chart} <span className="muted">({t.statistics.gapLegend})</span>
            </figcaption>
            <div className="stat-chart-box">
              {data.chart ? (
                <StatChart
                  input={{
                    ...data.chart,
                    id: view.report,
                    title: `${title} — ${t.statistics.chart}`,
                    unit: view.report === "env" ? "kWh/m²" : "kWh",
                    texts: { gap: t.statistics.gap, noData: t.statistics.noData, value: t.statistics.value },
                    irradiance: view.report === "env",
                  }}
                />
              ) : null}
            </div>
          </figure>
          {tables.total === 0 ? <p className="alert info">{t.statistics.empty}</p> : null}
          <Table caption={t.statistics.totals} heads={tables.totalHeads} rows={tables.totals} gapText={t.statistics.gap} />
          <h2 className="steps-h">{t.statistics.steps}</h2>
          <p className="muted">{fmt(t.statistics.rowsOf, { from: tables.from, to: tables.to, total: tables.total })}</p>
          <Table
            caption={`${title} — ${t.statistics.steps}`}
            heads={tables.heads}
            rows={tables.rows}
            gapText={t.statistics.gap}
          />
          {report.summary.pr_withheld || [...tables.totals, ...tables.rows].some((r) => r.withheld) ? (
            <p className="muted small stat-footnote">{withheldNote(t)}</p>
          ) : null}
          <StepPager data={data} />
        </>
      ) : null}
      {!view.print ? <Subscriptions data={data} /> : null}
    </div>
  );
}
