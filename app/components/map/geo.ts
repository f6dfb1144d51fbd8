/**
 * Map geometry for the plant map: the Web-Mercator projection of 256-px tiles that pigeon-maps uses
 * (so the server-drawn fallback map and the live map put a plant on the same spot), the map settings of
 * SPEC §2 and marker clustering. Pure, no DOM.
 */
import { statusIndicator, type StatusIndicator } from "../../../domain/status";

export type LatLng = [lat: number, lng: number];

/** SPEC §2 Map: desktop zoom 8.5 centred near 36, 128; mobile zoom 7.5 centred on longitude 127.5. */
export const MAP_SETTINGS = {
  desktop: { center: [36, 128] as LatLng, zoom: 8.5 },
  mobile: { center: [36, 127.5] as LatLng, zoom: 7.5 },
} as const;

/**
 * SPEC §2 "marker cluster grid size 0": no grid beyond the markers themselves, i.e. markers cluster
 * only where they would overlap. This is the marker's diameter in pixels.
 */
export const CLUSTER_RADIUS_PX = 26;

const TILE = 256;

/** World pixel coordinates at a (fractional) zoom. */
export function project([lat, lng]: LatLng, zoom: number): [x: number, y: number] {
  const scale = TILE * 2 ** zoom;
  const x = ((lng + 180) / 360) * scale;
  const rad = (Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * scale;
  return [x, y];
}

export function unproject([x, y]: [number, number], zoom: number): LatLng {
  const scale = TILE * 2 ** zoom;
  const lng = (x / scale) * 360 - 180;
  const n = Math.PI - (2 * Math.PI * y) / scale;
  const lat = (180 / Math.PI) * Math.atan(0.5 * (Math.exp(n) - Math.exp(-n)));
  return [lat, lng];
}

/** A point's position in a viewport of width × height centred on `center`. */
export function toViewport(point: LatLng, center: LatLng, zoom: number, width: number, height: number): [number, number] {
  const [px, py] = project(point, zoom);
  const [cx, cy] = project(center, zoom);
  return [px - cx + width / 2, py - cy + height / 2];
}

export interface MapPoint {
  uid: string;
  name: string;
  lat: number;
  lng: number;
  status: number;
}

export interface MarkerCluster<P extends MapPoint = MapPoint> {
  /** Stable key: the first member's uid. */
  key: string;
  lat: number;
  lng: number;
  points: P[];
  /** How many members show each indicator. */
  counts: Record<StatusIndicator, number>;
  /** The most urgent indicator among the members (abnormal > not > normal). */
  worst: StatusIndicator;
}

const URGENCY: Record<StatusIndicator, number> = { abnormal: 2, not: 1, normal: 0 };

/**
 * Greedy clustering in screen space: each point joins the first cluster whose centre lies within
 * `radius` pixels at this zoom, else starts its own. Points are visited most urgent first, so an
 * abnormal plant is never hidden at the centre of a cluster of normal ones. Deterministic.
 */
export function clusterPoints<P extends MapPoint>(points: readonly P[], zoom: number, radius = CLUSTER_RADIUS_PX): MarkerCluster<P>[] {
  const ordered = [...points]
    .filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng))
    .sort((a, b) => URGENCY[statusIndicator(b.status)] - URGENCY[statusIndicator(a.status)] || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  const clusters: Array<MarkerCluster<P> & { x: number; y: number }> = [];
  const r2 = radius * radius;
  for (const p of ordered) {
    const [x, y] = project([p.lat, p.lng], zoom);
    const hit = clusters.find((c) => (c.x - x) ** 2 + (c.y - y) ** 2 <= r2);
    const ind = statusIndicator(p.status);
    if (hit) {
      hit.points.push(p);
      hit.counts[ind] += 1;
      if (URGENCY[ind] > URGENCY[hit.worst]) hit.worst = ind;
    } else {
      clusters.push({
        key: p.uid, lat: p.lat, lng: p.lng, x, y, points: [p],
        counts: { normal: 0, abnormal: 0, not: 0, [ind]: 1 } as Record<StatusIndicator, number>, worst: ind,
      });
    }
  }
  return clusters.map(({ x: _x, y: _y, ...c }) => c);
}
