/**
 * The report chart's SVG, drawn once per input (~5 ms of CPU for a year's 365 bars): a repeated report — a
 * reload, the print view, the next member asking for the same year — is not drawn again. The chart is a pure
 * function of its input (labels, values, gaps, texts), so a kept drawing is never stale. Bounded by size.
 */
import { LRUCache } from "lru-cache";
import { renderStatChart, type StatChartInput } from "~/components/charts/statistics.server";

const DRAWN = new LRUCache<string, string>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (svg) => Math.max(1, svg.length) });

export function statisticsChart(input: StatChartInput): string {
  const key = JSON.stringify(input);
  let svg = DRAWN.get(key);
  if (svg === undefined) DRAWN.set(key, (svg = renderStatChart(input)));
  return svg;
}
