/**
 * /measurement — what the devices say now and over the last 24 hours (SPEC §2 Measurement tabs, §7, §9).
 * `?plant=&kind=1|2|4&device=` (no device = "all (integrated)"): a GET form and links, so it works without
 * JavaScript; with it the page refreshes like the status screens. The 24-hour chart is server-rendered SVG
 * at unit 10 (keys never past now), irradiance drawn per irradiance mode (SPEC §4), values sanitised (§5).
 */
import { formatNumber } from "../../domain/units";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useRevalidator } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { SERIES_COLORS } from "../../domain/chart";
import type { BoardNow, DeviceMeasurement, EnvNow, InverterNow, WindowResponse } from "../../domain/contract/measurement";
import { MEASUREMENT_DEVICE_KINDS } from "../../domain/device";
import { referenceGenerationKw } from "../../domain/reference-generation";
import { formatSeoul } from "../../domain/seoul-clock";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { NameFinder } from "~/components/NameFinder";
import { renderTimeChart } from "~/components/analysis/time-chart.server";
import { usePolling } from "~/components/status/usePolling";
import { assertCsrf } from "~/utils/csrf.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { fmt } from "~/i18n";
import { analysisMessages, useAnalysisT, type AnalysisCatalogue } from "~/i18n/analysis";
import { measurement, measurementDevices, measurementWindow, releaseGridAlarms } from "~/models/measurement.server";
import { readPreferences } from "~/utils/preferences.server";
import { apiFailure, formFailure, parseSearch } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";

const Search = z.object({
  plant: z.string().trim().max(64).optional(),
  kind: z.coerce
    .number()
    .int()
    .refine((k) => (MEASUREMENT_DEVICE_KINDS as readonly number[]).includes(k), "bad_kind")
    .default(1),
  device: z.string().trim().max(64).optional(),
  /** A part of a plant's name typed in the search field (resolved here; several matches are listed). */
  find: z.string().trim().max(100).optional(),
});

const REFRESH_MS = 60_000;

export const meta: MetaFunction = ({ matches }) => {
  const t = analysisMessages(metaLocale(matches));
  return [{ title: `${t.measurement.title} · ${t.appName}` }];
};

type Line = { name: string; color: string; dash?: string; values: Array<number | null> };

/** Sums aligned series (null where every part is null). */
function sumSeries(parts: Array<Array<number | null>>, n: number): Array<number | null> {
  return Array.from({ length: n }, (_, i) => {
    let any = false;
    let s = 0;
    for (const p of parts) {
      const v = p[i];
      if (v === null || v === undefined) continue;
      s += v;
      any = true;
    }
    return any ? Number(s.toFixed(3)) : null;
  });
}

/** Mean over sensors per key. */
function meanSeries(parts: Array<Array<number | null>>, n: number): Array<number | null> {
  return Array.from({ length: n }, (_, i) => {
    const vs = parts.map((p) => p[i]).filter((v): v is number => v !== null && v !== undefined);
    return vs.length ? vs.reduce((a, b) => a + b, 0) / vs.length : null;
  });
}

