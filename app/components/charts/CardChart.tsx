/**
 * Plant card charts as SVG, one React component for the server render and the browser (TOOLCHAIN:
 * @visx/xychart renders empty on the server, so the low-level @visx/shape, scale, axis and group are used).
 * The loader data carries each chart once, as a compact series (compactChart: at most one point per 10
 * minutes, values rounded to what the chart can show); the page's HTML holds the drawn SVG, so a kiosk
 * without JavaScript sees the whole chart, and the browser draws the same SVG from the same series when it
 * hydrates and after each poll (issue 13, point 20: the SVG markup used to travel in the loader data too).
 * Interactivity sits on top: the legend switches series on and off through CSS classes
 * (series-gen / series-irr / series-ref) of the card, and each point has a native tooltip.
 *
 * Axes follow SPEC §9: generation 0..capacity with a step of half the capacity; irradiance 0..1100 W/m²
 * with a step of 650; colours blue / red / green from domain/chart.ts (reference dashed, never shown).
 */
import { AxisBottom, AxisLeft, AxisRight } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import {
  generationAxis,
  IRRADIANCE_AXIS,
  SERIES_COLORS,
  SUN_HOUR_IRRADIANCE,
  stackedHourAxisMax,
  stackedHourBars,
} from "../../../domain/chart";
import { formatSeries, parseLabels, parseSeries } from "../../../domain/series";
import type { Messages } from "~/i18n/ko";

export interface ChartInput {
  /** Unique per page (used in element ids). */
  id: string;
  title: string;
  labels: string;
  generation: string;
  irradiance: string;
  reference: string;
  capacityKw: number;
  hasIrradiance: boolean;
  texts: {
    kw: string;
    irr: string;
    generation: string;
    irradiance: string;
    reference: string;
    noData: string;
    noGeneration: string;
    hour: string;
    genTime: string;
    hours: string;
  };
}

export type LineChartSize = "lg" | "md";

const SIZES: Record<
  LineChartSize | "bar",
  { width: number; height: number; margin: { top: number; right: number; bottom: number; left: number } }
> = {
  lg: { width: 560, height: 230, margin: { top: 22, right: 44, bottom: 24, left: 44 } },
  md: { width: 320, height: 160, margin: { top: 20, right: 36, bottom: 22, left: 38 } },
  bar: { width: 320, height: 160, margin: { top: 20, right: 36, bottom: 22, left: 38 } },
};

