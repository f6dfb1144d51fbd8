/** The alarm figures' tables (/alarm/figures): in all and per code, plant and group (issue 29 §2). */
import type { AlarmFigureView, AlarmFiguresResponse } from "../../../domain/contract/alarm";
import { formatNumber } from "../../../domain/units";
import { fmt } from "~/i18n";
import type { AlarmCatalogue } from "~/i18n/alarm";

function minutes(t: AlarmCatalogue, ms: number | null) {
  return ms === null ? t.figures.none : fmt(t.figures.minutes, { n: formatNumber(ms / 60_000, 1) });
}

function FigureCells({ t, f }: { t: AlarmCatalogue; f: AlarmFigureView }) {
  const c = t.figures.col;
  return (
    <>
      <td className="num" data-label={c.count}>
        {formatNumber(f.count, 0)}
      </td>
      <td className="num" data-label={c.rate}>
        {f.perHundredPlantsPerDay === null ? t.figures.none : formatNumber(f.perHundredPlantsPerDay, 2)}
      </td>
      <td className="num" data-label={c.nuisance}>
        {f.nuisanceShare === null ? t.figures.none : `${formatNumber(f.nuisanceShare * 100, 1)}% (${f.nuisance})`}
      </td>
      <td className="num" data-label={c.ack}>
        {minutes(t, f.meanToAckMs)}
      </td>
      <td className="num" data-label={c.clear}>
        {minutes(t, f.meanToClearMs)}
      </td>
    </>
  );
}

function FigureTable({
  t,
  id,
  title,
  rows,
}: {
  t: AlarmCatalogue;
  id: string;
  title: string;
  rows: Array<{ key: string; f: AlarmFigureView }>;
}) {
  const c = t.figures.col;
  return (
    <section className="panel wide" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="table-wrap">
        <table className="data-table stack-on-phone">
          <thead>
            <tr>
              <th scope="col">{c.key}</th>
              <th scope="col">{c.count}</th>
              <th scope="col">{c.rate}</th>
              <th scope="col">{c.nuisance}</th>
              <th scope="col">{c.ack}</th>
              <th scope="col">{c.clear}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" data-label={c.key}>
                  {r.key}
                </th>
                <FigureCells t={t} f={r.f} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function AlarmFigures({
  t,
  data,
  codeName,
}: {
  t: AlarmCatalogue;
  data: AlarmFiguresResponse;
  codeName: (code: number) => string;
}) {
  return (
    <>
      <p className="muted small">{t.figures.nuisanceHelp}</p>
      <FigureTable t={t} id="fig-total" title={t.figures.total} rows={[{ key: t.figures.total, f: data.total }]} />
      {data.total.count === 0 ? (
        <p className="muted">{t.figures.empty}</p>
      ) : (
        <>
          <FigureTable
            t={t}
            id="fig-code"
            title={t.figures.byCode}
            rows={data.byCode.map((r) => ({ key: `${r.code} ${codeName(r.code)}`, f: r }))}
          />
          <FigureTable
            t={t}
            id="fig-group"
            title={t.figures.byGroup}
            rows={data.byGroup.map((r) => ({ key: r.groupName ?? t.figures.noGroup, f: r }))}
          />
          <FigureTable
            t={t}
            id="fig-plant"
            title={t.figures.byPlant}
            rows={data.byPlant.map((r) => ({ key: r.plantName, f: r }))}
          />
        </>
      )}
    </>
  );
}
