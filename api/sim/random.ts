// Seeded randomness. Two flavours:
//  - Rng: a sequential mulberry32 stream, for drawing a handful of parameters (a day's weather, an episode).
//  - hash01/hashNormal: stateless "random access" noise keyed by (seed, a, b), so a reading at step n is the
//    same whether the simulator got there by backfilling 90 days or by running live since boot.

export { mulberry32 } from "../../domain/random";

const TWO_POW_32 = 4294967296;

/** Murmur3 finaliser: a good 32-bit avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combine a running hash with one more integer key. */
export function mix32(h: number, key: number): number {
  // Keys may exceed 32 bits (e.g. step indices are ~3e6, fine; ms timestamps are not): fold the high part in.
  const lo = key | 0;
  const hi = Math.floor(key / TWO_POW_32) | 0;
  h = fmix32((h ^ Math.imul(lo, 0x9e3779b1)) >>> 0);
  if (hi !== 0) h = fmix32((h ^ Math.imul(hi, 0x7feb352d)) >>> 0);
  return h;
}

/** 32-bit FNV-1a of a string, finalised. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h >>> 0);
}

/** Hash any mix of strings and integers into one 32-bit seed. Order matters. */
export function hashSeed(...parts: ReadonlyArray<string | number>): number {
  let h = 0x2545f491;
  for (const p of parts) h = mix32(h, typeof p === "string" ? hashString(p) : p);
  return h;
}

/** Stateless uniform in [0, 1) for (seed, a, b). */
export function hash01(seed: number, a: number, b = 0): number {
  return mix32(mix32(seed >>> 0, a), b) / TWO_POW_32;
}

/** Stateless standard normal for (seed, a, b) by Box–Muller on two hashed uniforms. */
export function hashNormal(seed: number, a: number, b = 0): number {
  const h = mix32(mix32(seed >>> 0, a), b);
  const u1 = (h + 1) / (TWO_POW_32 + 1); // (0, 1): log-safe
  const u2 = fmix32(h ^ 0x68e31da4) / TWO_POW_32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

export class Rng {
  private state: number;
  private spareNormal: number | null = null;

  constructor(seed: number | string) {
    this.state = (typeof seed === "string" ? hashString(seed) : seed) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / TWO_POW_32;
  }

  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Log-uniform in [min, max): more short episodes than long ones. */
  logUniform(min: number, max: number): number {
    return min * Math.exp(Math.log(max / min) * this.next());
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor((max - min + 1) * this.next());
  }

  /** Normal by Box–Muller (the second variate is kept for the next call). */
  normal(mean = 0, sd = 1): number {
    if (this.spareNormal !== null) {
      const z = this.spareNormal;
      this.spareNormal = null;
      return mean + sd * z;
    }
    const u1 = 1 - this.next(); // (0, 1]
    const u2 = this.next();
    const r = Math.sqrt(-2 * Math.log(u1));
    this.spareNormal = r * Math.sin(2 * Math.PI * u2);
    return mean + sd * r * Math.cos(2 * Math.PI * u2);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Poisson count with mean lambda (Knuth; lambda is small here). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Index drawn with the given non-negative weights. */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 via erf; |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y =
    1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}