const minutesOf = (label: string) => {
  const [h, m] = label.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** Compact numbers for tick labels (1,497.3 kW → "1.5k"). */
function tickKw(v: number): string {
  if (v >= 10_000) return `${Math.round(v / 1000)}k`;
  if (v >= 1000) return `${(v / 1000).toFixed(1)}k`;
  if (v >= 100) return String(Math.round(v));
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** Axis units written above each axis (rotated axis labels collide with the tick labels on small cards). */
function Units({ input, innerW }: { input: ChartInput; innerW: number }) {
  return (
    <>
      <text className="unit" x={-6} y={-9} textAnchor="end">
        {input.texts.kw}
      </text>
      {input.hasIrradiance ? (
        <text className="unit" x={innerW + 6} y={-9} textAnchor="start">
          {input.texts.irr}
        </text>
      ) : null}
    </>
  );
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function Frame(props: { input: ChartInput; width: number; height: number; children: React.ReactNode; empty: boolean }) {
  const { input, width, height } = props;
  const titleId = `chart-${input.id}-title`;
  const emptyText = parseLabels(input.labels).length ? input.texts.noGeneration : input.texts.noData;
  return (
    <svg
      className="pv-chart"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-labelledby={titleId}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={titleId}>{props.empty ? `${input.title} — ${emptyText}` : input.title}</title>
      {props.children}
      {props.empty ? (
        <text className="no-data" x={width / 2} y={height / 2} textAnchor="middle" dominantBaseline="middle">
          {emptyText}
        </text>
      ) : null}
    </svg>
  );
}

function LineChart({ input, size }: { input: ChartInput; size: LineChartSize }) {
  const { width, height, margin } = SIZES[size];
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const labels = parseLabels(input.labels);
  const n = labels.length;
  const gen = parseSeries(input.generation, n);
  const irr = parseSeries(input.irradiance, n);
  const ref = parseSeries(input.reference, n);
  const axis = generationAxis(input.capacityKw);
  const x = scaleLinear<number>({ domain: [0, 24 * 60], range: [0, innerW] });
  const y = scaleLinear<number>({ domain: [0, axis.suggestedMax], range: [innerH, 0], clamp: true });
  const y2 = scaleLinear<number>({ domain: [0, IRRADIANCE_AXIS.max], range: [innerH, 0], clamp: true });
  const points = labels.map((l, i) => ({ t: minutesOf(l), g: gen[i]!, e: irr[i]!, r: ref[i]! }));
  const empty = n === 0 || (gen.every((v) => v === 0) && irr.every((v) => v === 0));
  const small = size === "md";
  return (
    <Frame input={input} width={width} height={height} empty={empty}>
      <Group left={margin.left} top={margin.top}>
        <Units input={input} innerW={innerW} />
        {[0, axis.step, axis.suggestedMax].map((v) => (
          <line key={v} className="grid" x1={0} x2={innerW} y1={y(v)} y2={y(v)} />
        ))}
        {input.hasIrradiance ? (
          <LinePath
            className="series series-irr"
            data={points}
            x={(p) => round1(x(p.t))}
            y={(p) => round1(y2(p.e))}
            stroke={SERIES_COLORS.irradiance}
            strokeWidth={small ? 1.5 : 2}
            fill="none"
          />
        ) : null}
        <LinePath
          className="series series-ref"
          data={points}
          x={(p) => round1(x(p.t))}
          y={(p) => round1(y(p.r))}
          stroke={SERIES_COLORS.reference}
          strokeWidth={small ? 1.5 : 2}
          strokeDasharray="4 3"
          fill="none"
        />
        <LinePath
          className="series series-gen"
          data={points}
          x={(p) => round1(x(p.t))}
          y={(p) => round1(y(p.g))}
          stroke={SERIES_COLORS.generation}
          strokeWidth={small ? 2 : 2.5}
          fill="none"
        />
        <AxisLeft
          scale={y}
          tickValues={[0, axis.step, axis.suggestedMax]}
          tickFormat={(v) => tickKw(Number(v))}
          hideAxisLine
          tickLength={3}
          numTicks={3}
        />
        {input.hasIrradiance ? (
          <AxisRight
            left={innerW}
            scale={y2}
            tickValues={[0, IRRADIANCE_AXIS.step, IRRADIANCE_AXIS.max]}
            hideAxisLine
            tickLength={3}
            axisClassName="axis-irr"
          />
        ) : null}
        <AxisBottom
          top={innerH}
          scale={x}
          tickValues={small ? [0, 360, 720, 1080, 1440] : [0, 180, 360, 540, 720, 900, 1080, 1260, 1440]}
          tickFormat={(v) => `${Math.floor(Number(v) / 60)}${input.texts.hour}`}
          tickLength={3}
        />
      </Group>
    </Frame>
  );
}

/**
 * The stacked bar card (SPEC §2 "bars for generation time and irradiance"): one bar per hour, the
 * hour's generation time (kWh / kW) at the bottom and its irradiance as sun hours (W/m² ÷ 1000) stacked
 * on top, against one axis in hours. Irradiance is hatched as well as coloured, so the two parts are told
 * apart without colour; each part has its own tooltip with the measured value.
 */
function BarChart({ input }: { input: ChartInput }) {
  const { width, height, margin } = SIZES.bar;
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const labels = parseLabels(input.labels);
  const n = labels.length;
  const gen = parseSeries(input.generation, n);
  const irr = input.hasIrradiance ? parseSeries(input.irradiance, n) : [];
  const bars = stackedHourBars(labels, gen, irr, input.capacityKw);
  const max = stackedHourAxisMax(bars);
  // Hourly keys of the whole day, so the bars keep their place as the day goes on.
  const hours = Array.from({ length: 24 }, (_, i) => `${String(i + 1).padStart(2, "0")}:00`);
  const x = scaleBand<string>({ domain: hours, range: [0, innerW], paddingInner: 0.2 });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerH, 0], clamp: true });
  const band = round1(x.bandwidth());
  const ticks = max === 1 ? [0, 0.5, 1] : [0, 1, 2];
  const hatch = `hatch-${input.id}`;
  const empty = n === 0 || bars.every((b) => b.genHours === 0 && b.irrHours === 0);
  const h2 = (v: number) => v.toFixed(2);
  return (
    <Frame input={input} width={width} height={height} empty={empty}>
      <defs>
        <pattern id={hatch} patternUnits="userSpaceOnUse" width={4} height={4} patternTransform="rotate(45)">
          <rect width={4} height={4} fill={SERIES_COLORS.irradiance} />
          <line x1={0} y1={0} x2={0} y2={4} stroke="#fff" strokeWidth={1.5} />
        </pattern>
      </defs>
      <Group left={margin.left} top={margin.top}>
        <text className="unit" x={-6} y={-9} textAnchor="end">
          {input.texts.hours}
        </text>
        {ticks.map((v) => (
          <line key={v} className="grid" x1={0} x2={innerW} y1={y(v)} y2={y(v)} />
        ))}
        {bars.map((b, i) => {
          const left = x(b.label);
          if (left === undefined) return null;
          const yGen = y(b.genHours);
          const yTop = y(b.genHours + b.irrHours);
          return (
            <g key={b.label} className="stack">
              <Bar
                className="series series-gen"
                x={round1(left)}
                y={round1(yGen)}
                width={band}
                height={round1(innerH - yGen)}
                fill={SERIES_COLORS.generation}
              >
                <title>{`${b.label} ${input.texts.genTime} ${h2(b.genHours)} ${input.texts.hours} (${gen[i]!.toFixed(1)} kWh)`}</title>
              </Bar>
              {input.hasIrradiance ? (
                <Bar
                  className="series series-irr"
                  x={round1(left)}
                  y={round1(yTop)}
                  width={band}
                  height={round1(yGen - yTop)}
                  fill={`url(#${hatch})`}
                >
                  <title>{`${b.label} ${input.texts.irradiance} ${h2(b.irrHours)} ${input.texts.hours} (${Math.round(b.irrHours * SUN_HOUR_IRRADIANCE)} W/m²)`}</title>
                </Bar>
              ) : null}
            </g>
          );
        })}
        <AxisLeft scale={y} tickValues={ticks} tickFormat={(v) => String(Number(v))} hideAxisLine tickLength={3} />
        <AxisBottom
          top={innerH}
          scale={x}
          tickValues={["06:00", "12:00", "18:00", "24:00"]}
          tickFormat={(v) => `${parseInt(String(v), 10)}${input.texts.hour}`}
          tickLength={3}
        />
      </Group>
    </Frame>
  );
}