function chartFor(
  t: AnalysisCatalogue,
  kind: number,
  windows: WindowResponse[],
  env: WindowResponse[],
  device: string | undefined,
  capacityKw: number,
) {
  const labels = windows[0]?.times ?? env[0]?.times ?? [];
  const n = labels.length;
  const own = windows.flatMap((w) => w.devices).filter((d) => !device || d.uid === device);
  const sensors = env.flatMap((w) => w.devices);
  const mode = env.reduce((m, w) => m | (w.irradianceMode ?? 0), 0);
  const iis = meanSeries(
    sensors.map((s) => s.values.iis ?? []),
    n,
  );
  const his = meanSeries(
    sensors.map((s) => s.values.his ?? []),
    n,
  );
  const sts = meanSeries(
    sensors.map((s) => s.values.sts ?? []),
    n,
  );
  const irradiance: Line[] = [];
  if (mode & 2) irradiance.push({ name: t.measurement.series.poa, color: SERIES_COLORS.irradiance, values: iis });
  if (mode & 1) irradiance.push({ name: t.measurement.series.horizontal, color: "#9C36B5", dash: "2 3", values: his });
  const right = irradiance.length ? { unit: "W/m²", max: 1100, series: irradiance } : undefined;
  let left: { unit: string; max?: number; series: Line[] };
  if (kind === 1) {
    const power = sumSeries(
      own.map((d) => d.values.power ?? []),
      n,
    );
    const reference = iis.map((g, i) => (g === null ? null : Number(referenceGenerationKw(capacityKw, g, sts[i]).toFixed(3))));
    left = {
      unit: "kW",
      max: capacityKw || undefined,
      series: [
        { name: t.measurement.series.power, color: SERIES_COLORS.generation, values: power },
        { name: t.measurement.series.reference, color: SERIES_COLORS.reference, dash: "6 4", values: reference },
      ],
    };
  } else if (kind === 2) {
    const palette = ["#1C7ED6", "#0B7285", "#5F3DC4", "#A61E4D"];
    left = {
      unit: "A",
      series: own.map((d, i) => ({
        name: d.name,
        color: palette[i % palette.length]!,
        dash: i ? `${2 + i} 2` : undefined,
        values: d.values.current ?? [],
      })),
    };
  } else {
    left = { unit: "W/m²", max: 1100, series: irradiance };
    return {
      labels,
      lines: [...irradiance, { name: t.measurement.series.module, color: "#E8590C", dash: "4 2", values: sts }],
      svg: renderTimeChart({
        id: "m24",
        title: t.measurement.chart24h,
        labels,
        left,
        right: { unit: "°C", series: [{ name: t.measurement.series.module, color: "#E8590C", dash: "4 2", values: sts }] },
        noData: t.measurement.never,
      }),
    };
  }
  return {
    labels,
    lines: [...left.series, ...(right?.series ?? [])],
    svg: renderTimeChart({ id: "m24", title: t.measurement.chart24h, labels, left, right, noData: t.measurement.never }),
  };
}

/** A card's inverter values: the details only where the RTU sends them, each fault's name in the member's language. */
type CardInverter = Pick<InverterNow, "acPowerKw" | "todayKwh" | "totalKwh" | "running"> &
  Partial<Omit<InverterNow, "faults">> & {
    faults: Array<{ code: number; hex: string; name: string }>;
  };

/** What a device card shows of a device's newest values — the page's data carries nothing else. */
function cardOf(m: DeviceMeasurement, locale: string): Card {
  const inv = m.inverter;
  let inverter: CardInverter | undefined;
  if (inv) {
    const faults = inv.faults.map((f) => ({
      code: f.code,
      hex: f.hex,
      name: (locale === "ko" ? f.name_ko : f.name_en) || f.hex,
    }));
    const { faults: _all, ...values } = inv;
    inverter = m.invDetail
      ? { ...values, faults }
      : { acPowerKw: inv.acPowerKw, todayKwh: inv.todayKwh, totalKwh: inv.totalKwh, running: inv.running, faults };
  }
  return {
    device: { uid: m.device.uid, name: m.device.name },
    ts: m.ts,
    invDetail: m.invDetail,
    inverter,
    board: m.board,
    env: m.env,
  };
}
type Card = {
  device: { uid: string; name: string };
  ts: number | null;
  invDetail: boolean;
  inverter?: CardInverter;
  board?: BoardNow;
  env?: EnvNow;
};

