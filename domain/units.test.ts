import { describe, it, expect } from "vitest";
import {
  formatCapacityTotal,
  formatCo2,
  formatNumber,
  formatPercent,
  formatVoltage,
  capacityKw,
  formatCapacity,
  formatEnergy,
  formatGenerationHoursMedium,
  formatGenerationHoursSmall,
  formatPower,
  generationHours,
  scaleOffset,
  totalCapacityKw,
} from "./units";

describe("capacity", () => {
  it("raw × 0.01 = kW, exactly", () => {
    expect(capacityKw(9980)).toBe(99.8);
    expect(capacityKw(12345)).toBe(123.45);
    expect(capacityKw(null)).toBe(0);
    expect(capacityKw(Number.NaN)).toBe(0);
  });

  it("sums raw values with factor 0.01", () => {
    expect(totalCapacityKw([10, 20, null, 30])).toBe(0.6); // 0.1 + 0.2 + 0.3 would not be
    expect(totalCapacityKw([])).toBe(0);
  });

  it("card display is raw × 10 × 0.001 kW with 2 decimals", () => {
    expect(formatCapacity(9980)).toEqual({ value: "99.80", unit: "kW" });
    expect(formatCapacity(1)).toEqual({ value: "0.01", unit: "kW" });
    expect(formatCapacity(undefined)).toEqual({ value: "0.00", unit: "kW" });
    expect(formatCapacity(250000)).toEqual({ value: "2,500.00", unit: "kW" });
  });

  it("scales month and year offsets by 1000", () => {
    expect(scaleOffset(12.5)).toBe(12500);
    expect(scaleOffset(null)).toBe(0);
  });
});

describe("formatPower (input W)", () => {
  it.each([
    [0, "0.00", "kW"],
    [1234, "1.23", "kW"],
    [999_999, "1,000.00", "kW"], // just under the MW threshold
    [1_000_000, "1.00", "MW"],
    [25_500_000, "25.50", "MW"],
    [999_999_999, "1,000.00", "MW"],
    [1_000_000_000, "1.00", "GW"],
    [-5, "0.00", "kW"],
  ])("%d W → %s %s", (w, value, unit) => {
    expect(formatPower(w)).toEqual({ value, unit });
  });

  it("treats missing values as 0", () => {
    expect(formatPower(null)).toEqual({ value: "0.00", unit: "kW" });
    expect(formatPower(Number.POSITIVE_INFINITY)).toEqual({ value: "0.00", unit: "kW" });
  });
});

describe("formatEnergy (input Wh)", () => {
  it.each([
    [0, "0.00", "kWh"],
    [49.99, "0.00", "kWh"], // would round up to 0.05 without the rule
    [50, "0.05", "kWh"],
    [1500, "1.50", "kWh"],
    [999_999, "1,000.00", "kWh"],
    [1_000_000, "1.00", "MWh"],
    [123_456_789, "123.46", "MWh"],
    [999_999_999, "1,000.00", "MWh"],
    [1e9, "1.00", "GWh"],
    [4.2e12, "4,200.00", "GWh"],
    [-100, "0.00", "kWh"],
  ])("%d Wh → %s %s", (wh, value, unit) => {
    expect(formatEnergy(wh)).toEqual({ value, unit });
  });

  it("treats missing values as 0", () => {
    expect(formatEnergy(undefined)).toEqual({ value: "0.00", unit: "kWh" });
    expect(formatEnergy(Number.NaN)).toEqual({ value: "0.00", unit: "kWh" });
  });
});

describe("generation hours", () => {
  it("energy Wh / (10 × raw capa) = full-load hours", () => {
    // 99.8 kW plant (raw 9980) that made 399.2 kWh today → 4 h
    expect(generationHours(399_200, 9980)).toBeCloseTo(4, 10);
    expect(generationHours(0, 9980)).toBe(0);
  });

  it("is 0 without a capacity and never negative", () => {
    expect(generationHours(1000, 0)).toBe(0);
    expect(generationHours(1000, null)).toBe(0);
    expect(generationHours(1000, -10)).toBe(0);
    expect(generationHours(-1000, 100)).toBe(0);
  });

  it("medium card: 2 decimals", () => {
    expect(formatGenerationHoursMedium(3.456)).toBe("3.46");
    expect(formatGenerationHoursMedium(0)).toBe("0.00");
    expect(formatGenerationHoursMedium(Number.NaN)).toBe("0.00");
  });

  it("small card: 1 decimal, cut to 4 characters", () => {
    expect(formatGenerationHoursSmall(3.456)).toBe("3.5");
    expect(formatGenerationHoursSmall(12.34)).toBe("12.3");
    expect(formatGenerationHoursSmall(123.4)).toBe("123");
    expect(formatGenerationHoursSmall(1234.5)).toBe("1234");
    expect(formatGenerationHoursSmall(-1)).toBe("0.0");
  });
});

describe("one number format (issue 26)", () => {
  it("thousands separators everywhere, a fixed number of decimals, – for nothing", () => {
    expect(formatNumber(28648.3)).toBe("28,648.30");
    expect(formatNumber(3248, 0)).toBe("3,248");
    expect(formatNumber(-0.001)).toBe("0.00");
    expect(formatNumber(null)).toBe("–");
    expect(formatNumber(Number.NaN)).toBe("–");
  });
  it("a fleet's capacity in MW from 1,000 kW, as the main page shows it (28648.30 kW on /setting/total before)", () => {
    expect(formatCapacityTotal(2_864_830)).toEqual({ value: "28.65", unit: "MW" });
    expect(formatCapacityTotal(99_980)).toEqual({ value: "999.80", unit: "kW" });
  });
  it("CO₂ in tonnes once it passes 1,000 kg", () => {
    expect(formatCo2(459.44)).toEqual({ value: "459.4", unit: "kg" });
    expect(formatCo2(999.9)).toEqual({ value: "999.9", unit: "kg" });
    expect(formatCo2(1000)).toEqual({ value: "1.00", unit: "t" });
    expect(formatCo2(1_234_567)).toEqual({ value: "1,234.57", unit: "t" });
  });
  it("a voltage at its own level: a VCB's in kV, an ACB's or a board's in V", () => {
    expect(formatVoltage(22_971, 7)).toEqual({ value: "22.97", unit: "kV" });
    expect(formatVoltage(378.9, 8)).toEqual({ value: "378.9", unit: "V" });
    expect(formatVoltage(378.9, 2)).toEqual({ value: "378.9", unit: "V" });
    expect(formatVoltage(null, 7)).toBeNull();
  });
  it("percentages", () => {
    expect(formatPercent(0.8253)).toBe("82.5");
    expect(formatPercent(null)).toBe("–");
  });
});
