/**
 * The card chart for the server's render: a `*.server` module is an empty module in the browser bundle, so the
 * browser's copy of LazyCardChart.tsx fetches the chart (and @visx) only when a graph card is drawn.
 */
export { CardChart as ServerCardChart } from "./CardChart";
