// The plant's availability on /diagnose (issue 28 §2): time- and energy-based, each with its data coverage, the gaps
// the energy counter resolved, exclusions and counter anomalies. Figures come from the API (domain/analytics/
// availability.ts); this only words them. Server-rendered, no script needed.
import type { PlantAvailability } from "../../../domain/contract/diagnose";
import { EXCLUSION_KINDS } from "../../../domain/analytics/availability";
import { formatSeoul } from "../../../domain/seoul-time";
import { formatNumber, formatPercent } from "../../../domain/units";
import { fmt } from "~/i18n";
import type { AnalysisCatalogue } from "~/i18n/analysis";

const pct = (v: number | null) => (v === null ? "–" : `${formatPercent(v, 1)}%`);

export function AvailabilityFigures({
  availability: a,
  d,
  names,
}: {
  availability: PlantAvailability | null;
  d: AnalysisCatalogue["diagnose"];
  /** Inverter names by uid (a uid without a name is shown as is). */
  names: ReadonlyMap<string, string>;
}) {
  const w = d.availability;
  const hours = (v: number) => fmt(w.hours, { v: formatNumber(v, 2) });
  return (
    <section className="panel" aria-labelledby="avail-figures" data-section="availability">
      <h2 id="avail-figures">{w.title}</h2>
      {a === null ? (
        <p className="muted">{w.tooLong}</p>
      ) : (
        <>
          <p className="muted small">
            {w.note} ({fmt(w.step, { m: a.stepMinutes })})
          </p>
          <dl className="figures">
            <div>
              <dt>{w.time}</dt>
              <dd data-figure="availability-time">
                {pct(a.time.availability)}
                <br />
                <span className="muted small" data-figure="coverage-time">
                  {fmt(w.coverage, { pct: pct(a.time.coverage) })}
                </span>
              </dd>
            </div>
            <div>
              <dt>{w.energy}</dt>
              <dd data-figure="availability-energy">
                {pct(a.energy.availability)}
                <br />
                <span className="muted small" data-figure="coverage-energy">
                  {fmt(w.coverage, { pct: pct(a.energy.coverage) })}
                </span>
              </dd>
            </div>
            <div>
              <dt>{w.lost}</dt>
              <dd>{formatNumber(a.energy.lostKwh, 1)} kWh</dd>
            </div>
            <div>
              <dt>{w.prAvailable}</dt>
              <dd data-figure="pr-available">{formatNumber(a.performanceRatioAvailable, 3)}</dd>
            </div>
          </dl>
          <h3>{w.gaps}</h3>
          <dl className="figures">
            <div>
              <dt>{w.communication}</dt>
              <dd data-figure="gap-communication">{hours(a.energy.communicationGapHours)}</dd>
            </div>
            <div>
              <dt>{w.outage}</dt>
              <dd data-figure="gap-outage">{hours(a.energy.outageGapHours)}</dd>
            </div>
            <div>
              <dt>{w.unresolved}</dt>
              <dd data-figure="gap-unresolved">{hours(a.energy.unresolvedGapHours)}</dd>
            </div>
            <div>
              <dt>{w.irradianceGap}</dt>
              <dd data-figure="gap-irradiance">{hours(a.irradianceGapHours)}</dd>
            </div>
          </dl>
          <h3>{w.exclusions}</h3>
          <dl className="figures">
            {EXCLUSION_KINDS.map((k) => (
              <div key={k}>
                <dt>{w.kinds[k]}</dt>
                <dd>
                  {hours(a.exclusions[k].hours)} · {formatNumber(a.exclusions[k].expectedKwh, 1)} kWh
                </dd>
              </div>
            ))}
          </dl>
          {a.counterAnomalyCount ? (
            <div className="table-wrap">
              <table className="data-table" data-section="counter-anomalies">
                <caption>
                  {w.anomalyCaption} — {fmt(w.anomalies, { n: a.counterAnomalyCount })}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{w.at}</th>
                    <th scope="col">{w.inverter}</th>
                    <th scope="col">{w.kind}</th>
                    <th scope="col" className="num">
                      {w.change}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {a.counterAnomalies.map((x) => (
                    <tr key={`${x.inverterId}-${x.t}`}>
                      <td>{formatSeoul(x.t, "YYYY-MM-DD HH:mm")}</td>
                      <td>{names.get(x.inverterId) ?? x.inverterId}</td>
                      <td>{w.anomalyKinds[x.kind]}</td>
                      <td className="num">
                        {formatNumber(x.fromKwh, 1)} → {formatNumber(x.toKwh, 1)} kWh
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="muted small">{w.none}</p>
          )}
        </>
      )}
    </section>
  );
}
