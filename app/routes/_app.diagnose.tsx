/**
 * /diagnose — is the plant producing what it should? (SPEC §2 Diagnose sub-tabs by service bits, §4
 * comparison memory, §5 only inverters in produce/generate, §8 failures, §9 colours and reference.)
 * `?tab=producer|performance|comparison|ranking&plant=&start=&end=&unit=&kind=&type=&device=…`: every
 * choice is in the URL, so a diagnosis is a bookmark; GET forms and links work without JavaScript.
 * A non-200 answer shows the failure state with a friendly sentence, never a crash.
 */
import { json, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { SERIES_COLORS } from "../../domain/chart";
import {
  COMPARE_TYPES,
  type CompareKind,
  type CompareResponse,
  type GenerateResponse,
  type ProduceResponse,
  type RankingResponse,
} from "../../domain/contract/diagnose";
import { DIAGNOSE_UNITS } from "../../domain/diagnose-period";
import { diagnosableDevices } from "../../domain/device";
import { IRRADIANCE_COVERAGE_MIN } from "../../domain/performance";
import { formatNumber, formatPercent } from "../../domain/units";
import { addSeoul, formatSeoul, parseSeoul, seoulDayStart } from "../../domain/seoul-time";
import { diagnoseTabs, hasService } from "../../domain/service-bits";
import { requireAuth } from "~/auth/session.server";
import { canOpenSection } from "../../domain/navigation";
import { AppLink } from "~/components/AppLink";
import { AvailabilityFigures } from "~/components/diagnose/AvailabilityFigures";
import { CurtailmentFigures } from "~/components/diagnose/CurtailmentFigures";
import { renderTimeChart } from "~/components/analysis/time-chart.server";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { analysisMessages, useAnalysisT, type AnalysisCatalogue } from "~/i18n/analysis";
import { ApiFailure } from "~/models/api.server";
import { compare, forgetCompareSelection, generate, produce, ranking } from "~/models/diagnose.server";
import { userDevices } from "~/models/measurement.server";
import { readPreferences } from "~/utils/preferences.server";
import { parseSearch } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";

const TABS = ["producer", "performance", "comparison", "ranking"] as const;
type Tab = (typeof TABS)[number];

const Search = z.object({
  tab: z.enum(TABS).optional(),
  plant: z.string().trim().max(64).optional(),
  start: z.string().trim().max(19).optional(),
  end: z.string().trim().max(19).optional(),
  unit: z.coerce
    .number()
    .int()
    .refine((u) => (DIAGNOSE_UNITS as readonly number[]).includes(u), "bad_unit")
    .optional(),
  kind: z.coerce
    .number()
    .int()
    .refine((k) => k in COMPARE_TYPES, "bad_kind")
    .optional(),
  type: z.string().trim().max(20).optional(),
  device: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().trim().max(64)).max(50)),
});

export const meta: MetaFunction = ({ matches }) => {
  const t = analysisMessages(metaLocale(matches));
  return [{ title: `${t.diagnose.title} · ${t.appName}` }];
};

type Failure = { message: string };

async function attempt<T>(p: Promise<T>): Promise<{ ok: T } | { failure: Failure }> {
  try {
    return { ok: await p };
  } catch (error) {
    // SPEC §8: a non-200 diagnose answer is a failure state with an empty message; the screen words it.
    if (error instanceof ApiFailure && error.status !== 401) return { failure: { message: error.body.message ?? "" } };
    throw error;
  }
}

