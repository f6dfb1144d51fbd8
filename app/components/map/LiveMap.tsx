/**
 * The interactive plant map (pigeon-maps), loaded only on the map view and only in the browser: the
 * server draws StaticMap, and this replaces it after hydration. Tiles come from OpenStreetMap; a tile
 * that fails is hidden, and once tiles fail the outline of Korea is drawn so the markers never float on
 * an empty grey box (plants are often watched from sites without internet). Markers cluster where they
 * would overlap at the current zoom; a cluster zooms in when pressed. The first view is the camera of
 * the URL, else the plants' bounds fitted to the map's own size (issue 13.17).
 */
import { Map, Overlay, ZoomControl, type PigeonProps, type TileComponentProps } from "pigeon-maps";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { statusIndicator } from "../../../domain/status";
import { useT } from "~/i18n";
import type { MapPlant } from "~/models/pvstatus.server";
import { clusterPoints, fitCamera, MAP_ZOOM, type LatLng, type MapCamera } from "./geo";
import { KOREA_OUTLINE } from "./korea-outline";
import { MARKER_SIZE, ShapePath, useClusterLabel, usePlantLabel } from "./Markers";

type TileState = "unknown" | "ok" | "failed";

function OutlineLayer({ latLngToPixel, mapState, show }: PigeonProps & { show: boolean }) {
  if (!show || !latLngToPixel || !mapState || mapState.width <= 0 || mapState.height <= 0) return null;
  const d = KOREA_OUTLINE.map(
    (ring) =>
      ring
        .map((p, i) => {
          const [x, y] = latLngToPixel(p);
          return `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`;
        })
        .join("") + "Z",
  ).join("");
  return (
    <svg
      className="pv-map-outline"
      width={mapState.width}
      height={mapState.height}
      style={{ position: "absolute", left: 0, top: 0, pointerEvents: "none" }}
      aria-hidden="true"
    >
      <path className="pv-map-land" d={d} />
    </svg>
  );
}

interface LiveMapProps {
  points: MapPlant[];
  /** The camera the URL asks for; null: fit the plants. */
  camera: MapCamera | null;
  /** SPEC §2's default view, for a map without plants. */
  fallback: MapCamera;
  detailUrl: (p: MapPlant) => string;
}

export default function LiveMap(props: LiveMapProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [camera, setCamera] = useState<MapCamera | null>(props.camera);
  useLayoutEffect(() => {
    if (camera || !ref.current) return;
    const { clientWidth: w, clientHeight: h } = ref.current;
    setCamera(fitCamera(props.points, w || 1000, h || 640, props.fallback));
  }, [camera, props.points, props.fallback]);
  return (
    <div className="pv-map-live" ref={ref}>
      {camera ? <LiveMapAt {...props} camera={camera} /> : null}
    </div>
  );
}

function LiveMapAt({ points, camera, detailUrl }: LiveMapProps & { camera: MapCamera }) {
  const t = useT().pvstatus;
  const plantLabel = usePlantLabel();
  const clusterLabel = useClusterLabel();
  const [center, setCenter] = useState<LatLng>(camera.center);
  const [zoom, setZoom] = useState<number>(camera.zoom);
  const [tiles, setTiles] = useState<TileState>("unknown");
  const clusters = useMemo(() => clusterPoints(points, zoom, MARKER_SIZE + 4), [points, zoom]);

  const Tile = useCallback(
    ({ tile, tileLoaded }: TileComponentProps) => (
      <img
        src={tile.url}
        srcSet={tile.srcSet}
        width={tile.width}
        height={tile.height}
        loading="lazy"
        alt=""
        onLoad={() => {
          tileLoaded();
          setTiles("ok");
        }}
        onError={(e) => {
          e.currentTarget.style.visibility = "hidden";
          setTiles((s) => (s === "ok" ? s : "failed"));
        }}
        style={{
          position: "absolute",
          left: tile.left,
          top: tile.top,
          willChange: "transform",
          transformOrigin: "top left",
          opacity: 1,
        }}
      />
    ),
    [],
  );

  return (
    <div className="pv-map-live-at" data-tiles={tiles}>
      <Map
        center={center}
        zoom={zoom}
        minZoom={MAP_ZOOM.min}
        maxZoom={MAP_ZOOM.max}
        zoomSnap={false}
        tileComponent={Tile}
        onBoundsChanged={({ center: c, zoom: z }) => {
          setCenter(c);
          setZoom(z);
        }}
        attribution={false}
      >
        <OutlineLayer show={tiles !== "ok"} />
        {clusters.map((c) => {
          if (c.points.length === 1) {
            const p = c.points[0]!;
            const ind = statusIndicator(p.status);
            return (
              <Overlay key={c.key} anchor={[c.lat, c.lng]} offset={[MARKER_SIZE / 2, MARKER_SIZE / 2]}>
                <a
                  href={detailUrl(p)}
                  target="_blank"
                  rel="noopener"
                  className={`pv-live-marker pv-marker-${ind}`}
                  aria-label={plantLabel(p)}
                  title={plantLabel(p)}
                  onClick={(e) => {
                    const win = window.open(detailUrl(p), `detail-${p.uid}`, "popup,width=1280,height=860");
                    if (win) e.preventDefault();
                  }}
                >
                  <svg
                    width={MARKER_SIZE}
                    height={MARKER_SIZE}
                    viewBox={`${-MARKER_SIZE / 2} ${-MARKER_SIZE / 2} ${MARKER_SIZE} ${MARKER_SIZE}`}
                    aria-hidden="true"
                  >
                    <ShapePath indicator={ind} />
                  </svg>
                </a>
              </Overlay>
            );
          }
          const size = MARKER_SIZE + 8;
          return (
            <Overlay key={c.key} anchor={[c.lat, c.lng]} offset={[size / 2, size / 2]}>
              <button
                type="button"
                className={`pv-live-cluster pv-marker-${c.worst}`}
                aria-label={clusterLabel(c)}
                title={clusterLabel(c)}
                style={{ width: size, height: size }}
                onClick={() => {
                  setCenter([c.lat, c.lng]);
                  setZoom(Math.min(MAP_ZOOM.max, zoom + 2));
                }}
              >
                <span aria-hidden="true">{c.points.length}</span>
                <svg className="pv-cluster-badge" width={12} height={12} viewBox="-6 -6 12 12" aria-hidden="true">
                  <ShapePath indicator={c.worst} r={6} />
                </svg>
              </button>
            </Overlay>
          );
        })}
        <ZoomControl buttonStyle={{ width: 36, height: 36 }} />
      </Map>
      {tiles === "failed" ? (
        <p className="pv-map-offline" role="status">
          {t.map.offline}
        </p>
      ) : null}
    </div>
  );
}
