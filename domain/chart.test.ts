import { describe, it, expect } from "vitest";
import {
  CARD_NAME_LENGTH,
  DEFAULT_STATISTICS_UNIT,
  DEFAULT_VIEW_COUNT,
  DEFAULT_VISIBLE_SERIES,
  FETCH_LIMIT,
  GROUP_STATUS_DEFAULTS,
  GROUP_STATUS_DEFAULT_VIEW_COUNT,
  IRRADIANCE_AXIS,
  MEASUREMENT_WINDOW,
  REFRESH_INTERVAL_MS,
  SERIES_COLORS,
  VIEW_COUNT_OPTIONS,
  effectiveViewCount,
  generationAxis,
  isViewCount,
  nextFetchLimit,
} from "./chart";

function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

describe("chart axes", () => {
  it("irradiance axis max 1100, step 650", () => {
    expect(IRRADIANCE_AXIS).toEqual({ max: 1100, step: 650 });
  });

  it("generation axis: max = capacity, step = half", () => {
    expect(generationAxis(99.8)).toEqual({ suggestedMax: 99.8, step: 49.9 });
    expect(generationAxis(0)).toEqual({ suggestedMax: 1, step: 0.5 });
    expect(generationAxis(null)).toEqual({ suggestedMax: 1, step: 0.5 });
  });
});

describe("series colours", () => {
  it("read on white and on the dark background", () => {
    for (const color of Object.values(SERIES_COLORS)) {
      expect(contrast(color, "#FFFFFF")).toBeGreaterThanOrEqual(3);
      expect(contrast(color, "#111827")).toBeGreaterThanOrEqual(3);
    }
  });

  it("start with reference generation hidden", () => {
    expect(DEFAULT_VISIBLE_SERIES).toEqual({ generation: true, irradiance: true, reference: false });
  });
});

describe("polling and paging", () => {
  it("has the spec intervals and limits", () => {
    expect(REFRESH_INTERVAL_MS).toEqual({ pvstatus: 6000, groupPvstatus: 660000, control: 660000, recentAlarm: 660000 });
    expect(FETCH_LIMIT).toEqual({ initial: 20, polling: 20 });
    expect(nextFetchLimit(20, 25)).toBe(45);
  });

  it("offers 10, 25, 50 with default 10 and group default 25", () => {
    expect(VIEW_COUNT_OPTIONS).toEqual([10, 25, 50]);
    expect(DEFAULT_VIEW_COUNT).toBe(10);
    expect(GROUP_STATUS_DEFAULT_VIEW_COUNT).toBe(25);
    expect([10, 25, 50, 20, "10"].map(isViewCount)).toEqual([true, true, true, false, false]);
  });

  it("forces 10 on a mobile grid and falls back to 10 for unknown values", () => {
    expect(effectiveViewCount(50, { mobile: true, view: "gd" })).toBe(10);
    expect(effectiveViewCount(50, { mobile: true, view: "gh" })).toBe(50);
    expect(effectiveViewCount("25", { mobile: false, view: "gd" })).toBe(25);
    expect(effectiveViewCount("999", { mobile: false, view: "gd" })).toBe(10);
    expect(effectiveViewCount(undefined, { mobile: false, view: "gh" })).toBe(10);
  });
});

describe("other defaults", () => {
  it("match the spec", () => {
    expect(GROUP_STATUS_DEFAULTS).toEqual({ type: "node", view: "gd" });
    expect(DEFAULT_STATISTICS_UNIT).toBe(30);
    expect(MEASUREMENT_WINDOW).toEqual({ hours: 24, unit: 10 });
    expect(CARD_NAME_LENGTH).toEqual({ mediumLine: 17, bar: 12, smallGrid: 9 });
  });
});
