import { describe, it, expect } from "vitest";
import {
  IRRADIANCE_MAX,
  MODULE_TEMPERATURE_MAX,
  MODULE_TEMPERATURE_MIN,
  effectiveDailyGeneration,
  todayGeneration,
  sanitizeGeneration,
  sanitizeIrradiance,
  sanitizeModuleTemperature,
  sanitizePlantGeneration,
} from "./sanitize";

describe("sanitizeGeneration", () => {
  it("floors at 0 and caps at capacity", () => {
    expect(sanitizeGeneration([-3, 0, 50, 99.8, 99.81, 500], 99.8)).toEqual([0, 0, 50, 99.8, 99.8, 99.8]);
  });

  it("only floors when the capacity is unknown or not positive", () => {
    expect(sanitizeGeneration([-1, 500], null)).toEqual([0, 500]);
    expect(sanitizeGeneration([-1, 500], 0)).toEqual([0, 500]);
    expect(sanitizeGeneration([-1, 500], Number.NaN)).toEqual([0, 500]);
  });

  it("turns non-finite values into 0", () => {
    expect(sanitizeGeneration([Number.NaN, Number.POSITIVE_INFINITY], 10)).toEqual([0, 0]);
  });
});

describe("sanitizeIrradiance", () => {
  it("caps at 1300 and floors at 0", () => {
    expect(IRRADIANCE_MAX).toBe(1300);
    expect(sanitizeIrradiance([-2, 0, 850, 1300, 1300.1, 4000])).toEqual([0, 0, 850, 1300, 1300, 1300]);
  });
});

describe("sanitizeModuleTemperature", () => {
  it("clamps to -40..120", () => {
    expect([MODULE_TEMPERATURE_MIN, MODULE_TEMPERATURE_MAX]).toEqual([-40, 120]);
    expect(sanitizeModuleTemperature([-273, -40, -39.9, 25, 120, 120.5, 999])).toEqual([-40, -40, -39.9, 25, 120, 120, 120]);
  });
});

describe("effectiveDailyGeneration", () => {
  it("keeps the daily value when there is no alarm", () => {
    expect(effectiveDailyGeneration({ source: "chart", daily: 5000, alarmCount: 0, generationSum: 0 })).toBe(5000);
    expect(effectiveDailyGeneration({ source: "grid", daily: 5000, alarmCount: null, iw: 0 })).toBe(5000);
  });

  it("chart data: zeroes it for a plant in alarm whose series sums to 0", () => {
    expect(effectiveDailyGeneration({ source: "chart", daily: 5000, alarmCount: 1, generationSum: 0 })).toBe(0);
    expect(effectiveDailyGeneration({ source: "chart", daily: 5000, alarmCount: "2", generationSum: 0.1 })).toBe(5000);
  });

  it("grid data: zeroes it for a plant in alarm whose current output is 0", () => {
    expect(effectiveDailyGeneration({ source: "grid", daily: 5000, alarmCount: 1, iw: 0 })).toBe(0);
    expect(effectiveDailyGeneration({ source: "grid", daily: 5000, alarmCount: 1, iw: null })).toBe(0);
    expect(effectiveDailyGeneration({ source: "grid", daily: 5000, alarmCount: 1, iw: 12 })).toBe(5000);
  });

  it("reads a non-finite daily value as 0", () => {
    expect(effectiveDailyGeneration({ source: "grid", daily: Number.NaN, alarmCount: 0, iw: 1 })).toBe(0);
  });
});

describe("sanitizePlantGeneration", () => {
  const raw = {
    times: "10:00,10:10,10:20,10:30",
    days: "-1,50,120", // one value short; 120 kW exceeds the 99.8 kW plant
    his: "100,1500,,",
    iis: null,
    ats: "-50,30,130,20",
    sts: "",
    capa: 9980,
    alarm_count: 0,
    dailys: 7000,
    iw: 0,
  };

  it("parses every series to one value per timestamp and applies the caps", () => {
    const out = sanitizePlantGeneration(raw);
    expect(out.labels).toEqual(["10:00", "10:10", "10:20", "10:30"]);
    expect(out.capacityKw).toBe(99.8);
    expect(out.generation).toEqual([0, 50, 99.8, 0]);
    expect(out.his).toEqual([100, 1300, 0, 0]);
    expect(out.iis).toEqual([0, 0, 0, 0]);
    expect(out.ats).toEqual([-40, 30, 120, 20]);
    expect(out.sts).toEqual([0, 0, 0, 0]);
    expect(out.dailys).toBe(7000);
  });

  it("applies the chart daily rule by default and the grid rule on request", () => {
    const alarmed = { ...raw, alarm_count: 1 };
    expect(sanitizePlantGeneration(alarmed).dailys).toBe(7000); // series has output
    expect(sanitizePlantGeneration({ ...alarmed, days: "0,0,-5,0" }).dailys).toBe(0);
    expect(sanitizePlantGeneration(alarmed, "grid").dailys).toBe(0); // iw 0
    expect(sanitizePlantGeneration({ ...alarmed, iw: "3.5" }, "grid").dailys).toBe(7000);
  });

  it("gives empty series without timestamps", () => {
    const out = sanitizePlantGeneration({ days: "1,2,3", dailys: "12" });
    expect(out.generation).toEqual([]);
    expect(out.dailys).toBe(12);
    expect(out.capacityKw).toBe(0);
  });
});

describe("todayGeneration (the one place of SPEC §5's alarm rule for every screen)", () => {
  it("zeroes a plant in alarm without output and marks it", () => {
    expect(todayGeneration({ daily: 10_000, alarmCount: 1, iw: 0 })).toEqual({ dailys: 0, zeroed: true });
  });
  it("keeps the counter, unmarked, without alarm or with output", () => {
    expect(todayGeneration({ daily: 10_000, alarmCount: 0, iw: 0 })).toEqual({ dailys: 10_000, zeroed: false });
    expect(todayGeneration({ daily: 10_000, alarmCount: 2, iw: 5 })).toEqual({ dailys: 10_000, zeroed: false });
  });
  it("does not mark a value that was 0 anyway", () => {
    expect(todayGeneration({ daily: 0, alarmCount: 1, iw: 0 })).toEqual({ dailys: 0, zeroed: false });
    expect(todayGeneration({ daily: Number.NaN, alarmCount: 1, iw: 0 })).toEqual({ dailys: 0, zeroed: false });
  });
});