function chartOf(
  t: AnalysisCatalogue,
  g: GenerateResponse,
): { svg: string; legend: Array<{ name: string; color: string; dash: string | null; band?: boolean }> } {
  const irr = g.irradianceMode & 2 ? g.iis : g.irradianceMode & 1 ? g.his : null;
  const bands = orderBands(g, t.diagnose.curtailment.band);
  const legend = [
    { name: t.diagnose.performance.legend.generation, color: SERIES_COLORS.generation, dash: null },
    { name: t.diagnose.performance.legend.reference, color: SERIES_COLORS.reference, dash: "6 4" },
    ...(irr ? [{ name: t.diagnose.performance.legend.irradiance, color: SERIES_COLORS.irradiance, dash: "2 3" }] : []),
    ...(bands.length ? [{ name: t.diagnose.curtailment.legend, color: "", dash: null, band: true }] : []),
  ];
  const svg = renderTimeChart({
    id: "gen",
    title: fmt(t.diagnose.performance.chart, { plant: g.plantName }),
    labels: g.times,
    noData: t.measurement.never,
    left: {
      unit: "kWh",
      series: [
        { name: legend[0]!.name, color: SERIES_COLORS.generation, values: g.generation },
        { name: legend[1]!.name, color: SERIES_COLORS.reference, dash: "6 4", values: g.reference },
      ],
    },
    bands,
    right: irr
      ? {
          unit: "W/m²",
          series: [{ name: t.diagnose.performance.legend.irradiance, color: SERIES_COLORS.irradiance, dash: "2 3", values: irr }],
        }
      : undefined,
  });
  return { svg, legend };
}

/**
 * The curtailment orders as bands of the chart's keys: a key belongs to an order when its bucket [t, t + unit) overlaps
 * it (the keys are Seoul labels of bucket starts).
 */
function orderBands(g: GenerateResponse, words: string) {
  const unitMs = g.unit * 60_000;
  const starts = g.times.map((l) => parseSeoul(l));
  const bands: Array<{ from: number; to: number; title: string }> = [];
  for (const o of g.curtailment.list) {
    const hit = starts.flatMap((t, i) => (t !== null && t < o.to && t + unitMs > o.from ? [i] : []));
    if (hit.length) bands.push({ from: hit[0]!, to: hit[hit.length - 1]!, title: fmt(words, { start: o.start, end: o.end }) });
  }
  return bands;
}

/**
 * The menu entry follows diagnoseMenu (bit 3, domain/navigation.ts); a compare-only member (bit 2) has no
 * entry but may open the screen, which then shows the comparison tab alone (SPEC §2, §6).
 */
