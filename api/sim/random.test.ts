import { describe, expect, it } from "vitest";
import { Rng, hash01, hashNormal, hashSeed, hashString, mulberry32, normalCdf } from "./random";

function stats(xs: number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
  return { mean, sd };
}

describe("Rng", () => {
  it("repeats the same sequence for the same seed", () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const sa = Array.from({ length: 100 }, () => [a.next(), a.normal(), a.uniform(3, 5), a.int(1, 6)]);
    const sb = Array.from({ length: 100 }, () => [b.next(), b.normal(), b.uniform(3, 5), b.int(1, 6)]);
    expect(sa).toEqual(sb);
    expect(new Rng("plant-1").next()).toBe(new Rng("plant-1").next());
  });

  it("gives different sequences for different seeds", () => {
    const a = new Rng(1);
    const b = new Rng(2);
    expect(Array.from({ length: 5 }, () => a.next())).not.toEqual(Array.from({ length: 5 }, () => b.next()));
  });

  it("matches the reference mulberry32 stream", () => {
    const f = mulberry32(7);
    const r = new Rng(7);
    for (let i = 0; i < 10; i++) expect(r.next()).toBe(f());
  });

  it("draws with the right distributions", () => {
    const r = new Rng(123);
    const u = Array.from({ length: 20000 }, () => r.next());
    expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...u)).toBeLessThan(1);
    expect(stats(u).mean).toBeCloseTo(0.5, 1);
    const n = stats(Array.from({ length: 20000 }, () => r.normal(10, 2)));
    expect(n.mean).toBeGreaterThan(9.95);
    expect(n.mean).toBeLessThan(10.05);
    expect(n.sd).toBeGreaterThan(1.95);
    expect(n.sd).toBeLessThan(2.05);
    const hits = Array.from({ length: 20000 }, () => r.chance(0.3)).filter(Boolean).length;
    expect(hits / 20000).toBeCloseTo(0.3, 1);
    expect(stats(Array.from({ length: 20000 }, () => r.poisson(0.7))).mean).toBeCloseTo(0.7, 1);
    const ints = new Set(Array.from({ length: 1000 }, () => r.int(1, 3)));
    expect([...ints].sort()).toEqual([1, 2, 3]);
    const lu = Array.from({ length: 1000 }, () => r.logUniform(20, 180));
    expect(Math.min(...lu)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...lu)).toBeLessThan(180);
  });

  it("weightedIndex follows the weights", () => {
    const r = new Rng(5);
    const counts = [0, 0, 0];
    for (let i = 0; i < 30000; i++) counts[r.weightedIndex([1, 0, 3])]!++;
    expect(counts[1]).toBe(0);
    expect(counts[2]! / counts[0]!).toBeGreaterThan(2.7);
    expect(counts[2]! / counts[0]!).toBeLessThan(3.3);
  });
});

describe("stateless hashing", () => {
  it("is stable and order-sensitive", () => {
    expect(hashString("서울")).toBe(hashString("서울"));
    expect(hashString("서울")).not.toBe(hashString("부산"));
    expect(hashSeed("a", 1)).toBe(hashSeed("a", 1));
    expect(hashSeed("a", 1)).not.toBe(hashSeed(1, "a"));
    expect(hashSeed(2 ** 40 + 1)).not.toBe(hashSeed(1));
  });

  it("hash01 is uniform in [0,1) and repeatable", () => {
    const xs = Array.from({ length: 20000 }, (_, i) => hash01(99, i, 7));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(stats(xs).mean).toBeCloseTo(0.5, 1);
    expect(hash01(99, 5, 7)).toBe(xs[5]);
  });

  it("hashNormal is standard normal", () => {
    const s = stats(Array.from({ length: 20000 }, (_, i) => hashNormal(3, i)));
    expect(Math.abs(s.mean)).toBeLessThan(0.03);
    expect(s.sd).toBeGreaterThan(0.97);
    expect(s.sd).toBeLessThan(1.03);
    expect(Number.isFinite(hashNormal(0, 0, 0))).toBe(true);
  });

  it("normalCdf matches known quantiles", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
  });
});
