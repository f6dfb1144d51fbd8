/**
 * Monitoring screen (SPEC §2): tabs gen (default) and grid, keyword search, sort by plant name or current
 * time, ascending or descending (default name ascending). Every control is a link or a GET form, so the
 * view lives in the URL and works without JS. It sits on the main dashboard below the totals.
 */
import { Form } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import {
  DEFAULT_MONITOR_VIEW,
  monitorViewParams,
  type MonitorKind,
  type MonitorSort,
  type MonitorView,
} from "../../../domain/monitoring";
import {
  formatCapacity,
  formatEnergy,
  formatGenerationHoursMedium,
  formatNumber,
  formatPower,
  formatVoltage,
} from "../../../domain/units";

/** A plant's grid voltage at its own level (kV for a VCB, V otherwise); levels are never averaged together. */
function voltage(v: number | null | undefined, kind: number | null | undefined) {
  const q = formatVoltage(v, kind);
  return q ? `${q.value} ${q.unit}` : "–";
}
import { fmt, useT } from "~/i18n";
import type { MonitorRow } from "../../../domain/contract/monitor";
import { DetailLink } from "./DetailLink";
import { Qty, SeoulTime } from "./format";
import { StatusBadge } from "./labels";
import { ZeroedNote } from "./ZeroedNote";
import { nextOrder, SortHeader } from "~/components/DataTable";

const href = (view: MonitorView) => {
  const qs = monitorViewParams(view).toString();
  return qs ? `/?${qs}#monitoring` : "/#monitoring";
};

/** A column header that sorts the monitoring list by `sort` (the shared SortHeader, linking to this view). */
function MonitorSortHeader({ view, sort, label }: { view: MonitorView; sort: MonitorSort; label: string }) {
  const active = view.sort === sort;
  return (
    <SortHeader
      label={label}
      href={href({ ...view, sort, order: nextOrder(active, view.order) })}
      active={active}
      order={view.order}
    />
  );
}

