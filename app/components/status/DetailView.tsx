/**
 * What the detail window shows: one plant (status, figures, devices, open alarms) or one member (profile,
 * linked plants). With JS it keeps the numbers fresh by calling GET /api/member/detail/view itself with
 * `Authorization: Bearer` from session storage `detail_token` (SPEC §3 Storage, §6); when that token has
 * expired it asks its own server to renew (revalidate), which also hands it a fresh copy.
 */
import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { formatCapacity, formatEnergy, formatGenerationHoursMedium, formatPower } from "../../../domain/units";
import { fmt, useT } from "~/i18n";
import type { DetailView as View } from "../../../domain/contract/detail";
import { Qty, SeoulTime, seoulYmdHm } from "./format";
import { alarmCodeLabel, deviceKindLabel, engineMessage, LevelBadge, StatusBadge } from "./labels";
import { OperationTable, WarningTable } from "./OperationTables";
import { usePolling } from "./usePolling";
import { AwaitingReading, BeforeCommand } from "./AwaitingReading";
import { awaitingReading } from "../../../domain/command-state";
import { ZeroedNote } from "./ZeroedNote";

export const DETAIL_TOKEN_KEY = "detail_token";
export const DETAIL_REFRESH_MS = 60_000;

export interface DetailTokenCopy {
  accessToken: string;
  refreshToken?: string;
  sessionId: string;
}

export function DetailView({ initial, tokenCopy }: { initial: View; tokenCopy: DetailTokenCopy }) {
  const t = useT();
  const revalidator = useRevalidator();
  const [view, setView] = useState<View>(initial);
  useEffect(() => setView(initial), [initial]);
  useEffect(() => {
    try {
      sessionStorage.setItem(DETAIL_TOKEN_KEY, JSON.stringify(tokenCopy));
    } catch {
      // Storage may be off (private mode): the server-rendered view still works.
    }
  }, [tokenCopy]);

  usePolling(() => {
    let copy: DetailTokenCopy | null = null;
    try {
      copy = JSON.parse(sessionStorage.getItem(DETAIL_TOKEN_KEY) ?? "null");
    } catch {
      copy = null;
    }
    if (!copy?.accessToken) return revalidator.revalidate();
    fetch("/api/member/detail/view", { headers: { authorization: `Bearer ${copy.accessToken}`, accept: "application/json" } })
      .then(async (res) => {
        if (res.ok) setView((await res.json()) as View);
        else if (res.status === 401) revalidator.revalidate();
      })
      .catch((e) => console.error("detail refresh failed", e));
  }, DETAIL_REFRESH_MS);

  return view.kind === "plant" ? <PlantDetail view={view} t={t} /> : <MemberDetail view={view} t={t} />;
}

type T = ReturnType<typeof useT>;