/** A grid-side row: name, breaker state and what the release form needs. */
const gridRowOf = (m: DeviceMeasurement) => ({
  device: { uid: m.device.uid, name: m.device.name, mac: m.device.mac, address: m.device.address, kind: m.device.kind },
  breaker: m.breaker,
});

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "measurement");
  const q = parseSearch(Search, request);
  const locale = readPreferences(request).locale;
  const t = analysisMessages(locale);
  // A name typed in the search field: one match (or one exact name) is chosen, several are listed as links.
  let matches: { find: string; plants: Array<{ uid: string; name: string }>; more: boolean } | null = null;
  if (q.find) {
    const found = (await measurementDevices(accessToken, { q: q.find, limit: 20 })).matches ?? { plants: [], more: false };
    const exact = found.plants.filter((p) => p.name.trim().toLowerCase() === q.find!.toLowerCase());
    const pick = found.plants.length === 1 ? found.plants[0] : exact.length === 1 ? exact[0] : undefined;
    if (pick) throw redirect(`/measurement?${new URLSearchParams({ plant: pick.uid, kind: String(q.kind) })}`);
    matches = { find: q.find, ...found };
  }
  // The chosen plant and its devices — neither the member's whole device list nor every plant.
  const { plant, plantUid, devices } = await measurementDevices(accessToken, { plantUid: q.plant });
  if (!plantUid)
    return json({
      q,
      plant,
      matches,
      plantUid: null,
      tabs: [] as Array<{ uid: string; name: string }>,
      cards: null,
      grid: null,
      chart: null,
      at: Date.now(),
    });
  const ofKind = devices.filter((d) => d.kind === q.kind);
  const device = q.device && ofKind.some((d) => d.uid === q.device) ? q.device : undefined;
  const now = Date.now();
  const start = formatSeoul(now - 86_400_000, "YYYY-MM-DD HH:mm:ss");
  const end = formatSeoul(now + 60_000, "YYYY-MM-DD HH:mm:ss");
  const rtus = [...new Set(devices.map((d) => d.rtu_uid).filter((r): r is string => !!r))];
  const rtusOf = (kinds: number[]) => [
    ...new Set(
      devices
        .filter((d) => kinds.includes(d.kind))
        .map((d) => d.rtu_uid!)
        .filter(Boolean),
    ),
  ];
  const windowKind = q.kind === 1 ? "rpi" : q.kind === 2 ? "rpg" : "rpe";
  const [data, grid, windows, env] = await Promise.all([
    measurement(accessToken, device ? { deviceUid: device } : { plantUid, kind: q.kind }),
    q.kind === 2 && devices.some((d) => d.kind === 7 || d.kind === 8)
      ? measurement(accessToken, { plantUid, kind: 7 })
      : Promise.resolve(null),
    q.kind === 4
      ? Promise.resolve([])
      : Promise.all(rtusOf([q.kind]).map((r) => measurementWindow(accessToken, windowKind, r, start, end))),
    Promise.all(rtusOf([4]).map((r) => measurementWindow(accessToken, "rpe", r, start, end))),
  ]);
  void rtus;
  const capacityKw = (device ? ofKind.filter((d) => d.uid === device) : ofKind).reduce((a, d) => a + (d.capa ?? 0) * 0.01, 0);
  const windowsOfKind = windows.map((w) => ({ ...w, devices: w.devices.filter((d) => d.kind === q.kind) }));
  const chart = chartFor(t, q.kind, windowsOfKind, env, device, capacityKw);
  // Only what the page shows: the sub-tabs' names, the cards' values, the chart as drawn (no device list, no series).
  return json({
    q: { ...q, device },
    plant,
    matches,
    plantUid,
    tabs: ofKind.map((d) => ({ uid: d.uid, name: d.name })),
    cards: data.devices.map((m) => cardOf(m, locale)),
    grid: grid ? grid.devices.map(gridRowOf) : null,
    at: now,
    chart: { svg: chart.svg, legend: chart.lines.map((l) => ({ name: l.name, color: l.color, dash: l.dash ?? null })) },
  });
}

const ReleaseForm = z.object({
  mac: z.string().trim().min(1).max(32),
  address: z.coerce.number().int().min(0).max(65535),
  kind: z.coerce.number().int(),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken } = requireSection(request, context, "measurement");
  const form = await request.formData();
  await assertCsrf(form, request);
  const t = analysisMessages(readPreferences(request).locale);
  const parsed = ReleaseForm.safeParse(Object.fromEntries(form));
  const values = {
    mac: String(form.get("mac") ?? ""),
    address: String(form.get("address") ?? ""),
    kind: String(form.get("kind") ?? ""),
  };
  if (!parsed.success) return formFailure("release", { _form: "invalid_input" }, values);
  try {
    const res = await releaseGridAlarms(accessToken, parsed.data);
    const back = new URL(request.url);
    return redirectWithFlash(`/measurement${back.search}`, fmt(t.measurement.grid.released, { n: res.released }));
  } catch (error) {
    return apiFailure("release", error, values);
  }
}