function requireDiagnose(request: Request, context: AppLoadContext) {
  const auth = requireAuth(request, context);
  if (!canOpenSection(auth.user, "diagnose") && !hasService(auth.user.service, "diagnoseCompare"))
    throw new Response("forbidden", { status: 403 });
  return auth;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = requireDiagnose(request, context);
  const token = auth.accessToken;
  const q = parseSearch(Search, request);
  const t = analysisMessages(readPreferences(request).locale);
  const allowed: Tab[] = [
    ...diagnoseTabs(auth.user.service),
    ...(hasService(auth.user.service, "diagnoseAll") ? (["ranking"] as const) : []),
  ];
  const tab = q.tab && allowed.includes(q.tab) ? q.tab : allowed[0];
  const now = Date.now();
  const today = seoulDayStart(now);
  const start = q.start ?? formatSeoul(addSeoul(today, -7, "day"), "YYYY-MM-DD HH:mm:ss");
  const end = q.end ?? formatSeoul(addSeoul(today, 1, "day"), "YYYY-MM-DD HH:mm:ss");
  const unit = q.unit ?? (tab === "ranking" ? 1440 : 60);
  const devices = await userDevices(token);
  const plants = [
    ...new Map(
      devices.filter((d) => d.plant_uid).map((d) => [d.plant_uid!, { uid: d.plant_uid!, name: d.plantName ?? d.plant_uid! }]),
    ).values(),
  ].sort((a, b) => a.name.localeCompare(b.name, "ko"));
  const plantUid = q.plant && plants.some((p) => p.uid === q.plant) ? q.plant : (plants[0]?.uid ?? null);
  const ofPlant = devices.filter((d) => d.plant_uid === plantUid);
  // SPEC §5: only kind 1 devices travel in produce and generate requests.
  const inverters = diagnosableDevices(ofPlant).map((d) => d.uid);
  const period = { start, end, unit };
  let result:
    | { tab: "producer"; data: ProduceResponse }
    | { tab: "performance"; data: GenerateResponse; chart: ReturnType<typeof chartOf> }
    | { tab: "comparison"; data: CompareResponse; chart: ReturnType<typeof chartOf> }
    | { tab: "ranking"; data: RankingResponse }
    | null = null;
  let failure: Failure | null = null;
  if (tab === "producer" && inverters.length) {
    const r = await attempt(produce(token, { deviceUids: inverters, rtuUids: [], periodType: "custom", ...period }));
    if ("ok" in r) result = { tab, data: r.ok };
    else failure = r.failure;
  } else if (tab === "performance" && inverters.length) {
    const r = await attempt(generate(token, { deviceUids: inverters, rtuUids: [], periodType: "custom", ...period }));
    if ("ok" in r) result = { tab, data: r.ok, chart: chartOf(t, r.ok) };
    else failure = r.failure;
  } else if (tab === "comparison") {
    const selection = q.device.length
      ? { compareUid: q.device, compareKind: q.kind ?? 1, compareType: q.type ?? COMPARE_TYPES[(q.kind ?? 1) as CompareKind][0] }
      : {};
    const r = await attempt(compare(token, { ...period, ...selection }));
    if ("ok" in r) {
      const palette = ["#1C7ED6", "#E8590C", "#2B8A3E", "#7048E8", "#C2255C", "#0B7285"];
      const dashes = [undefined, "6 3", "2 3", "8 3 2 3", "4 4", "1 2"];
      const series = r.ok.series.map((s, i) => ({
        name: `${s.name} · ${s.plantName}`,
        color: palette[i % palette.length]!,
        dash: dashes[i % dashes.length],
        values: s.values,
      }));
      const typeName =
        t.diagnose.comparison.types[r.ok.selectedDataType as keyof typeof t.diagnose.comparison.types] ?? r.ok.selectedDataType;
      const svg = renderTimeChart({
        id: "cmp",
        title: fmt(t.diagnose.comparison.chart, { type: typeName }),
        labels: r.ok.times,
        noData: t.measurement.never,
        left: { unit: typeName.replace(/^.*\((.*)\)$/, "$1"), series },
      });
      result = {
        tab,
        data: r.ok,
        chart: { svg, legend: series.map((s) => ({ name: s.name, color: s.color, dash: s.dash ?? null })) },
      };
    } else failure = r.failure;
  } else if (tab === "ranking") {
    const r = await attempt(ranking(token, start, end));
    if ("ok" in r) result = { tab, data: r.ok };
    else failure = r.failure;
  }
  return json({ q, allowed, tab: tab ?? null, plants, plantUid, period, ofPlant, result, failure });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireDiagnose(request, context);
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = analysisMessages(readPreferences(request).locale);
  await forgetCompareSelection(accessToken);
  const back = new URL(request.url);
  return redirectWithFlash(`/diagnose${back.search}`, t.diagnose.comparison.forgotten);
}

const pct = (v: number | null, d = 1) => (v === null ? "–" : `${formatPercent(v, d)}%`);
const num = (v: number | null | undefined, d = 1) => formatNumber(v, d);

/** The reason a figure shows "—" (too little irradiance measured), as its title; undefined when it is shown. */
const withheldTitle = (d: AnalysisCatalogue["diagnose"], why: string | null | undefined) =>
  why ? fmt(d.performance.withheld, { pct: Math.round(IRRADIANCE_COVERAGE_MIN * 100) }) : undefined;

function failureText(t: AnalysisCatalogue, f: Failure): string {
  const specific = t.diagnose.badInput[f.message as keyof typeof t.diagnose.badInput];
  return specific ?? t.diagnose.failed;
}

function Legend({ items }: { items: Array<{ name: string; color: string; dash: string | null; band?: boolean }> }) {
  return (
    <ul className="chart-legend">
      {items.map((l) =>
        l.band ? (
          <li key={l.name} data-legend="band">
            <svg width="28" height="12" aria-hidden="true">
              <rect width="28" height="12" className="band-fill" />
              {[4, 10, 16, 22].map((x) => (
                <line key={x} x1={x} y1="12" x2={x + 6} y2="0" className="band-line" />
              ))}
            </svg>{" "}
            {l.name}
          </li>
        ) : (
          <li key={l.name}>
            <svg width="28" height="10" aria-hidden="true">
              <line x1="0" x2="28" y1="5" y2="5" stroke={l.color} strokeWidth="3" strokeDasharray={l.dash ?? undefined} />
            </svg>{" "}
            {l.name}
          </li>
        ),
      )}
    </ul>
  );
}

