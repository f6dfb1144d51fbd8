/**
 * The plant map drawn on the server as plain SVG: a light outline of Korea and the plant markers at the
 * same projection, zoom and centre as the live map (geo.ts), clustered where they would overlap.
 * It is what a browser without JavaScript (or without internet for tiles) shows; each single marker
 * links to the plant's detail window, each cluster to the same map zoomed in on it (a plain link: the
 * camera is in the URL, issue 13.17).
 */
import { fmt, useT } from "~/i18n";
import type { MapPlant } from "~/models/pvstatus.server";
import { statusIndicator } from "../../../domain/status";
import { clusterPoints, toViewport, type LatLng, type MapCamera } from "./geo";
import { KOREA_OUTLINE } from "./korea-outline";
import { detailLink, MARKER_SIZE, ShapePath, useClusterLabel, usePlantLabel } from "./Markers";

export const STATIC_MAP_SIZE = { desktop: { width: 1000, height: 640 }, mobile: { width: 390, height: 560 } } as const;

export function outlinePath(center: LatLng, zoom: number, width: number, height: number): string {
  return KOREA_OUTLINE.map(
    (ring) =>
      ring
        .map((p, i) => {
          const [x, y] = toViewport(p, center, zoom, width, height);
          return `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`;
        })
        .join("") + "Z",
  ).join("");
}

export function StaticMap({
  points,
  mobile,
  camera,
  cameraHref,
}: {
  points: MapPlant[];
  mobile: boolean;
  camera: MapCamera;
  cameraHref: (c: MapCamera) => string;
}) {
  const t = useT().pvstatus;
  const plantLabel = usePlantLabel();
  const clusterLabel = useClusterLabel();
  const { center, zoom } = camera;
  const { width, height } = mobile ? STATIC_MAP_SIZE.mobile : STATIC_MAP_SIZE.desktop;
  const clusters = clusterPoints(points, zoom, MARKER_SIZE + 4);
  return (
    <svg
      className="pv-map-static"
      viewBox={`0 0 ${width} ${height}`}
      role="group"
      aria-label={t.map.label}
      preserveAspectRatio="xMidYMid meet"
    >
      <rect className="pv-map-sea" x={0} y={0} width={width} height={height} />
      <path className="pv-map-land" d={outlinePath(center, zoom, width, height)} />
      {clusters.map((c) => {
        const [x, y] = toViewport([c.lat, c.lng], center, zoom, width, height);
        if (x < -MARKER_SIZE || y < -MARKER_SIZE || x > width + MARKER_SIZE || y > height + MARKER_SIZE) return null;
        if (c.points.length === 1) {
          const p = c.points[0]!;
          const ind = statusIndicator(p.status);
          return (
            <a
              key={c.key}
              href={detailLink(p.uid)}
              target="_blank"
              rel="noopener"
              aria-label={plantLabel(p)}
              className={`pv-marker pv-marker-${ind}`}
            >
              <g transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}>
                <title>{plantLabel(p)}</title>
                <ShapePath indicator={ind} />
              </g>
            </a>
          );
        }
        const zoomIn = { center: [c.lat, c.lng] as LatLng, zoom: Math.min(16, Math.floor(zoom) + 2) };
        return (
          <a
            key={c.key}
            href={cameraHref(zoomIn)}
            aria-label={fmt(t.map.zoomTo, { label: clusterLabel(c) })}
            className={`pv-cluster pv-marker-${c.worst}`}
          >
            <g transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}>
              <title>{clusterLabel(c)}</title>
              <circle r={MARKER_SIZE / 2 + 4} className="pv-cluster-ring" />
              <text textAnchor="middle" dominantBaseline="central">
                {c.points.length}
              </text>
              <g className="pv-cluster-badge" transform={`translate(${MARKER_SIZE / 2 + 3} ${-MARKER_SIZE / 2 - 3})`}>
                <ShapePath indicator={c.worst} r={6} />
              </g>
            </g>
          </a>
        );
      })}
    </svg>
  );
}
