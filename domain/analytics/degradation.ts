// Year-on-year degradation rate (rdtools.degradation.degradation_year_on_year with its 'simple_bootstrap'
// uncertainty; Jordan et al., "Robust PV Degradation Methodology and Application", IEEE JPV 8(2), 2018).
//
// 1. Recenter: divide every value by the median of the first year (first point to first point + 364 days).
// 2. Pair each point with the one a calendar year before it (the latest earlier point whose date plus one
//    calendar year is at or before it, at most 8 days before; 29 February plus a year is 28 February).
// 3. Slope of a pair, %/year: 100 · (y − y_before) / Δt_years, with Δt_years = hours between the two / 8760.
// 4. The rate is the median of the slopes. Its interval: 10,000 bootstrap resamples of the slopes (with
//    replacement, as many as there are), the median of each, and the percentiles 50 ∓ confidence/2 of those medians
//    (linear interpolation, numpy's default); the exceedance level is their (100 − exceedance) percentile.
// The resampling draws from a seeded generator, so the same data and seed give the same interval.
import { mulberry32 } from "../random";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface DailyValue {
  /** Epoch ms (UTC calendar is used for "one year later"). */
  t: number;
  /** Normalized energy (energy / expected energy of the day, or a temperature-corrected PR). */
  value: number;
}

export interface YoyOptions {
  /** Recenter on the first year's median (default true, as rdtools). */
  recenter?: boolean;
  /** Size of the confidence interval, percent (default 68.2). */
  confidenceLevel?: number;
  /** Exceedance probability, percent (default 95). */
  exceedanceProb?: number;
  /** Bootstrap resamples (default 10,000). */
  reps?: number;
  /** Seed of the resampling (default 0); or a uniform [0, 1) generator of your own. */
  seed?: number;
  random?: () => number;
}

export type YoyResult =
  | {
      ok: true;
      /** Median year-on-year slope, %/year (negative: the output falls). */
      ratePctPerYear: number;
      /** Confidence interval of the rate, %/year [low, high]. */
      interval: [number, number];
      /** The rate the plant beats with probability `exceedanceProb`, %/year. */
      exceedanceLevel: number;
      /** The year-on-year slopes, %/year, labelled with the later point's time. */
      slopes: { t: number; pctPerYear: number }[];
      renormalizingFactor: number;
    }
  | { ok: false; reason: "needs_two_years" | "sub_daily" | "no_pairs" };

/** The same instant one calendar year later (UTC); 29 February becomes 28 February. */
export function addOneYear(t: number): number {
  const d = new Date(t);
  const y = d.getUTCFullYear() + 1;
  const m = d.getUTCMonth();
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** Median of numbers (sorted copy); NaN for none. */
function medianOf(values: ArrayLike<number>): number {
  const v = Float64Array.from(values).sort();
  const n = v.length;
  if (!n) return NaN;
  const m = n >> 1;
  return n % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

/** Median of `a` by selection (reorders `a`): the k-th smallest by Hoare's quickselect, O(n) on average. */
function medianInPlace(a: Float64Array): number {
  const n = a.length;
  const m = n >> 1;
  const hi = select(a, m, 0, n - 1);
  if (n % 2) return hi;
  // The (m − 1)-th smallest is the largest of the left part once a[m] is in place.
  let lo = -Infinity;
  for (let i = 0; i < m; i++) if (a[i]! > lo) lo = a[i]!;
  return (lo + hi) / 2;
}

function select(a: Float64Array, k: number, left: number, right: number): number {
  while (right > left) {
    const pivot = a[(left + right) >> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** Percentile p (0–100) of sorted values by linear interpolation between closest ranks (numpy's default). */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (!n) return NaN;
  const pos = (p / 100) * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The year-on-year degradation rate of daily (or coarser) normalized values; see the header for the method. */
export function yearOnYearDegradation(points: readonly DailyValue[], options: YoyOptions = {}): YoyResult {
  const data = points.filter((p) => Number.isFinite(p.t) && Number.isFinite(p.value)).sort((a, b) => a.t - b.t);
  if (data.length < 2) return { ok: false, reason: "needs_two_years" };
  for (let i = 1; i < data.length; i++) if (data[i]!.t - data[i - 1]!.t < 23 * HOUR_MS) return { ok: false, reason: "sub_daily" };
  const first = data[0]!.t;
  if (data[data.length - 1]!.t - first < 730 * DAY_MS) return { ok: false, reason: "needs_two_years" };

  const renorm = options.recenter === false ? 1 : medianOf(data.filter((p) => p.t <= first + 364 * DAY_MS).map((p) => p.value));
  const values = data.map((p) => p.value / renorm);
  const shifted = data.map((p) => addOneYear(p.t));

  // Backward as-of match on the shifted times (ascending, as the times are): the last point whose shifted time is
  // at or before t, within 8 days.
  const slopes: { t: number; pctPerYear: number }[] = [];
  let j = -1;
  for (let i = 0; i < data.length; i++) {
    const t = data[i]!.t;
    while (j + 1 < data.length && shifted[j + 1]! <= t) j++;
    if (j < 0 || t - shifted[j]! > 8 * DAY_MS) continue;
    const years = (t - data[j]!.t) / HOUR_MS / 8760;
    if (!(years > 0)) continue;
    slopes.push({ t, pctPerYear: (100 * (values[i]! - values[j]!)) / years });
  }
  if (!slopes.length) return { ok: false, reason: "no_pairs" };

  const yoy = Float64Array.from(slopes, (s) => s.pctPerYear);
  const rate = medianOf(yoy);

  const reps = options.reps ?? 10_000;
  const random = options.random ?? mulberry32(options.seed ?? 0);
  const n = yoy.length;
  const medians = new Float64Array(reps);
  const sample = new Float64Array(n);
  for (let r = 0; r < reps; r++) {
    for (let k = 0; k < n; k++) sample[k] = yoy[Math.floor(random() * n)]!;
    medians[r] = medianInPlace(sample);
  }
  medians.sort();
  const half = (options.confidenceLevel ?? 68.2) / 2;
  return {
    ok: true,
    ratePctPerYear: rate,
    interval: [percentileSorted(medians, 50 - half), percentileSorted(medians, 50 + half)],
    exceedanceLevel: percentileSorted(medians, 100 - (options.exceedanceProb ?? 95)),
    slopes,
    renormalizingFactor: renorm,
  };
}
