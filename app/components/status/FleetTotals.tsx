/** Fleet totals of the main dashboard (SPEC §3 derived totals, §9 units). */
import type { FleetTotals as Totals } from "../../../domain/contract/pvstatus";
import { formatEnergy, formatPower } from "../../../domain/units";
import { fmt, useT } from "~/i18n";
import { Qty } from "./format";

export function FleetTotals({
  totals,
  plants,
  levels,
}: {
  totals: Totals | null;
  plants: number | null;
  levels?: Record<"1" | "2" | "3" | "4", number>;
}) {
  const t = useT();
  return (
    <section className="status-panel totals-panel" aria-labelledby="totals-title">
      <div className="status-panel-head">
        <h2 id="totals-title">{t.main.totalsTitle}</h2>
        {plants !== null ? <span className="muted">{fmt(t.main.plants, { count: plants })}</span> : null}
      </div>
      {totals ? (
        <dl className="kpi-grid">
          <div className="kpi">
            <dt>{t.main.capacity}</dt>
            <dd>
              <Qty q={formatPower(totals.total_capa * 1000)} />
            </dd>
          </div>
          <div className="kpi kpi-live">
            <dt>{t.main.currentOutput}</dt>
            <dd>
              <Qty q={formatPower(totals.total_iw)} />
            </dd>
          </div>
          <div className="kpi">
            <dt>{t.main.today}</dt>
            <dd>
              <Qty q={formatEnergy(totals.today_gen)} />
            </dd>
          </div>
          <div className="kpi">
            <dt>{t.main.yesterday}</dt>
            <dd>
              <Qty q={formatEnergy(totals.yesterday_gen)} />
            </dd>
          </div>
          <div className="kpi">
            <dt>{t.main.month}</dt>
            <dd>
              <Qty q={formatEnergy(totals.month_gen)} />
            </dd>
          </div>
          <div className="kpi">
            <dt>{t.main.year}</dt>
            <dd>
              <Qty q={formatEnergy(totals.year_gen)} />
            </dd>
          </div>
          <div className="kpi">
            <dt>{t.main.accrue}</dt>
            <dd>
              <Qty q={formatEnergy(totals.accrue_gen)} />
            </dd>
          </div>
        </dl>
      ) : (
        <p className="alert warn" role="status">
          {t.main.totalsUnavailable}
        </p>
      )}
      {levels ? (
        <div className="open-levels">
          <h3>{t.main.openByLevel}</h3>
          <ul>
            {(["1", "2", "3", "4"] as const).map((l) => (
              <li key={l}>
                <span className={`level-badge level-${l}`}>{t.main.levels[`l${l}`]}</span> <strong>{levels[l]}</strong>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
