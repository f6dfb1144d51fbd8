import { describe, it, expect } from "vitest";
import {
  STC_IRRADIANCE,
  STC_TEMPERATURE_C,
  SYSTEM_FACTOR,
  TEMPERATURE_COEFFICIENT,
  referenceGenerationKw,
  referenceGenerationSeries,
  stepEnergyKwh,
} from "./reference-generation";

describe("reference generation", () => {
  it("exports the spec constants", () => {
    expect([STC_IRRADIANCE, STC_TEMPERATURE_C, TEMPERATURE_COEFFICIENT, SYSTEM_FACTOR]).toEqual([1000, 25, 0.00415, 0.87]);
  });

  it("at STC it is capacity × 0.87", () => {
    expect(referenceGenerationKw(100, 1000, 25)).toBeCloseTo(87, 10);
  });

  it("scales linearly with irradiance", () => {
    expect(referenceGenerationKw(100, 500, 25)).toBeCloseTo(43.5, 10);
  });

  it("loses 0.415 % per °C above 25 and gains below", () => {
    expect(referenceGenerationKw(100, 1000, 45)).toBeCloseTo(100 * (1 - 0.083) * 0.87, 10); // 79.779
    expect(referenceGenerationKw(100, 1000, 5)).toBeCloseTo(100 * 1.083 * 0.87, 10);
  });

  it("treats a missing temperature as 25 °C", () => {
    expect(referenceGenerationKw(100, 800, null)).toBeCloseTo(69.6, 10);
    expect(referenceGenerationKw(100, 800, Number.NaN)).toBeCloseTo(69.6, 10);
    expect(referenceGenerationKw(100, 800)).toBeCloseTo(69.6, 10);
  });

  it("is 0 at night, without capacity and never negative", () => {
    expect(referenceGenerationKw(100, 0, 25)).toBe(0);
    expect(referenceGenerationKw(100, -5, 25)).toBe(0);
    expect(referenceGenerationKw(0, 1000, 25)).toBe(0);
    expect(referenceGenerationKw(100, 1000, 500)).toBe(0);
  });

  it("maps series, tolerating a short temperature series", () => {
    const out = referenceGenerationSeries(10, [0, 500, 1000], [20, 45]);
    expect(out[0]).toBe(0);
    expect(out[1]).toBeCloseTo(10 * 0.5 * (1 - 0.083) * 0.87, 10);
    expect(out[2]).toBeCloseTo(8.7, 10);
  });
});

describe("stepEnergyKwh", () => {
  it("a 10-minute step is a sixth of an hour", () => {
    expect(stepEnergyKwh(60)).toBeCloseTo(10, 10);
    expect(stepEnergyKwh(60, 60)).toBe(60);
    expect(stepEnergyKwh(Number.NaN)).toBe(0);
  });
});
