import { describe, expect, it } from "vitest";
import { DEVICE_KIND } from "./device";
import { fieldRange, plausibleEnergyWh, plausiblePowerW, withinBounds } from "./physical-bounds";

describe("physical bounds per device kind and field", () => {
  it("refuses what no device can produce", () => {
    expect(withinBounds(DEVICE_KIND.inverter, "iw", -5)).toBe(false);
    expect(withinBounds(DEVICE_KIND.inverter, "iw", 1e308)).toBe(false);
    expect(withinBounds(DEVICE_KIND.environmentSensor, "his", 1e9)).toBe(false);
    expect(withinBounds(DEVICE_KIND.environmentSensor, "sts", 9999)).toBe(false);
    expect(withinBounds(DEVICE_KIND.inverter, "pf", 1.5)).toBe(false);
    expect(withinBounds(DEVICE_KIND.inverter, "iw", Number.NaN)).toBe(false);
  });

  it("accepts ordinary readings, including winter temperatures and a breaker's night import", () => {
    expect(withinBounds(DEVICE_KIND.inverter, "iw", 48_000, 5000)).toBe(true);
    expect(withinBounds(DEVICE_KIND.environmentSensor, "his", 1_150)).toBe(true);
    expect(withinBounds(DEVICE_KIND.environmentSensor, "ats", -18)).toBe(true);
    expect(withinBounds(DEVICE_KIND.vcb, "w", -2_000)).toBe(true);
    expect(withinBounds(DEVICE_KIND.vcb, "v", 22_900)).toBe(true);
  });

  it("ties power and energy to the device's capacity when it is known", () => {
    // raw 5000 = 50 kW: 75 kW AC is the ceiling, a day at most 24 × 75 kWh.
    expect(fieldRange(DEVICE_KIND.inverter, "iw", 5000)).toEqual([0, 75_000]);
    expect(withinBounds(DEVICE_KIND.inverter, "iw", 80_000, 5000)).toBe(false);
    expect(withinBounds(DEVICE_KIND.inverter, "iw", 80_000, null)).toBe(true);
    expect(withinBounds(DEVICE_KIND.inverter, "today_wh", 2_000_000, 5000)).toBe(false);
    expect(fieldRange(DEVICE_KIND.inverter, "nope")).toBeNull();
  });

  it("reads a bad stored figure back as 0, never as null, infinity or a giant", () => {
    expect(plausibleEnergyWh(1e308, 5000, 24)).toBe(0);
    expect(plausibleEnergyWh(Infinity, 5000, 24)).toBe(0);
    expect(plausibleEnergyWh(null, 5000, 24)).toBe(0);
    expect(plausibleEnergyWh(-3, 5000, 24)).toBe(0);
    expect(plausibleEnergyWh(251_780, 5000, 24)).toBe(251_780);
    expect(plausiblePowerW(1e308, 5000)).toBe(0);
    expect(plausiblePowerW(42_000, 5000)).toBe(42_000);
  });
});
