/**
 * The chart of a statistics report as SVG, one React component for the server render and the browser
 * (@visx/shape, scale, axis, group — see CardChart.tsx for why not @visx/xychart): one bar per step of the
 * scope's total. A step built on less than all its expected data is drawn hatched and marked with a triangle
 * under the axis, so a gap reads in black and white too; a step without any data gets only the mark. Each bar has
 * a native tooltip. The page's HTML holds the drawn SVG (without JavaScript the whole chart is there); the loader
 * data carries only the compact series (`StatChartSeries`), from which the browser draws the same SVG when it
 * hydrates — the drawn SVG in the loader data was ~80 KB of a year's page, serialised, escaped and hashed on
 * every request (issue 16, session 10).
 */
import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { SERIES_COLORS } from "../../../domain/chart";

/** What the loader data carries of a chart: its bars. */
export interface StatChartSeries {
  /** Step labels and value per step (null: no data). */
  labels: string[];
  values: Array<number | null>;
  /** Indices of the steps with a gap (few, usually none). */
  gaps: number[];
}

export interface StatChartInput extends StatChartSeries {
  id: string;
  title: string;
  unit: string;
  texts: { gap: string; noData: string; value: string };
  /** Draw in the irradiance colour (environment report) instead of the generation colour. */
  irradiance?: boolean;
}

const WIDTH = 900;
const HEIGHT = 260;
const M = { top: 24, right: 16, bottom: 40, left: 56 };
const round1 = (n: number) => Math.round(n * 10) / 10;

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function tick(v: number): string {
  if (v >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (v >= 10_000) return `${Math.round(v / 1000)}k`;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

export function StatChart({ input }: { input: StatChartInput }) {
  const innerW = WIDTH - M.left - M.right;
  const innerH = HEIGHT - M.top - M.bottom;
  const n = input.labels.length;
  const max = niceMax(Math.max(0, ...input.values.map((v) => v ?? 0)));
  const x = scaleBand<number>({ domain: input.labels.map((_, i) => i), range: [0, innerW], paddingInner: n > 60 ? 0 : 0.2 });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerH, 0], clamp: true });
  const every = Math.max(1, Math.ceil(n / (input.labels[0] && input.labels[0].length > 5 ? 7 : 12)));
  const color = input.irradiance ? SERIES_COLORS.irradiance : SERIES_COLORS.generation;
  const titleId = `stat-chart-${input.id}-title`;
  const empty = input.values.every((v) => v === null);
  const band = x.bandwidth();
  const gaps = new Set(input.gaps);
  return (
    <svg
      className="stat-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={titleId}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={titleId}>{input.title}</title>
      <defs>
        <pattern id={`hatch-${input.id}`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill={color} opacity="0.35" />
          <line x1="0" y1="0" x2="0" y2="6" stroke={color} strokeWidth="3" />
        </pattern>
      </defs>
      <Group left={M.left} top={M.top}>
        <text className="unit" x={-8} y={-10} textAnchor="end">
          {input.unit}
        </text>
        {y.ticks(4).map((v) => (
          <line key={v} className="grid" x1={0} x2={innerW} y1={round1(y(v))} y2={round1(y(v))} />
        ))}
        {input.labels.map((label, i) => {
          const left = x(i) ?? 0;
          const v = input.values[i];
          const gap = gaps.has(i);
          const text = `${label} ${v === null ? input.texts.noData : `${input.texts.value} ${v.toFixed(2)} ${input.unit}`}${gap ? ` · ${input.texts.gap}` : ""}`;
          return (
            <g key={label} className={gap ? "step gap" : "step"}>
              {v !== null ? (
                <Bar
                  x={round1(left)}
                  y={round1(y(v))}
                  width={Math.max(0.5, round1(band))}
                  height={round1(innerH - y(v))}
                  fill={gap ? `url(#hatch-${input.id})` : color}
                  stroke={gap ? color : "none"}
                  strokeWidth={gap ? 0.75 : 0}
                >
                  <title>{text}</title>
                </Bar>
              ) : null}
              {gap ? (
                <path className="gap-mark" d={`M${round1(left + band / 2)},${innerH + 3} l4,7 h-8 z`}>
                  <title>{text}</title>
                </path>
              ) : null}
            </g>
          );
        })}
        <AxisLeft scale={y} numTicks={4} tickFormat={(v) => tick(Number(v))} hideAxisLine tickLength={3} />
        <AxisBottom
          top={innerH + 10}
          scale={x}
          tickValues={input.labels.map((_, i) => i).filter((i) => i % every === 0)}
          tickFormat={(i) => input.labels[Number(i)] ?? ""}
          hideAxisLine
          tickLength={2}
        />
        {empty ? (
          <text className="no-data" x={innerW / 2} y={innerH / 2} textAnchor="middle">
            {input.texts.noData}
          </text>
        ) : null}
      </Group>
    </svg>
  );
}