function PlantDetail({ view, t }: { view: Extract<View, { kind: "plant" }>; t: T }) {
  const p = view.plant;
  // An alarm names its device as the device list below does ("장비 인버터 2 응답 없음", not its uid).
  const names = new Map(view.devices.map((d) => [d.uid, d.name]));
  const nameOf = (uid: string) => names.get(uid);
  // A device commanded since its newest reading: that reading is not its state (issue 26 point 5).
  const awaiting = (d: Extract<View, { kind: "plant" }>["devices"][number]) => awaitingReading(d.lastCommand, d.ts);
  return (
    <article className="detail-page" aria-labelledby="detail-title">
      <header className="detail-head">
        <p className="muted small">{t.detail.plantTitle}</p>
        <h1 id="detail-title">{p.name}</h1>
        <StatusBadge t={t} status={p.status} />
        <p className="muted small" aria-live="polite">
          {fmt(t.detail.asOf, { time: seoulYmdHm(view.now) })}
        </p>
      </header>
      <dl className="kpi-grid">
        <div className="kpi">
          <dt>{t.main.capacity}</dt>
          <dd>
            <Qty q={formatCapacity(p.capa)} />
          </dd>
        </div>
        <div className="kpi kpi-live">
          <dt>{t.main.currentOutput}</dt>
          <dd>
            <Qty q={formatPower(p.iw)} />
          </dd>
        </div>
        <div className="kpi">
          <dt>{t.main.today}</dt>
          <dd>
            <Qty q={formatEnergy(p.dailys)} />
            <ZeroedNote zeroed={p.dailysZeroed} />
          </dd>
        </div>
        <div className="kpi">
          <dt>{t.main.yesterday}</dt>
          <dd>
            <Qty q={formatEnergy(p.yesterday)} />
          </dd>
        </div>
        <div className="kpi">
          <dt>{t.main.month}</dt>
          <dd>
            <Qty q={formatEnergy(p.month)} />
          </dd>
        </div>
        <div className="kpi">
          <dt>{t.main.year}</dt>
          <dd>
            <Qty q={formatEnergy(p.year)} />
          </dd>
        </div>
        <div className="kpi">
          <dt>{t.main.accrue}</dt>
          <dd>
            <Qty q={formatEnergy(p.accrue)} />
          </dd>
        </div>
        <div className="kpi">
          <dt>{t.detail.genTime}</dt>
          <dd>{fmt(t.detail.hours, { hours: formatGenerationHoursMedium(p.genTime) })}</dd>
        </div>
      </dl>
      <dl className="facts detail-facts">
        <dt>{t.detail.locality}</dt>
        <dd>{p.locality ?? t.watch.unspecified}</dd>
        {p.address ? (
          <>
            <dt>{t.detail.address}</dt>
            <dd>{p.address}</dd>
          </>
        ) : null}
        <dt>{t.detail.lastReading}</dt>
        <dd>{p.lastTs === null ? t.detail.never : <SeoulTime ts={p.lastTs} />}</dd>
      </dl>
      <div className="detail-grid">
        <OperationTable op={view.operation.op} caption={t.watch.operationTitle} />
        <WarningTable warn={view.operation.warn} caption={t.watch.warningTitle} />
      </div>
      <section aria-labelledby="detail-alarms">
        <h2 id="detail-alarms">{t.detail.alarms}</h2>
        {view.alarms.length === 0 ? (
          <p className="muted">{t.detail.noAlarms}</p>
        ) : (
          <ul className="plain-list">
            {view.alarms.map((a) => (
              <li key={a.seq}>
                <LevelBadge t={t} level={a.level} /> <strong>{alarmCodeLabel(t, a.code)}</strong> · <SeoulTime ts={a.raised_at} />
                <span className="muted small"> — {engineMessage(t, a, undefined, nameOf)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="detail-devices">
        <h2 id="detail-devices">{t.detail.devices}</h2>
        <div className="table-wrap">
          <table className="data-table stack-on-phone">
            <caption className="visually-hidden">{t.detail.deviceTable.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.detail.deviceTable.name}</th>
                <th scope="col">{t.detail.deviceTable.kind}</th>
                <th scope="col">{t.detail.deviceTable.reading}</th>
                <th scope="col" className="num">
                  {t.detail.deviceTable.output}
                </th>
                <th scope="col">{t.detail.deviceTable.state}</th>
              </tr>
            </thead>
            <tbody>
              {view.devices.map((d) => (
                <tr key={d.uid}>
                  <th scope="row">{d.name}</th>
                  <td data-label={t.detail.deviceTable.kind}>{deviceKindLabel(t, d.kind)}</td>
                  <td className="nowrap" data-label={t.detail.deviceTable.reading}>
                    {d.ts === null ? <span className="muted">{t.detail.never}</span> : <SeoulTime ts={d.ts} />}
                  </td>
                  <td className="num" data-label={t.detail.deviceTable.output}>
                    {d.kind === 1 || d.kind === 7 || d.kind === 8 ? <Qty q={formatPower(d.iw)} /> : "–"}
                    {awaiting(d) ? <BeforeCommand /> : null}
                  </td>
                  <td data-label={t.detail.deviceTable.state}>
                    {awaiting(d) ? (
                      <AwaitingReading since={awaiting(d)!.requested_at} />
                    ) : d.faulted ? (
                      <strong className="text-danger">▲ {t.detail.deviceState.fault}</strong>
                    ) : (
                      t.detail.deviceState.ok
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </article>
  );
}

function MemberDetail({ view, t }: { view: Extract<View, { kind: "member" }>; t: T }) {
  const m = view.member;
  return (
    <article className="detail-page" aria-labelledby="detail-title">
      <header className="detail-head">
        <p className="muted small">{t.detail.memberTitle}</p>
        <h1 id="detail-title">{m.name || m.id}</h1>
      </header>
      <dl className="facts detail-facts">
        <dt>{t.profile.id}</dt>
        <dd>{m.id}</dd>
        <dt>{t.profile.name}</dt>
        <dd>{m.name}</dd>
        <dt>{t.profile.node}</dt>
        <dd>{m.nodeName || "–"}</dd>
        <dt>{t.profile.auth}</dt>
        <dd>{m.auth}</dd>
        <dt>{t.profile.phone}</dt>
        <dd>{m.phone || "–"}</dd>
        <dt>{t.profile.email}</dt>
        <dd>{m.email || "–"}</dd>
      </dl>
      <section aria-labelledby="detail-plants">
        <h2 id="detail-plants">{t.detail.linkedPlants}</h2>
        {view.plants.length === 0 ? (
          <p className="muted">{t.detail.noLinkedPlants}</p>
        ) : (
          <ul className="plain-list">
            {view.plants.map((p) => (
              <li key={p.plant_uid}>{p.name}</li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
