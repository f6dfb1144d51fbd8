/**
 * Recent alarms of the main dashboard (SPEC §7 /alarm/recent, §9 refresh every 660 000 ms). Server-rendered
 * first; with JS a fetcher reloads only this list (resources/recent-alarms) every 11 minutes while visible.
 */
import { useFetcher } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { REFRESH_INTERVAL_MS } from "../../../domain/chart";
import { fmt, useT } from "~/i18n";
import type { RecentAlarm } from "../../../domain/contract/alarm";
import { DetailLink } from "./DetailLink";
import { SeoulTime, seoulYmdHm } from "./format";
import { alarmCodeLabel, alarmSubject, engineMessage, LevelBadge } from "./labels";
import { usePolling } from "./usePolling";

export interface RecentAlarmsData {
  alarms: RecentAlarm[];
  open: number;
  at: number;
}

export function RecentAlarms({ initial, showAllLink }: { initial: RecentAlarmsData; showAllLink: boolean }) {
  const t = useT();
  const fetcher = useFetcher<RecentAlarmsData>();
  usePolling(() => {
    if (fetcher.state === "idle") fetcher.load("/resources/recent-alarms");
  }, REFRESH_INTERVAL_MS.recentAlarm);
  const data = fetcher.data ?? initial;
  return (
    <section className="status-panel alarms-panel" aria-labelledby="alarms-title" aria-busy={fetcher.state !== "idle"}>
      <div className="status-panel-head">
        <h2 id="alarms-title">{t.main.alarmsTitle}</h2>
        {data.open > 0 ? <span className="tag warn">{fmt(t.main.alarmsOpen, { count: data.open })}</span> : null}
        <span className="spacer" />
        <p className="muted small" aria-live="polite">
          {fmt(t.main.alarmsAsOf, { time: seoulYmdHm(data.at) })}
        </p>
        <fetcher.Form method="get" action="/resources/recent-alarms" className="inline-form refresh-form">
          {/* Without JS this is a plain reload of the page (the fetcher route redirects back). */}
          <button type="submit" className="secondary small">
            {t.main.alarmsRefresh}
          </button>
        </fetcher.Form>
      </div>
      {data.alarms.length === 0 ? (
        <p className="muted">{t.main.alarmsEmpty}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table alarm-table stack-on-phone">
            <caption className="visually-hidden">{t.main.alarmTable.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.main.alarmTable.time}</th>
                <th scope="col">{t.main.alarmTable.plant}</th>
                <th scope="col">{t.main.alarmTable.device}</th>
                <th scope="col">{t.main.alarmTable.kind}</th>
                <th scope="col">{t.main.alarmTable.level}</th>
                <th scope="col">{t.main.alarmTable.state}</th>
              </tr>
            </thead>
            <tbody>
              {data.alarms.map((a) => (
                <tr key={a.seq} className={a.released_at === null ? "alarm-open" : "alarm-released"}>
                  <td className="nowrap" data-label={t.main.alarmTable.time}>
                    <SeoulTime ts={a.raised_at} />
                  </td>
                  <td data-label={t.main.alarmTable.plant}>
                    <DetailLink kind="plant" uid={a.plant_uid} name={a.plantName} />
                  </td>
                  <td data-label={t.main.alarmTable.device}>{alarmSubject(t, a)}</td>
                  <td title={engineMessage(t, a)} data-label={t.main.alarmTable.kind}>
                    {alarmCodeLabel(t, a.code)}
                  </td>
                  <td data-label={t.main.alarmTable.level}>
                    <LevelBadge t={t} level={a.level} />
                  </td>
                  <td data-label={t.main.alarmTable.state}>
                    {a.released_at === null ? <strong>{t.main.alarmState.open}</strong> : t.main.alarmState.released}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {showAllLink ? (
        <p className="small">
          <AppLink to="/alarm">{t.main.alarmsAll}</AppLink>
        </p>
      ) : null}
    </section>
  );
}