const n1 = (v: number | null | undefined, d = 1) => formatNumber(v, d);

function Value({ label, v, unit, d = 1 }: { label: string; v: number | null | undefined; unit: string; d?: number }) {
  return (
    <div className="m-value">
      <dt>{label}</dt>
      <dd>
        {n1(v, d)}
        {v === null || v === undefined ? null : <span className="unit"> {unit}</span>}
      </dd>
    </div>
  );
}

function DeviceCard({ m, t }: { m: Card; t: AnalysisCatalogue }) {
  const when =
    m.ts === null ? t.measurement.never : fmt(t.measurement.lastReading, { time: formatSeoul(m.ts, "YYYY-MM-DD HH:mm") });
  return (
    <article className="m-card" aria-labelledby={`m-${m.device.uid}`}>
      <header>
        <h3 id={`m-${m.device.uid}`}>{m.device.name}</h3>
        <p className="muted">{when}</p>
      </header>
      {m.inverter ? (
        <>
          <p className={`m-state ${m.inverter.faults.length ? "bad" : m.inverter.running ? "ok" : ""}`}>
            <span aria-hidden="true">{m.inverter.faults.length ? "▲" : m.inverter.running ? "●" : "○"}</span>{" "}
            {m.inverter.faults.length
              ? t.measurement.inverter.fault
              : m.inverter.running
                ? t.measurement.inverter.running
                : t.measurement.inverter.stopped}
          </p>
          {m.inverter.faults.length ? (
            <ul className="m-faults">
              {m.inverter.faults.map((f) => (
                <li key={f.code}>
                  <code>{f.hex}</code> {f.name}
                </li>
              ))}
            </ul>
          ) : null}
          <dl className="m-values">
            <Value label={t.measurement.inverter.acPower} v={m.inverter.acPowerKw} unit="kW" d={2} />
            <Value label={t.measurement.inverter.today} v={m.inverter.todayKwh} unit="kWh" />
            <Value
              label={t.measurement.inverter.total}
              v={m.inverter.totalKwh === null ? null : m.inverter.totalKwh / 1000}
              unit="MWh"
              d={2}
            />
            {m.invDetail ? (
              <>
                <Value label={t.measurement.inverter.acVoltage} v={m.inverter.acVoltageV} unit="V" />
                <Value label={t.measurement.inverter.acCurrent} v={m.inverter.acCurrentA} unit="A" />
                <Value label={t.measurement.inverter.frequency} v={m.inverter.frequencyHz} unit="Hz" d={2} />
                <Value label={t.measurement.inverter.powerFactor} v={m.inverter.powerFactor} unit="" d={3} />
                <Value label={t.measurement.inverter.dcVoltage} v={m.inverter.dcVoltageV} unit="V" />
                <Value label={t.measurement.inverter.dcCurrent} v={m.inverter.dcCurrentA} unit="A" />
                <Value label={t.measurement.inverter.dcPower} v={m.inverter.dcPowerKw} unit="kW" d={2} />
                <Value
                  label={t.measurement.inverter.efficiency}
                  v={m.inverter.efficiency == null ? null : m.inverter.efficiency * 100}
                  unit="%"
                />
              </>
            ) : null}
          </dl>
          {!m.invDetail ? <p className="muted small">{t.measurement.inverter.detailsHidden}</p> : null}
        </>
      ) : null}
      {m.board ? (
        <>
          <p className={`m-state ${m.board.lowStrings ? "bad" : "ok"}`}>
            <span aria-hidden="true">{m.board.lowStrings ? "▲" : "●"}</span>{" "}
            {m.board.lowStrings ? fmt(t.measurement.board.lowCount, { n: m.board.lowStrings }) : t.measurement.board.allOk}
          </p>
          <dl className="m-values">
            <Value label={t.measurement.board.voltage} v={m.board.voltageV} unit="V" />
            <Value label={t.measurement.board.total} v={m.board.totalCurrentA} unit="A" />
            <Value label={t.measurement.board.median} v={m.board.median} unit="A" d={2} />
          </dl>
          <div className="table-wrap">
            <table className="data-table strings">
              <caption>{fmt(t.measurement.board.caption, { name: m.device.name })}</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col" className="num">
                    {t.measurement.board.current}
                  </th>
                  <th scope="col" className="num">
                    {t.measurement.board.ratio}
                  </th>
                  <th scope="col">{t.measurement.inverter.state}</th>
                </tr>
              </thead>
              <tbody>
                {m.board.strings.map((s) => (
                  <tr key={s.channel} className={s.low ? "low" : undefined}>
                    <th scope="row">{fmt(t.measurement.board.string, { n: s.channel })}</th>
                    <td className="num">{n1(s.currentA, 2)} A</td>
                    <td className="num">{s.ratio === null ? "–" : `${Math.round(s.ratio * 100)}%`}</td>
                    <td>{s.low ? <strong className="flag">▲ {t.measurement.board.low}</strong> : t.measurement.board.ok}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {m.env ? (
        <dl className="m-values">
          <Value label={t.measurement.env.poa} v={m.env.poa} unit="W/m²" d={0} />
          <Value label={t.measurement.env.horizontal} v={m.env.horizontal} unit="W/m²" d={0} />
          <Value label={t.measurement.env.module} v={m.env.moduleC} unit="°C" />
          <Value label={t.measurement.env.ambient} v={m.env.ambientC} unit="°C" />
        </dl>
      ) : null}
    </article>
  );
}

export default function MeasurementScreen() {
  const data = useLoaderData<typeof loader>();
  const t = useAnalysisT();
  const revalidator = useRevalidator();
  usePolling(() => revalidator.state === "idle" && revalidator.revalidate(), REFRESH_MS);
  const href = (o: { kind?: number; device?: string | null }) => {
    const u = new URLSearchParams();
    if (data.plantUid) u.set("plant", data.plantUid);
    u.set("kind", String(o.kind ?? data.q.kind));
    if (o.device) u.set("device", o.device);
    return `/measurement?${u}`;
  };
  const ofKind = data.tabs;
  return (
    <div className="analysis-screen">
      <h1>{t.measurement.title}</h1>
      {!data.plant ? (
        <p>{t.measurement.noPlants}</p>
      ) : (
        <>
          <Form method="get" className="inline-form" aria-label={t.measurement.choosePlant}>
            <div className="field">
              <label htmlFor="m-find">{t.measurement.findPlant}</label>
              <NameFinder
                id="m-find"
                section="measurement"
                defaultValue={data.matches?.find ?? data.plant.name}
                placeholder={t.measurement.findPlaceholder}
                suggestions={data.matches?.plants.map((p) => p.name) ?? []}
              />
            </div>
            <input type="hidden" name="kind" value={data.q.kind} />
            <button type="submit">{t.measurement.show}</button>
          </Form>
          {data.matches ? (
            <section className="panel name-matches" aria-live="polite">
              {data.matches.plants.length ? (
                <>
                  <p>{fmt(t.measurement.findMatches, { find: data.matches.find })}</p>
                  <ul>
                    {data.matches.plants.map((p) => (
                      <li key={p.uid}>
                        <AppLink to={`/measurement?${new URLSearchParams({ plant: p.uid, kind: String(data.q.kind) })}`}>
                          {p.name}
                        </AppLink>
                      </li>
                    ))}
                  </ul>
                  {data.matches.more ? <p className="muted small">{t.measurement.findMore}</p> : null}
                </>
              ) : (
                <p role="alert">{fmt(t.measurement.findNoMatch, { find: data.matches.find })}</p>
              )}
            </section>
          ) : null}
          <nav aria-label={t.measurement.tabs.label} className="tabs-nav">
            <ul className="tab-list">
              {MEASUREMENT_DEVICE_KINDS.map((k) => (
                <li key={k}>
                  <AppLink to={href({ kind: k })} aria-current={data.q.kind === k ? "page" : undefined}>
                    {t.measurement.tabs[`k${k}` as "k1"]}
                  </AppLink>
                </li>
              ))}
            </ul>
          </nav>
          {ofKind.length ? (
            <nav aria-label={t.measurement.tabs[`k${data.q.kind}` as "k1"]} className="sub-tabs">
              <ul className="tab-list small">
                <li>
                  <AppLink to={href({})} aria-current={!data.q.device ? "page" : undefined}>
                    {t.measurement.all}
                  </AppLink>
                </li>
                {ofKind.map((d) => (
                  <li key={d.uid}>
                    <AppLink to={href({ device: d.uid })} aria-current={data.q.device === d.uid ? "page" : undefined}>
                      {d.name}
                    </AppLink>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {data.chart ? (
            <section className="panel wide chart-panel" aria-labelledby="m-chart-title">
              <h2 id="m-chart-title">{t.measurement.chart24h}</h2>
              <div className="chart-box" dangerouslySetInnerHTML={{ __html: data.chart.svg }} />
              <ul className="chart-legend">
                {data.chart.legend.map((l) => (
                  <li key={l.name}>
                    <svg width="28" height="10" aria-hidden="true">
                      <line x1="0" x2="28" y1="5" y2="5" stroke={l.color} strokeWidth="3" strokeDasharray={l.dash ?? undefined} />
                    </svg>{" "}
                    {l.name}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {data.cards && data.cards.length ? (
            <section aria-label={t.measurement.tabs[`k${data.q.kind}` as "k1"]} className="m-cards">
              {data.cards.map((m) => (
                <DeviceCard key={m.device.uid} m={m} t={t} />
              ))}
            </section>
          ) : (
            <p>{t.measurement.noDevices}</p>
          )}
          {data.grid && data.grid.length ? (
            <section className="panel wide" aria-labelledby="m-grid-title">
              <h2 id="m-grid-title">{t.measurement.grid.title}</h2>
              <div className="table-wrap">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">{t.measurement.plant}</th>
                      <th scope="col">{t.measurement.grid.state}</th>
                      <th scope="col" className="num">
                        {t.measurement.grid.leakage}
                      </th>
                      <th scope="col" className="num">
                        {t.measurement.grid.power}
                      </th>
                      <th scope="col" className="num">
                        {t.measurement.grid.voltage}
                      </th>
                      <th scope="col" />
                    </tr>
                  </thead>
                  <tbody>
                    {data.grid.map((g) => (
                      <tr key={g.device.uid}>
                        <th scope="row">{g.device.name}</th>
                        <td>
                          {g.breaker?.state === 1
                            ? `● ${t.measurement.grid.closed}`
                            : g.breaker?.state === 0
                              ? `○ ${t.measurement.grid.open}`
                              : "–"}
                        </td>
                        <td className="num">{n1(g.breaker?.leakageMa)} mA</td>
                        <td className="num">{n1(g.breaker?.powerKw, 1)} kW</td>
                        <td className="num">{n1(g.breaker?.voltageV, 0)} V</td>
                        <td>
                          {g.breaker?.activeAlarms && g.device.mac && g.device.address !== null ? (
                            <Form method="post" className="inline-form">
                              <AuthenticityTokenInput />
                              <input type="hidden" name="mac" value={g.device.mac} />
                              <input type="hidden" name="address" value={g.device.address} />
                              <input type="hidden" name="kind" value={g.device.kind} />
                              <span>{fmt(t.measurement.grid.alarms, { n: g.breaker.activeAlarms })}</span>{" "}
                              <button type="submit" name="intent" value="release" className="secondary">
                                {t.measurement.grid.release}
                              </button>
                            </Form>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