export function Monitoring({ view, rows }: { view: MonitorView; rows: MonitorRow[] }) {
  const t = useT();
  const tabs: MonitorKind[] = ["gen", "grid"];
  return (
    <section className="status-panel monitoring" id="monitoring" aria-labelledby="monitoring-title">
      <div className="status-panel-head">
        <h2 id="monitoring-title">{t.monitoring.title}</h2>
        <span className="muted">{fmt(t.monitoring.count, { count: rows.length })}</span>
      </div>
      <nav aria-label={t.monitoring.tabsLabel} className="subnav tabs-nav">
        {tabs.map((tab) => (
          <AppLink key={tab} to={href({ ...view, tab })} aria-current={view.tab === tab ? "page" : undefined} preventScrollReset>
            {t.monitoring.tabs[tab]}
          </AppLink>
        ))}
      </nav>
      <Form
        method="get"
        action="/"
        className="filters monitor-filters"
        aria-label={t.monitoring.controls}
        preventScrollReset
        key={JSON.stringify(view)}
      >
        {view.tab !== DEFAULT_MONITOR_VIEW.tab ? <input type="hidden" name="tab" value={view.tab} /> : null}
        <div className="field">
          <label htmlFor="monitor-q">{t.monitoring.keyword}</label>
          <input
            id="monitor-q"
            name="q"
            type="search"
            defaultValue={view.keyword}
            placeholder={t.monitoring.keywordPlaceholder}
            maxLength={50}
          />
        </div>
        <div className="field">
          <label htmlFor="monitor-sort">{t.monitoring.sort}</label>
          <select id="monitor-sort" name="sort" defaultValue={view.sort}>
            <option value="name">{t.monitoring.sortName}</option>
            <option value="time">{t.monitoring.sortTime}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="monitor-order">{t.monitoring.order}</label>
          <select id="monitor-order" name="order" defaultValue={view.order}>
            <option value="asc">{t.monitoring.asc}</option>
            <option value="desc">{t.monitoring.desc}</option>
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit">{t.monitoring.apply}</button>
          <AppLink to={href({ ...DEFAULT_MONITOR_VIEW, tab: view.tab })} className="button secondary" preventScrollReset>
            {t.monitoring.reset}
          </AppLink>
        </div>
      </Form>
      {rows.length === 0 ? (
        <p className="muted empty-note">{t.monitoring.empty}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table monitor-table stack-on-phone">
            <caption className="visually-hidden">
              {fmt(t.monitoring.caption, {
                tab: t.monitoring.tabs[view.tab],
                sort: view.sort === "name" ? t.monitoring.sortName : t.monitoring.sortTime,
                order: view.order === "asc" ? t.monitoring.asc : t.monitoring.desc,
              })}
            </caption>
            <thead>
              <tr>
                <MonitorSortHeader view={view} sort="name" label={t.monitoring.col.plant} />
                <MonitorSortHeader view={view} sort="time" label={t.monitoring.col.time} />
                <th scope="col">{t.monitoring.col.status}</th>
                {view.tab === "gen" ? (
                  <>
                    <th scope="col" className="num">
                      {t.monitoring.col.capa}
                    </th>
                    <th scope="col" className="num">
                      {t.monitoring.col.iw}
                    </th>
                    <th scope="col" className="num">
                      {t.monitoring.col.dailys}
                    </th>
                    <th scope="col" className="num">
                      {t.monitoring.col.genTime}
                    </th>
                  </>
                ) : (
                  <>
                    <th scope="col" className="num">
                      {t.monitoring.col.devices}
                    </th>
                    <th scope="col" className="num">
                      {t.monitoring.col.power}
                    </th>
                    <th scope="col" className="num">
                      {t.monitoring.col.voltage}
                    </th>
                    <th scope="col" className="num">
                      {t.monitoring.col.current}
                    </th>
                    <th scope="col" className="num">
                      {t.monitoring.col.breakers}
                    </th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.plant_uid}>
                  <th scope="row" className="plant-cell">
                    <DetailLink kind="plant" uid={r.plant_uid} name={r.plant_name} />
                  </th>
                  <td className="nowrap" data-label={t.monitoring.col.time}>
                    {r.time === null ? <span className="muted">{t.monitoring.never}</span> : <SeoulTime ts={r.time} />}
                  </td>
                  <td data-label={t.monitoring.col.status}>
                    <StatusBadge t={t} status={r.status} />
                  </td>
                  {view.tab === "gen" ? (
                    <>
                      <td className="num" data-label={t.monitoring.col.capa}>
                        <Qty q={formatCapacity(r.capa)} />
                      </td>
                      <td className="num" data-label={t.monitoring.col.iw}>
                        <Qty q={formatPower(r.iw)} />
                      </td>
                      <td className="num" data-label={t.monitoring.col.dailys}>
                        <Qty q={formatEnergy(r.dailys)} />
                        <ZeroedNote zeroed={r.dailysZeroed} />
                      </td>
                      <td className="num" data-label={t.monitoring.col.genTime}>
                        {formatGenerationHoursMedium(r.genTime ?? 0)} h
                      </td>
                    </>
                  ) : (
                    <>
                      <td className="num" data-label={t.monitoring.col.devices}>
                        {r.reporting}/{r.devices}
                      </td>
                      <td className="num" data-label={t.monitoring.col.power}>
                        {r.w === null || r.w === undefined ? "–" : <Qty q={formatPower(r.w)} />}
                      </td>
                      <td className="num" data-label={t.monitoring.col.voltage}>
                        {voltage(r.v, r.vKind)}
                      </td>
                      <td className="num" data-label={t.monitoring.col.current}>{`${formatNumber(r.a ?? 0, 1)} A`}</td>
                      <td className="num" data-label={t.monitoring.col.breakers}>
                        {r.closed}/{r.open}
                      </td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
