/**
 * The map view: the server-drawn map first (and for good without JavaScript), the live pigeon-maps map
 * once the browser has loaded it (a separate chunk, so the other views never download it), and below
 * both the list of plants on the map with their status (details/summary, works without JavaScript).
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { fmt, useT } from "~/i18n";
import type { MapPlant } from "~/models/pvstatus.server";
import { INDICATOR_SHAPE } from "~/components/plant-cards/StatusIndicator";
import { statusIndicator } from "../../../domain/status";
import { detailLink } from "./Markers";
import { StaticMap } from "./StaticMap";

const LiveMap = lazy(() => import("./LiveMap"));

export function MapView(props: { points: MapPlant[]; withoutCoords: number; mobile: boolean; detailUrl: (p: MapPlant) => string }) {
  const t = useT().pvstatus;
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const fallback = <StaticMap points={props.points} mobile={props.mobile} />;
  return (
    <section className="pv-map" aria-label={t.map.label}>
      <div className="pv-map-frame">
        {live ? (
          <Suspense fallback={fallback}>
            <LiveMap points={props.points} mobile={props.mobile} detailUrl={props.detailUrl} />
          </Suspense>
        ) : (
          fallback
        )}
      </div>
      <p className="pv-note">{t.map.legend}</p>
      {props.withoutCoords ? <p className="pv-note">{fmt(t.map.noCoords, { n: props.withoutCoords })}</p> : null}
      <details className="pv-map-list">
        <summary>{fmt(t.map.list, { n: props.points.length })}</summary>
        <ul>
          {props.points.map((p) => (
            <li key={p.uid}>
              <a href={detailLink(p.uid)} target="_blank" rel="noopener">
                {p.name}
              </a>{" "}
              <span className={`pv-ind-${statusIndicator(p.status)}`}>
                {INDICATOR_SHAPE[statusIndicator(p.status)]} {t.indicator[statusIndicator(p.status)]}
              </span>{" "}
              <span className="pv-unit">{p.iw}</span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