export type CardChartSize = LineChartSize | "bar";

/** What the loader data carries of one card's chart: the series once, compact (compactChart), no texts. */
export interface CardChartData {
  size: CardChartSize;
  title: string;
  /**
   * The points' times: "HH:mm" labels, comma-separated, or when they are evenly spaced (the usual case)
   * the first one's minute of the day, the step in minutes and the count.
   */
  labels: string | EvenLabels;
  generation: string;
  irradiance: string;
  reference: string;
  capacityKw: number;
  hasIrradiance: boolean;
}

export interface EvenLabels {
  first: number;
  step: number;
  count: number;
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** The labels of a chart's loader data as a comma-separated "HH:mm" list. */
export function chartLabels(labels: CardChartData["labels"]): string {
  if (typeof labels === "string") return labels;
  return Array.from({ length: labels.count }, (_, i) => hhmm(labels.first + i * labels.step)).join(",");
}

/** Evenly spaced "HH:mm" labels (written as chartLabels writes them) as first, step and count. */
function evenLabels(keys: readonly string[]): EvenLabels | null {
  if (keys.length < 2) return null;
  const first = minutesOf(keys[0]!);
  const step = minutesOf(keys[1]!) - first;
  if (step <= 0) return null;
  return keys.every((k, i) => k === hhmm(first + i * step)) ? { first, step, count: keys.length } : null;
}

/** Significant digits kept: a 3-digit value moves a point by less than a pixel on the largest chart (180 px high). */
const DIGITS = 3;

/**
 * The series reduced to what the chart can show: at most one point per 10 minutes of the day (the last
 * reading of each 10-minute slot) and values rounded to 3 significant digits. Labels and the three
 * series stay aligned.
 */
export function compactChart(
  labels: string,
  series: { generation: string; irradiance: string; reference: string },
): Pick<CardChartData, "labels" | "generation" | "irradiance" | "reference"> {
  const keys = parseLabels(labels);
  const n = keys.length;
  const all = [series.generation, series.irradiance, series.reference].map((s) => parseSeries(s, n));
  const kept: number[] = [];
  let lastSlot = Number.NaN;
  keys.forEach((key, i) => {
    const slot = Math.floor(minutesOf(key) / 10);
    if (slot === lastSlot) kept[kept.length - 1] = i;
    else kept.push(i);
    lastSlot = slot;
  });
  const round = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(DIGITS)));
  const [generation, irradiance, reference] = all.map((values) => {
    const out = kept.map((i) => round(values[i]!));
    // Zeros are written blank, and a series of zeros only (no reference, no irradiance sensor) is sent empty:
    // blanks parse back as zeros.
    return out.every((v) => v === 0) ? "" : formatSeries(out.map((v) => (v === 0 ? null : v)));
  });
  const shown = kept.map((i) => keys[i]!);
  return {
    labels: evenLabels(shown) ?? shown.join(","),
    generation: generation!,
    irradiance: irradiance!,
    reference: reference!,
  };
}

/** The chart's texts in the page's language. */
export function chartTexts(t: Messages["pvstatus"]): ChartInput["texts"] {
  return {
    kw: t.chart.kw,
    irr: t.chart.irr,
    generation: t.legend.generation,
    irradiance: t.legend.irradiance,
    reference: t.legend.reference,
    noData: t.chart.noData,
    noGeneration: t.chart.noGeneration,
    hour: t.chart.hour,
    genTime: t.chart.genTime,
    hours: t.chart.hours,
  };
}

/** A card's chart from its loader data (`id` unique on the page: it names the SVG's title and pattern). */
export function CardChart({ id, data, t }: { id: string; data: CardChartData; t: Messages["pvstatus"] }) {
  const input: ChartInput = { id, ...data, labels: chartLabels(data.labels), texts: chartTexts(t) };
  return data.size === "bar" ? <BarChart input={input} /> : <LineChart input={input} size={data.size} />;
}

/** The chart component for one input (ChartInput carries its texts). */
export function Chart({ input, size }: { input: ChartInput; size: CardChartSize }) {
  return size === "bar" ? <BarChart input={input} /> : <LineChart input={input} size={size} />;
}
