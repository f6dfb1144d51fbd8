/**
 * The four plant card sizes of SPEC §2 (plus the large line card):
 *   graph  lg   large line chart card — full name, capacity with unit, status, legend, chart
 *          md   medium line chart card — name cut to 17, capacity, legend, small chart
 *          bar  stacked bar chart card — name cut to 12, total capacity in kW, hourly stacked bars of
 *               generation time and irradiance (as sun hours)
 *   grid   md   medium grid card — name, capacity, today's generation hours (2 decimals), current
 *               output, today's / this month's / this year's generation, each with its unit
 *          sm   small grid card — name cut to 9, capacity, generation hours (1 decimal, 4 chars), output
 * The plant name is the card's link to the detail window (stretched over the whole card); the fault
 * tooltip shows on hover and on keyboard focus and is the link's description. Every kind shows the
 * status text of SPEC §2 (StatusIndicator), and a today's generation zeroed by SPEC §5 carries its note.
 */
import { AppLink } from "~/components/AppLink";
import { truncateCardName } from "../../../domain/truncate";
import { formatCapacity, formatGenerationHoursMedium, formatGenerationHoursSmall, type Quantity } from "../../../domain/units";
import { fmt, useT } from "~/i18n";
import type { PlantCardView } from "~/models/pvstatus.server";
import { StatusIndicator } from "./StatusIndicator";
import { pvstatusHref, type CardSize, type LegendSeries } from "./url-state";
import { ZeroedNote } from "~/components/status/ZeroedNote";
import { LazyCardChart } from "~/components/charts/LazyCardChart";

export interface LegendLinks {
  off: readonly LegendSeries[];
  /** URL (search) that toggles the series. */
  href: (series: LegendSeries) => string;
}

interface Props {
  card: PlantCardView;
  graph: boolean;
  size: CardSize;
  detailUrl: string;
  legend: LegendLinks;
}

function Q({ q }: { q: Quantity }) {
  return (
    <>
      <span className="pv-num">{q.value}</span> <span className="pv-unit">{q.unit}</span>
    </>
  );
}

function openDetail(event: React.MouseEvent<HTMLAnchorElement>, url: string, uid: string) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  // A real window (not a tab), as the product's detail view; the link still works without JS.
  const win = window.open(url, `detail-${uid}`, "popup,width=1280,height=860");
  if (win) event.preventDefault();
}

function Legend({ card, legend, bar }: { card: PlantCardView; legend: LegendLinks; bar: boolean }) {
  const all = useT().pvstatus;
  const t = all.legend;
  const item = (series: LegendSeries, label: string) => {
    const on = !legend.off.includes(series);
    return (
      <li>
        <AppLink
          to={pvstatusHref(legend.href(series))}
          replace
          preventScrollReset
          role="button"
          aria-pressed={on}
          title={fmt(t.toggle, { name: label })}
          className={`pv-legend-item pv-legend-${series}`}
          onKeyDown={(e) => {
            if (e.key === " ") {
              e.preventDefault();
              e.currentTarget.click();
            }
          }}
        >
          <span className="pv-swatch" aria-hidden="true" />
          {label}
        </AppLink>
      </li>
    );
  };
  return (
    <ul className="pv-legend" aria-label={t.label}>
      {item("gen", bar ? all.chart.genTime : t.generation)}
      {card.hasIrradiance ? item("irr", t.irradiance) : null}
    </ul>
  );
}

export function PlantCard({ card, graph, size, detailUrl, legend }: Props) {
  const t = useT().pvstatus;
  const capa = formatCapacity(card.capa);
  const tipId = `tip-${card.plant_uid}`;
  const shortName =
    graph && size === "md"
      ? truncateCardName(card.name, "mediumLine")
      : graph && size === "bar"
        ? truncateCardName(card.name, "bar")
        : !graph && size === "sm"
          ? truncateCardName(card.name, "smallGrid")
          : card.name;
  const kind = graph ? (size === "bar" ? "bar" : `line-${size}`) : `grid-${size}`;
  const title = card.faultText ? `${card.name} — ${card.faultText}` : card.name;
  return (
    <article className={`pv-card pv-card-${kind}`} data-status={card.statusData.status} data-uid={card.plant_uid} title={title}>
      <header className="pv-card-head">
        <h3 className="pv-card-name">
          <a
            href={detailUrl}
            target="_blank"
            rel="noopener"
            className="pv-card-link"
            aria-describedby={card.faultText ? tipId : undefined}
            onClick={(e) => openDetail(e, detailUrl, card.plant_uid)}
          >
            {/* A cut name is what the eye reads; the link's name is the whole one (no aria-label that the cut text
                would not match: axe label-content-name-mismatch). */}
            <span aria-hidden="true" className="pv-card-shown">
              {shortName}
            </span>
            <span className="visually-hidden">{fmt(t.card.openDetail, { name: card.name })}</span>
          </a>
        </h3>
        <StatusIndicator status={card.statusData.status} compact={graph ? size !== "lg" : size === "sm"} />
      </header>
      {card.awaitingDevices > 0 ? (
        <p className="pv-card-awaiting awaiting-reading">{fmt(t.card.awaiting, { count: card.awaitingDevices })}</p>
      ) : null}
      {card.faultText ? (
        <p className="pv-tip" id={tipId} role="tooltip">
          <span className="visually-hidden">{t.card.faults}: </span>
          {card.faultText}
        </p>
      ) : null}
      {graph ? (
        <>
          <p className="pv-card-capa">
            <span className="visually-hidden">{t.card.capacity} </span>
            <Q q={capa} />
          </p>
          <Legend card={card} legend={legend} bar={size === "bar"} />
          {/* Drawn from the compact series, on the server and in the browser alike (charts/CardChart.tsx, fetched by the browser with the first graph card: LazyCardChart.tsx). */}
          <div className="pv-chart-box">{card.chart ? <LazyCardChart id={card.plant_uid} data={card.chart} t={t} /> : null}</div>
        </>
      ) : size === "sm" ? (
        <dl className="pv-facts pv-facts-sm">
          <div>
            <dt>{t.card.capacity}</dt>
            <dd>
              <Q q={capa} />
            </dd>
          </div>
          <div>
            <dt>{t.card.genTimeShort}</dt>
            <dd>
              <Q q={{ value: formatGenerationHoursSmall(card.totalGenTime), unit: t.card.hours }} />
            </dd>
          </div>
          <div>
            <dt>{t.card.iw}</dt>
            <dd>
              <Q q={card.genData.iw} />
            </dd>
          </div>
        </dl>
      ) : (
        <dl className="pv-facts">
          <div>
            <dt>{t.card.capacity}</dt>
            <dd>
              <Q q={capa} />
            </dd>
          </div>
          <div>
            <dt>{t.card.genTime}</dt>
            <dd>
              <Q q={{ value: formatGenerationHoursMedium(card.totalGenTime), unit: t.card.hours }} />
            </dd>
          </div>
          <div>
            <dt>{t.card.iw}</dt>
            <dd>
              <Q q={card.genData.iw} />
            </dd>
          </div>
          <div>
            <dt>{t.card.today}</dt>
            <dd>
              <Q q={card.genData.day_accrue} />
              <ZeroedNote zeroed={card.dailysZeroed} />
            </dd>
          </div>
          <div>
            <dt>{t.card.month}</dt>
            <dd>
              <Q q={card.genData.month_accrue} />
            </dd>
          </div>
          <div>
            <dt>{t.card.year}</dt>
            <dd>
              <Q q={card.genData.year_accrue} />
            </dd>
          </div>
        </dl>
      )}
    </article>
  );
}
