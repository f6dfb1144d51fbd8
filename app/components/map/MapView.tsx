/**
 * The map view: the server-drawn map first (and for good without JavaScript), the live pigeon-maps map
 * once the browser has loaded it (a separate chunk, so the other views never download it), and below
 * both the list of plants on the map with their status (details/summary, works without JavaScript).
 * The first view fits the plants shown (issue 13.17; SPEC §2's default centre and zoom when none has
 * coordinates); the camera can be put in the URL (mz, mc), which is how the zoom links below the map work
 * without JavaScript.
 */
import { useLocation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { fmt, useT } from "~/i18n";
import type { MapPlant } from "~/models/pvstatus.server";
import { INDICATOR_SHAPE } from "~/components/plant-cards/StatusIndicator";
import { statusIndicator } from "../../../domain/status";
import { detailLink } from "./Markers";
import { cameraFromSearch, fitCamera, MAP_SETTINGS, searchWithCamera, zoomStep, type MapCamera } from "./geo";
import { STATIC_MAP_SIZE, StaticMap } from "./StaticMap";
import { useHydratedView } from "~/utils/use-hydrated-view";

const LiveMap = lazy(() => import("./LiveMap"));

export function MapView(props: {
  points: MapPlant[];
  withoutCoords: number;
  mobile: boolean;
  detailUrl: (p: MapPlant) => string;
}) {
  const t = useT().pvstatus;
  const live = useHydratedView();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const asked = cameraFromSearch(search);
  const initial = props.mobile ? MAP_SETTINGS.mobile : MAP_SETTINGS.desktop;
  const size = props.mobile ? STATIC_MAP_SIZE.mobile : STATIC_MAP_SIZE.desktop;
  // SPEC §2's first view (desktop zoom 8.5 near 36, 128; mobile 7.5 at 127.5); "fit all" is a link to the camera
  // that fits every plant shown (URL state: it works without JavaScript, and with it the live map follows the URL).
  const camera = asked ?? initial;
  const fit = fitCamera(props.points, size.width, size.height, initial);
  const cameraHref = (c: MapCamera | null) => searchWithCamera(search, c);
  const zoomIn = zoomStep(camera, 1);
  const zoomOut = zoomStep(camera, -1);
  const fallback = <StaticMap points={props.points} mobile={props.mobile} camera={camera} cameraHref={cameraHref} />;
  return (
    <section className="pv-map" aria-label={t.map.label}>
      <div className="pv-map-frame">
        {live ? (
          <Suspense fallback={fallback}>
            {/* A new URL (camera, filters, search) starts the live map again at its own first view. */}
            <LiveMap key={location.search} points={props.points} camera={camera} fallback={initial} detailUrl={props.detailUrl} />
          </Suspense>
        ) : (
          fallback
        )}
      </div>
      <nav className="pv-map-zoom" aria-label={t.map.zoomLabel}>
        {live ? null : (
          <>
            {zoomIn ? (
              <a href={cameraHref(zoomIn)} rel="nofollow">
                {"+ " + t.map.zoomIn}
              </a>
            ) : null}
            {zoomOut ? (
              <a href={cameraHref(zoomOut)} rel="nofollow">
                {"− " + t.map.zoomOut}
              </a>
            ) : null}
          </>
        )}
        <a href={cameraHref(fit)} rel="nofollow" className="button">
          {t.map.fitAll}
        </a>
        {asked ? <a href={cameraHref(null)}>{t.map.firstView}</a> : null}
      </nav>
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
