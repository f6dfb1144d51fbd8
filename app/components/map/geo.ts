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

/** What a map shows: its centre and (fractional) zoom. */
export interface MapCamera {
  center: LatLng;
  zoom: number;
}

/** The zoom range of both maps (live and server-drawn): low enough to fit a test site abroad with the fleet. */
export const MAP_ZOOM = { min: 1, max: 16 } as const;
/** A fitted map zooms no closer than this (one plant, or plants on one site). */
export const FIT_MAX_ZOOM = 12;
/** Room kept around the fitted plants, in pixels, so a marker at the edge shows whole. */
export const FIT_PADDING_PX = 40;

const clampZoom = (z: number) => Math.min(MAP_ZOOM.max, Math.max(MAP_ZOOM.min, z));

/**
 * The first view of a map (issue 13.17): the bounds of the plants' coordinates, fitted into a viewport of
 * width × height with FIT_PADDING_PX around them; the SPEC §2 default (`fallback`) when no plant has
 * coordinates. The zoom is rounded down to a quarter step so the rounding never pushes a plant out.
 */
export function fitCamera(
  points: readonly { lat: number; lng: number }[],
  width: number,
  height: number,
  fallback: MapCamera,
): MapCamera {
  const xy = points.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng)).map((p) => project([p.lat, p.lng], 0));
  if (!xy.length) return fallback;
  const xs = xy.map(([x]) => x);
  const ys = xy.map(([, y]) => y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  const roomX = Math.max(1, width - 2 * FIT_PADDING_PX);
  const roomY = Math.max(1, height - 2 * FIT_PADDING_PX);
  const fit = Math.log2(Math.min(spanX > 0 ? roomX / spanX : Infinity, spanY > 0 ? roomY / spanY : Infinity));
  const zoom = clampZoom(Math.min(FIT_MAX_ZOOM, Math.floor(fit * 4) / 4));
  return { center: unproject([(minX + maxX) / 2, (minY + maxY) / 2], 0), zoom };
}

/** URL parameters of a map's camera, so zooming works as plain links (no JavaScript needed). */
export const CAMERA_PARAMS = { zoom: "mz", center: "mc" } as const;

/** The camera a URL asks for, or null when it asks for none (or for one that is not a place on the map). */
export function cameraFromSearch(search: URLSearchParams): MapCamera | null {
  const z = search.get(CAMERA_PARAMS.zoom);
  const c = search.get(CAMERA_PARAMS.center);
  if (z === null || c === null || !/^\d+(\.\d+)?$/.test(z)) return null;
  const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(c);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (Math.abs(lat) > 85 || Math.abs(lng) > 180) return null;
  return { center: [lat, lng], zoom: clampZoom(Number(z)) };
}

/** `search` with the camera written in (or taken out, for `null`: back to the fitted first view). */
export function searchWithCamera(search: URLSearchParams, camera: MapCamera | null): string {
  const next = new URLSearchParams(search);
  next.delete(CAMERA_PARAMS.zoom);
  next.delete(CAMERA_PARAMS.center);
  if (camera) {
    next.set(CAMERA_PARAMS.zoom, String(Math.round(camera.zoom * 100) / 100));
    next.set(CAMERA_PARAMS.center, `${camera.center[0].toFixed(4)},${camera.center[1].toFixed(4)}`);
  }
  const s = next.toString();
  return s ? `?${s}` : "?";
}

/** The camera one zoom step in (+1) or out (-1), same centre; null when that step leaves the zoom range. */
export function zoomStep(camera: MapCamera, step: 1 | -1): MapCamera | null {
  const zoom = clampZoom(step > 0 ? Math.floor(camera.zoom) + 1 : Math.ceil(camera.zoom) - 1);
  return zoom === camera.zoom ? null : { center: camera.center, zoom };
}

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
export function clusterPoints<P extends MapPoint>(
  points: readonly P[],
  zoom: number,
  radius = CLUSTER_RADIUS_PX,
): MarkerCluster<P>[] {
  const ordered = [...points]
    .filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng))
    .sort(
      (a, b) =>
        URGENCY[statusIndicator(b.status)] - URGENCY[statusIndicator(a.status)] || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0),
    );
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
        key: p.uid,
        lat: p.lat,
        lng: p.lng,
        x,
        y,
        points: [p],
        counts: { normal: 0, abnormal: 0, not: 0, [ind]: 1 } as Record<StatusIndicator, number>,
        worst: ind,
      });
    }
  }
  return clusters.map(({ x: _x, y: _y, ...c }) => c);
}
