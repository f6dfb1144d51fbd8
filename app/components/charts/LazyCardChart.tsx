/**
 * A plant card's chart (CardChart.tsx): drawn by the server in place; the browser fetches it, with @visx and d3,
 * only when a graph card is shown, so the grid view's script carries none of it (server-or-lazy.tsx).
 */
import { serverOrLazy } from "~/components/server-or-lazy";
import { ServerCardChart } from "./card-chart.server";

export const LazyCardChart = serverOrLazy("svg.pv-chart", ServerCardChart, () => import("./CardChart").then((m) => m.CardChart));
