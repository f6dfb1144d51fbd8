/**
 * The map view (MapView.tsx): drawn by the server in place (the server-drawn map); the browser fetches it only when
 * the map is shown, so the grid and graph views' script carries none of it (server-or-lazy.tsx).
 */
import { serverOrLazy } from "~/components/server-or-lazy";
import { ServerMapView } from "./map-view.server";

export const LazyMapView = serverOrLazy("section.pv-map", ServerMapView, () => import("./MapView").then((m) => m.MapView));
