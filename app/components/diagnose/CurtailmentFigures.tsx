// Curtailment on /diagnose (issue 28 §3): the period's curtailment and output-limit orders, the hours under them and
// the energy lost in them (domain/curtailment.ts, from the API). Their hours are left out of availability and PR.
// Server-rendered, no script needed.
import type { GenerateResponse } from "../../../domain/contract/diagnose";
import { formatOrderLimit } from "../../../domain/curtailment";
import { formatNumber } from "../../../domain/units";
import { fmt } from "~/i18n";
import type { AnalysisCatalogue } from "~/i18n/analysis";

export function CurtailmentFigures({
  curtailment: c,
  d,
}: {
  curtailment: GenerateResponse["curtailment"];
  d: AnalysisCatalogue["diagnose"];
}) {
  const w = d.curtailment;
  return (
    <section className="panel" aria-labelledby="curtailment-figures" data-section="curtailment">
      <h2 id="curtailment-figures">{w.title}</h2>
      {c.orders === 0 ? (
        <p className="muted">{w.none}</p>
      ) : (
        <>
          <p className="muted small">{w.note}</p>
          <dl className="figures">
            <div>
              <dt>{w.orders}</dt>
              <dd data-figure="curtailment-orders">{c.orders}</dd>
            </div>
            <div>
              <dt>{w.hours}</dt>
              <dd data-figure="curtailment-hours">{fmt(d.availability.hours, { v: formatNumber(c.hours, 2) })}</dd>
            </div>
            <div>
              <dt>{w.lost}</dt>
              <dd data-figure="curtailment-lost">{c.lostKwh === null ? w.notComputed : `${formatNumber(c.lostKwh, 1)} kWh`}</dd>
            </div>
          </dl>
          <div className="table-wrap">
            <table className="data-table">
              <caption>{w.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{w.start}</th>
                  <th scope="col">{w.end}</th>
                  <th scope="col" className="num">
                    {w.limit}
                  </th>
                  <th scope="col">{w.source}</th>
                </tr>
              </thead>
              <tbody>
                {c.list.map((o) => (
                  <tr key={o.id}>
                    <td>{o.start}</td>
                    <td>{o.end}</td>
                    <td className="num">{formatOrderLimit(o)}</td>
                    <td>
                      {w.sources[o.source]}
                      {o.note ? <span className="muted small"> · {o.note}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
