/** Marker and cluster glyphs shared by the server-drawn map and the live map: status by shape and label. */
import type { StatusIndicator } from "../../../domain/status";
import { fmt, useT } from "~/i18n";
import type { MarkerCluster } from "./geo";
import type { MapPlant } from "~/models/pvstatus.server";
import { statusIndicator } from "../../../domain/status";

export const MARKER_SIZE = 22;

/** statusName of each status code (SPEC §4), so map points need not carry it. */
const STATUS_NAME: Record<number, string> = {
  1: "notWork",
  2: "normal",
  3: "warning",
  4: "warning_1000001",
  5: "warning_1000004",
  6: "warning_1000006",
};

/** The short link to a plant's detail window (routes/_app.pvstatus_.detail.$uid.tsx redirects). */
export const detailLink = (uid: string) => `/pvstatus/detail/${encodeURIComponent(uid)}`;

/** An SVG shape centred on (0,0): circle normal, triangle abnormal, square not working. */
export function ShapePath({ indicator, r = MARKER_SIZE / 2 }: { indicator: StatusIndicator; r?: number }) {
  if (indicator === "normal") return <circle r={r * 0.82} />;
  if (indicator === "abnormal") return <path d={`M0 ${-r} L${r} ${r * 0.8} L${-r} ${r * 0.8} Z`} />;
  return <rect x={-r * 0.75} y={-r * 0.75} width={r * 1.5} height={r * 1.5} rx={2} />;
}

export function usePlantLabel() {
  const t = useT().pvstatus;
  return (p: MapPlant) => {
    const name = STATUS_NAME[p.status] ?? "none";
    return `${p.name} — ${t.indicator[statusIndicator(p.status)]} (${(t.statusNames as Record<string, string>)[name] ?? name}) · ${p.iw}`;
  };
}

export function useClusterLabel() {
  const t = useT().pvstatus;
  return (c: MarkerCluster<MapPlant>) => {
    const detail = (["abnormal", "not", "normal"] as const)
      .filter((k) => c.counts[k] > 0)
      .map((k) => `${t.indicator[k]} ${c.counts[k]}`)
      .join(", ");
    return fmt(t.map.cluster, { n: c.points.length, detail });
  };
}