export default function DiagnoseScreen() {
  const data = useLoaderData<typeof loader>();
  const t = useAnalysisT();
  const d = t.diagnose;
  const tabHref = (tab: string) => {
    const u = new URLSearchParams({
      tab,
      ...(data.plantUid ? { plant: data.plantUid } : {}),
      start: data.period.start,
      end: data.period.end,
      unit: String(tab === "ranking" ? 1440 : data.period.unit),
    });
    return `/diagnose?${u}`;
  };
  if (!data.tab)
    return (
      <div className="analysis-screen">
        <h1>{d.title}</h1>
        <p role="alert">{d.noService}</p>
      </div>
    );
  const kind = (data.q.kind ?? 1) as CompareKind;
  const cmp = data.result?.tab === "comparison" ? data.result.data : null;
  const selected = new Set(cmp ? cmp.selectedDeviceUid : data.q.device);
  return (
    <div className="analysis-screen">
      <h1>{d.title}</h1>
      <nav aria-label={d.tabs.label} className="tabs-nav">
        <ul className="tab-list">
          {data.allowed.map((tab) => (
            <li key={tab}>
              <AppLink to={tabHref(tab)} aria-current={data.tab === tab ? "page" : undefined}>
                {d.tabs[tab]}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="get" className="period-form" aria-label={d.period.legend}>
        <input type="hidden" name="tab" value={data.tab} />
        <fieldset>
          <legend>{d.period.legend}</legend>
          <div className="field-row">
            {data.tab !== "ranking" ? (
              <div className="field">
                <label htmlFor="d-plant">{d.plant}</label>
                <select id="d-plant" name="plant" defaultValue={data.plantUid ?? ""} key={data.plantUid ?? ""}>
                  {data.plants.map((p) => (
                    <option key={p.uid} value={p.uid}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <div className="field">
              <label htmlFor="d-start">{d.period.start}</label>
              <input
                id="d-start"
                name="start"
                defaultValue={data.period.start}
                key={data.period.start}
                pattern="\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?"
              />
            </div>
            <div className="field">
              <label htmlFor="d-end">{d.period.end}</label>
              <input
                id="d-end"
                name="end"
                defaultValue={data.period.end}
                key={data.period.end}
                pattern="\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?"
              />
            </div>
            {data.tab !== "ranking" ? (
              <div className="field">
                <label htmlFor="d-unit">{d.period.unit}</label>
                <select id="d-unit" name="unit" defaultValue={String(data.period.unit)} key={data.period.unit}>
                  {DIAGNOSE_UNITS.map((u) => (
                    <option key={u} value={u}>
                      {d.period[`u${u}`]}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
          </div>
          {data.tab === "comparison" ? (
            <div className="field-row">
              <div className="field">
                <label htmlFor="d-kind">{d.comparison.kind}</label>
                <select id="d-kind" name="kind" defaultValue={String(cmp?.selectedDeviceKind ?? kind)}>
                  {Object.keys(COMPARE_TYPES).map((k) => (
                    <option key={k} value={k}>
                      {t.measurement.tabs[`k${k}` as "k1"]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="d-type">{d.comparison.type}</label>
                <select id="d-type" name="type" defaultValue={cmp?.selectedDataType ?? data.q.type ?? ""}>
                  {Object.entries(COMPARE_TYPES).map(([k, types]) => (
                    <optgroup key={k} label={t.measurement.tabs[`k${k}` as "k1"]}>
                      {types.map((ty) => (
                        <option key={ty} value={ty}>
                          {d.comparison.types[ty]}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
              </div>
              <fieldset className="field device-picks">
                <legend>{d.comparison.devices}</legend>
                {data.ofPlant
                  .filter((x) => x.kind in COMPARE_TYPES)
                  .map((x) => (
                    <label key={x.uid} className="check">
                      <input type="checkbox" name="device" value={x.uid} defaultChecked={selected.has(x.uid)} /> {x.name}
                    </label>
                  ))}
              </fieldset>
            </div>
          ) : null}
          <button type="submit">{d.period.submit}</button>
        </fieldset>
      </Form>
      {data.failure ? (
        <p className="form-error" role="alert" data-failure={data.failure.message}>
          {failureText(t, data.failure)}
        </p>
      ) : null}
      {data.result?.tab === "producer" ? (
        <div className="table-wrap">
          <table className="data-table">
            <caption>{d.producer.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{d.producer.name}</th>
                <th scope="col" className="num">
                  {d.producer.energy}
                </th>
                <th scope="col" className="num">
                  {d.producer.yield}
                </th>
                <th scope="col" className="num">
                  {d.producer.median}
                </th>
                <th scope="col">{d.producer.deviation}</th>
              </tr>
            </thead>
            <tbody>
              {data.result.data.producers.map((p) => (
                <tr key={p.deviceUid} className={p.deviation !== null && p.deviation < -0.1 ? "low" : undefined}>
                  <th scope="row">{p.name}</th>
                  <td className="num">{num(p.energyKwh)} kWh</td>
                  <td className="num" data-rated={p.rated ? "1" : "0"}>
                    {p.rated ? num(p.specificYield, 2) : d.rating.unrated}
                  </td>
                  <td className="num">{num(p.plantMedian, 2)}</td>
                  <td>
                    {p.deviation === null
                      ? "–"
                      : Math.abs(p.deviation) < 0.0005
                        ? d.producer.atMedian
                        : p.deviation < 0
                          ? fmt(d.producer.below, { pct: pct(-p.deviation) })
                          : fmt(d.producer.above, { pct: pct(p.deviation) })}
                    {p.deviation !== null && p.deviation < -0.1 ? <strong className="flag"> ▲ {d.producer.flag}</strong> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.result.data.producers.some((p) => !p.rated) ? <p className="muted small">{d.rating.note}</p> : null}
        </div>
      ) : null}
      {data.result?.tab === "performance" ? (
        <div className="perf-grid">
          <section className="panel wide chart-panel" aria-labelledby="perf-chart">
            <h2 id="perf-chart">{data.result.data.plantName}</h2>
            <div className="chart-box" dangerouslySetInnerHTML={{ __html: data.result.chart.svg }} />
            <Legend items={data.result.chart.legend} />
            <p className="muted small">
              {fmt(d.performance.coefficients, {
                gamma: data.result.data.coefficients.temperatureCoefficient,
                eta: data.result.data.coefficients.systemFactor,
              })}
            </p>
          </section>
          <section className="panel" aria-labelledby="perf-figures">
            <h2 id="perf-figures">{d.performance.figures}</h2>
            <dl className="figures">
              <div>
                <dt>{d.performance.energy}</dt>
                <dd>{num(data.result.data.figures.energyKwh, 0)} kWh</dd>
              </div>
              <div>
                <dt>{d.performance.expected}</dt>
                <dd>{num(data.result.data.figures.expectedKwh, 0)} kWh</dd>
              </div>
              <div>
                <dt>{d.performance.yr}</dt>
                <dd title={withheldTitle(d, data.result.data.figures.withheld)}>
                  {fmt(d.performance.hours, { v: num(data.result.data.figures.referenceYield, 2) })}
                </dd>
              </div>
              <div>
                <dt>{d.performance.yf}</dt>
                <dd>{fmt(d.performance.hours, { v: num(data.result.data.figures.finalYield, 2) })}</dd>
              </div>
              <div>
                <dt>{d.performance.pr}</dt>
                <dd title={withheldTitle(d, data.result.data.figures.withheld)}>
                  {num(data.result.data.figures.performanceRatio, 3)}
                </dd>
              </div>
              <div>
                <dt>{d.performance.prStc}</dt>
                <dd title={withheldTitle(d, data.result.data.figures.withheld)}>
                  {num(data.result.data.figures.performanceRatioStc, 3)}
                </dd>
              </div>
              <div>
                <dt>{d.performance.epi}</dt>
                <dd data-figure="epi" title={withheldTitle(d, data.result.data.figures.withheld)}>
                  {num(data.result.data.figures.energyPerformanceIndex, 3)}
                </dd>
              </div>
              <div>
                <dt>{d.performance.availability}</dt>
                <dd data-figure="iec-availability">
                  <a href="#avail-figures">{pct(data.result.data.figures.availability)}</a>
                </dd>
              </div>
            </dl>
            <h3>{d.performance.losses}</h3>
            <dl className="figures">
              <div>
                <dt>{d.performance.downtime}</dt>
                <dd>{num(data.result.data.figures.losses.downtimeKwh, 0)} kWh</dd>
              </div>
              <div>
                <dt>{d.performance.clipping}</dt>
                <dd>{num(data.result.data.figures.losses.clippingKwh, 0)} kWh</dd>
              </div>
              <div>
                <dt>{data.result.data.figures.losses.belowReferenceKwh >= 0 ? d.performance.below : d.performance.surplus}</dt>
                <dd>{num(Math.abs(data.result.data.figures.losses.belowReferenceKwh), 0)} kWh</dd>
              </div>
            </dl>
            {data.result.data.rating !== "complete" ? (
              <p className="muted small" data-rating={data.result.data.rating}>
                {data.result.data.rating === "missing"
                  ? d.rating.missing
                  : fmt(d.rating.partial, { n: data.result.data.unratedDeviceUids.length })}
                {" — "}
                {d.rating.note}
              </p>
            ) : null}
            {data.result.data.figures.dropped ? (
              <p className="muted small">{fmt(d.performance.dropped, { n: data.result.data.figures.dropped })}</p>
            ) : null}
          </section>
          <CurtailmentFigures curtailment={data.result.data.curtailment} d={d} />
          <AvailabilityFigures
            availability={data.result.data.availability}
            d={d}
            names={new Map(data.ofPlant.map((x) => [x.uid, x.name]))}
          />
        </div>
      ) : null}
      {data.result?.tab === "comparison" ? (
        <section className="panel wide chart-panel" aria-label={d.tabs.comparison}>
          {data.result.data.remembered ? (
            <div className="notice-row">
              <p role="status">{d.comparison.remembered}</p>
              <Form method="post">
                <AuthenticityTokenInput />
                <button type="submit" name="intent" value="forget" className="secondary">
                  {d.comparison.forget}
                </button>
              </Form>
            </div>
          ) : null}
          <div className="chart-box" dangerouslySetInnerHTML={{ __html: data.result.chart.svg }} />
          <Legend items={data.result.chart.legend} />
        </section>
      ) : null}
      {data.result?.tab === "ranking" ? (
        <div className="table-wrap">
          <table className="data-table">
            <caption>{d.ranking.caption}</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{d.ranking.plant}</th>
                <th scope="col" className="num">
                  {d.ranking.capacity}
                </th>
                <th scope="col" className="num">
                  {d.ranking.epi}
                </th>
                <th scope="col" className="num">
                  {d.ranking.pr}
                </th>
                <th scope="col" className="num">
                  {d.ranking.availability}
                </th>
                <th scope="col" className="num">
                  {d.ranking.energy}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.result.data.plants.map((p, i) => (
                <tr key={p.plantUid}>
                  <td>{i + 1}</td>
                  <th scope="row">
                    <AppLink
                      to={`/diagnose?${new URLSearchParams({ tab: "performance", plant: p.plantUid, start: data.period.start, end: data.period.end, unit: "1440" })}`}
                    >
                      {p.name}
                    </AppLink>
                  </th>
                  <td className="num">{num(p.capacityKw, 1)} kW</td>
                  <td className="num" data-epi={p.epi ?? ""} data-rating={p.rating} title={withheldTitle(d, p.withheld)}>
                    {p.rating === "missing" ? d.rating.missing : p.epi === null ? d.ranking.none : num(p.epi, 3)}
                    {p.rating === "partial" ? (
                      <>
                        <br />
                        <span className="muted small">{fmt(d.rating.partial, { n: p.unratedInverters })}</span>
                      </>
                    ) : null}
                  </td>
                  <td className="num" title={withheldTitle(d, p.withheld)}>
                    {num(p.pr, 3)}
                  </td>
                  <td className="num" data-availability={p.availability ?? ""}>
                    {pct(p.availability)}
                    {p.availabilityCoverage !== null ? (
                      <>
                        <br />
                        <span className="muted small">{fmt(d.availability.coverage, { pct: pct(p.availabilityCoverage) })}</span>
                      </>
                    ) : null}
                  </td>
                  <td className="num">{num(p.energyKwh, 0)} kWh</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">{d.rating.note}</p>
        </div>
      ) : null}
    </div>
  );
}
