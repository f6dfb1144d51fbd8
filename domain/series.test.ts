import { describe, it, expect } from "vitest";
import {
  HOUR_MS,
  TEN_MINUTES_MS,
  formatSeries,
  needsHourlyShift,
  parseLabels,
  parseSeries,
  shiftHourly,
  sumSeries,
  timeSeriesKeys,
} from "./series";
import { formatSeoul, parseSeoul } from "./seoul-time";

describe("parseSeries", () => {
  it("parses comma-separated numbers", () => {
    expect(parseSeries("1,2.5,-3,1e3")).toEqual([1, 2.5, -3, 1000]);
    expect(parseSeries(" 1 , 2 ")).toEqual([1, 2]);
  });

  it("reads blanks, junk and non-finite entries as 0", () => {
    expect(parseSeries("1,,3")).toEqual([1, 0, 3]);
    expect(parseSeries(",")).toEqual([0, 0]);
    expect(parseSeries("abc,null,NaN,Infinity, ,4")).toEqual([0, 0, 0, 0, 0, 4]);
  });

  it("gives [] for blank or missing text without a length", () => {
    expect(parseSeries("")).toEqual([]);
    expect(parseSeries("   ")).toEqual([]);
    expect(parseSeries(null)).toEqual([]);
    expect(parseSeries(undefined)).toEqual([]);
  });

  it("pads with zeros or cuts to the number of timestamps", () => {
    expect(parseSeries("1,2", 4)).toEqual([1, 2, 0, 0]);
    expect(parseSeries("1,2,3,4,5", 3)).toEqual([1, 2, 3]);
    expect(parseSeries(null, 3)).toEqual([0, 0, 0]);
    expect(parseSeries("", 2)).toEqual([0, 0]);
    expect(parseSeries("1,2", 0)).toEqual([]);
  });
});

describe("formatSeries", () => {
  it("joins values and writes missing ones blank", () => {
    expect(formatSeries([1, 2.5, 0, -3])).toBe("1,2.5,0,-3");
    expect(formatSeries([1, null, undefined, Number.NaN, 5])).toBe("1,,,,5");
    expect(formatSeries([])).toBe("");
  });

  it("rounds to the given decimals and drops trailing zeros", () => {
    expect(formatSeries([0.1 + 0.2, 1.005, 2], 2)).toBe("0.3,1,2");
    expect(formatSeries([12.3456], 1)).toBe("12.3");
  });

  it("round-trips through parseSeries", () => {
    const values = [0, 1.25, 300, 0, 42];
    expect(parseSeries(formatSeries(values), values.length)).toEqual(values);
  });
});

describe("parseLabels and sumSeries", () => {
  it("splits labels", () => {
    expect(parseLabels("09:00, 09:10,09:20")).toEqual(["09:00", "09:10", "09:20"]);
    expect(parseLabels("")).toEqual([]);
    expect(parseLabels(null)).toEqual([]);
  });

  it("sums finite values", () => {
    expect(sumSeries([1, 2, Number.NaN, 3])).toBe(6);
    expect(sumSeries([])).toBe(0);
  });
});

describe("time keys", () => {
  const day = parseSeoul("2024-06-01 00:00")!; // Seoul midnight
  const nextDay = day + 24 * HOUR_MS;

  it("steps 10 minutes over a finished day: 144 keys, end exclusive", () => {
    const keys = timeSeriesKeys({ from: day, to: nextDay, resolution: "tenMinute", now: nextDay + HOUR_MS });
    expect(keys).toHaveLength(144);
    expect(keys[1] - keys[0]).toBe(TEN_MINUTES_MS);
    expect(formatSeoul(keys[0])).toBe("2024-06-01 00:00");
    expect(formatSeoul(keys[143])).toBe("2024-06-01 23:50");
  });

  it("steps 1 hour for hourly keys: 24 keys", () => {
    const keys = timeSeriesKeys({ from: day, to: nextDay, resolution: "hourly", now: nextDay });
    expect(keys).toHaveLength(24);
    expect(formatSeoul(keys[23])).toBe("2024-06-01 23:00");
  });

  it("never goes past now", () => {
    const now = parseSeoul("2024-06-01 12:34")!;
    const keys = timeSeriesKeys({ from: day, to: nextDay, resolution: "tenMinute", now });
    expect(formatSeoul(keys[keys.length - 1])).toBe("2024-06-01 12:30");
    expect(keys).toHaveLength(76);
    const atBoundary = timeSeriesKeys({ from: day, to: nextDay, resolution: "hourly", now: day + 3 * HOUR_MS });
    expect(atBoundary.map((k) => formatSeoul(k, "HH:mm"))).toEqual(["00:00", "01:00", "02:00", "03:00"]);
    expect(timeSeriesKeys({ from: day, to: nextDay, resolution: "hourly", now: day - 1 })).toEqual([]);
  });

  it("aligns an unaligned start up to the next step", () => {
    const keys = timeSeriesKeys({ from: day + 61_000, to: day + HOUR_MS, resolution: "tenMinute", now: nextDay });
    expect(keys.map((k) => formatSeoul(k, "HH:mm"))).toEqual(["00:10", "00:20", "00:30", "00:40", "00:50"]);
  });
});

describe("hourly shift", () => {
  it("applies only to hourly data", () => {
    expect(needsHourlyShift("hourly")).toBe(true);
    expect(needsHourlyShift("tenMinute")).toBe(false);
  });

  it("moves keys one hour later and skips the first entry of every series", () => {
    const times = [0, 1, 2, 3].map((h) => h * HOUR_MS);
    const out = shiftHourly(times, [10, 11, 12, 13], [20, 21, 22, 23]);
    expect(out.times).toEqual([2, 3, 4].map((h) => h * HOUR_MS));
    expect(out.series).toEqual([
      [11, 12, 13],
      [21, 22, 23],
    ]);
  });

  it("copes with empty input", () => {
    expect(shiftHourly([], [])).toEqual({ times: [], series: [[]] });
  });
});
