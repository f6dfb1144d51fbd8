/** The card chart as SVG markup (tests and other server-side uses; screens render CardChart.tsx's CardChart). */
import { renderToStaticMarkup } from "react-dom/server";
import { Chart, type CardChartSize, type ChartInput } from "./CardChart";

export type { ChartInput, LineChartSize } from "./CardChart";

export function renderCardChart(input: ChartInput, size: CardChartSize): string {
  return renderToStaticMarkup(<Chart input={input} size={size} />);
}
