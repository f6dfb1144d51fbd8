import { describe, expect, it } from "vitest";
import { referenceGenerationKw } from "../reference-generation";
import { PVWATTS_DEFAULT_LOSSES, pvwattsDc, pvwattsInverter, pvwattsLosses } from "./pvwatts";

const TOL = 1e-6;

describe("PVWatts (pvlib)", () => {
  it("DC: 900 W/m², 30 °C cell, 100 kW, γ −0.003 → 88.65 kW", () => {
    expect(Math.abs(pvwattsDc(900, 30, 100, -0.003) - 88.65)).toBeLessThan(TOL);
  });

  it("DC times the system factor is the SPEC's reference generation", () => {
    const k = { temperatureCoefficient: -0.003, systemFactor: 0.87 };
    expect(pvwattsDc(900, 30, 100, -0.003) * 0.87).toBeCloseTo(referenceGenerationKw(100, 900, 30, k), 12);
  });

  it("inverter (pvlib.inverter.pvwatts, pdc0 100 kW, η_nom 0.95, η_ref 0.9637): 90 → 85.58556604752516, 50 → 47.60843624, 100 → 95", () => {
    expect(Math.abs(pvwattsInverter(90, 100, 0.95) - 85.58556604752516)).toBeLessThan(1e-12);
    expect(Math.abs(pvwattsInverter(50, 100, 0.95) - 47.60843624)).toBeLessThan(TOL);
    expect(Math.abs(pvwattsInverter(100, 100, 0.95) - 95)).toBeLessThan(TOL);
  });

  it("inverter clips at pac0 = η_nom · pdc0 and gives 0 without DC power", () => {
    expect(pvwattsInverter(130, 100, 0.95)).toBe(95);
    expect(pvwattsInverter(0, 100, 0.95)).toBe(0);
    expect(pvwattsInverter(-5, 100, 0.95)).toBe(0);
  });

  it("default system losses 14.075660688264469 %", () => {
    expect(Math.abs(pvwattsLosses() - 14.075660688264469)).toBeLessThan(1e-12);
    expect(Object.values(PVWATTS_DEFAULT_LOSSES).reduce((a, b) => a + b, 0)).toBe(15); // they compound, not add
  });

  it("one loss alone is itself; no losses are 0", () => {
    const none = {
      soiling: 0,
      shading: 0,
      snow: 0,
      mismatch: 0,
      wiring: 0,
      connections: 0,
      lid: 0,
      nameplateRating: 0,
      age: 0,
      availability: 0,
    };
    expect(pvwattsLosses(none)).toBe(0);
    expect(pvwattsLosses({ ...none, soiling: 5 })).toBeCloseTo(5, 12);
  });
});
