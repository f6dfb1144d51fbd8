/**
 * Time-series charts of the measurement and diagnosis screens, drawn on the server as complete SVG with
 * @visx/shape, scale and axis (as render.server.tsx does for the plant cards): a kiosk without JavaScript
 * sees the whole chart and the client bundle carries no chart code. Keys are evenly spaced time keys
 * (10 minutes, an hour or a day apart); a missing value (null) breaks the line instead of drawing a zero.
 * Colours come from domain/chart.ts; every series also differs by dash pattern, and the legend beside the
 * chart names each one, so no series is told by colour alone.
 */
import { AxisBottom, AxisLeft, AxisRight } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleLinear } from "@visx/scale";
import { LinePath } from "@visx/shape";
import { renderToStaticMarkup } from "react-dom/server";

export interface ChartSeriesInput {
  name: string;
  color: string;
  dash?: string;
  values: ReadonlyArray<number | null>;
}

export interface TimeChartInput {
  id: string;
  title: string;
  /** 'YYYY-MM-DD HH:mm' or 'YYYY-MM-DD' keys. */
  labels: readonly string[];
  left: { unit: string; max?: number; series: ChartSeriesInput[] };
  right?: { unit: string; max?: number; series: ChartSeriesInput[] };
  noData: string;
  /**
   * Shaded bands behind the series (e.g. curtailment orders), from and to as key indexes (inclusive), each with its
   * words (an SVG title); drawn hatched, so they are told by pattern and by the legend's words, not colour alone.
   */
  bands?: ReadonlyArray<{ from: number; to: number; title: string }>;
}

const W = 760;
const H = 280;
const M = { top: 24, right: 52, bottom: 30, left: 52 };
const round1 = (n: number) => Math.round(n * 10) / 10;

function niceMax(series: ChartSeriesInput[], given?: number): number {
  let max = 0;
  for (const s of series) for (const v of s.values) if (v !== null && Number.isFinite(v) && v > max) max = v;
  if (given && given > 0) return Math.max(given, 0);
  if (max <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(max));
  return Math.ceil((max * 1.05) / mag) * mag;
}

const tick = (v: number) => (Math.abs(v) >= 1000 ? `${round1(v / 1000)}k` : Number.isInteger(v) ? String(v) : v.toFixed(1));

/** Short tick label of a key: the time of day, or the date when the keys are whole days. */
function keyLabel(label: string, daily: boolean): string {
  return daily ? label.slice(5) : label.slice(11, 16) === "00:00" ? label.slice(5, 10) : label.slice(11, 16);
}

function Chart({ input }: { input: TimeChartInput }) {
  const innerW = W - M.left - M.right;
  const innerH = H - M.top - M.bottom;
  const n = input.labels.length;
  const x = scaleLinear<number>({ domain: [0, Math.max(1, n - 1)], range: [0, innerW] });
  const leftMax = niceMax(input.left.series, input.left.max);
  const y = scaleLinear<number>({ domain: [0, leftMax], range: [innerH, 0], clamp: true });
  const rightMax = input.right ? niceMax(input.right.series, input.right.max) : 1;
  const y2 = scaleLinear<number>({ domain: [0, rightMax], range: [innerH, 0], clamp: true });
  const daily = n > 0 && input.labels[0]!.length === 10;
  const every = Math.max(1, Math.ceil(n / 7));
  const ticks = Array.from({ length: n }, (_, i) => i).filter((i) => i % every === 0);
  const empty =
    n === 0 || [...input.left.series, ...(input.right?.series ?? [])].every((s) => s.values.every((v) => v === null || v === 0));
  const titleId = `tc-${input.id}-title`;
  const line = (s: ChartSeriesInput, scale: typeof y, k: string) => (
    <LinePath<{ i: number; v: number | null }>
      key={k}
      data={s.values.map((v, i) => ({ i, v }))}
      defined={(p) => p.v !== null && Number.isFinite(p.v)}
      x={(p) => round1(x(p.i))}
      y={(p) => round1(scale(p.v ?? 0))}
      stroke={s.color}
      strokeWidth={2}
      strokeDasharray={s.dash}
      fill="none"
    />
  );
  return (
    <svg
      className="time-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={titleId}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={titleId}>{empty ? `${input.title} — ${input.noData}` : input.title}</title>
      <Group left={M.left} top={M.top}>
        <text className="unit" x={-8} y={-10} textAnchor="end">
          {input.left.unit}
        </text>
        {input.right ? (
          <text className="unit" x={innerW + 8} y={-10} textAnchor="start">
            {input.right.unit}
          </text>
        ) : null}
        {input.bands?.length ? (
          <defs>
            <pattern id={`tc-${input.id}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width="6" height="6" className="band-fill" />
              <line x1="0" y1="0" x2="0" y2="6" className="band-line" />
            </pattern>
          </defs>
        ) : null}
        {input.bands?.map((b, i) => {
          const half = n > 1 ? innerW / (n - 1) / 2 : innerW / 2;
          const x0 = Math.max(0, round1(x(b.from) - half));
          const x1 = Math.min(innerW, round1(x(b.to) + half));
          return (
            <rect
              key={`band${i}`}
              className="band"
              data-band={i}
              x={x0}
              y={0}
              width={Math.max(1, round1(x1 - x0))}
              height={innerH}
              fill={`url(#tc-${input.id}-hatch)`}
            >
              <title>{b.title}</title>
            </rect>
          );
        })}
        {[0.5, 1].map((f) => (
          <line key={f} className="grid" x1={0} x2={innerW} y1={y(leftMax * f)} y2={y(leftMax * f)} />
        ))}
        {input.right?.series.map((s, i) => line(s, y2, `r${i}`))}
        {input.left.series.map((s, i) => line(s, y, `l${i}`))}
        <AxisLeft
          scale={y}
          tickValues={[0, leftMax / 2, leftMax]}
          tickFormat={(v) => tick(Number(v))}
          hideAxisLine
          tickLength={3}
        />
        {input.right ? (
          <AxisRight
            left={innerW}
            scale={y2}
            tickValues={[0, rightMax / 2, rightMax]}
            tickFormat={(v) => tick(Number(v))}
            hideAxisLine
            tickLength={3}
          />
        ) : null}
        <AxisBottom
          top={innerH}
          scale={x}
          tickValues={ticks}
          tickFormat={(v) => keyLabel(input.labels[Number(v)] ?? "", daily)}
          tickLength={3}
        />
      </Group>
      {empty ? (
        <text className="no-data" x={W / 2} y={H / 2} textAnchor="middle" dominantBaseline="middle">
          {input.noData}
        </text>
      ) : null}
    </svg>
  );
}

export function renderTimeChart(input: TimeChartInput): string {
  return renderToStaticMarkup(<Chart input={input} />);
}
