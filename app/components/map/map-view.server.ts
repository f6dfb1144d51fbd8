/**
 * The map view for the server's render: a `*.server` module is an empty module in the browser bundle, so the
 * browser's copy of LazyMapView.tsx fetches the map view only when the map is shown.
 */
export { MapView as ServerMapView } from "./MapView";
