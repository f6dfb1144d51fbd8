import { describe, it, expect } from "vitest";
import { hasIrradiance, irradianceMode } from "./irradiance";

describe("irradianceMode", () => {
  it.each([
    [[0, 500, 300], [0, 600, 320], 3],
    [[0, 500, 300], [0, 0, 0], 1],
    [[0, 0, 0], [0, 600, 320], 2],
    [[0, 0, 0], [0, 0, 0], 0],
    [[], [], 0],
    [null, undefined, 0],
    [[1], null, 1],
  ] as const)("his %j, iis %j → %i", (his, iis, mode) => {
    expect(irradianceMode(his, iis)).toBe(mode);
  });

  it("ignores non-finite entries", () => {
    expect(irradianceMode([Number.NaN, 0], [Number.POSITIVE_INFINITY])).toBe(0);
  });

  it("hasIrradiance is false only for mode 0", () => {
    expect([0, 1, 2, 3].map((m) => hasIrradiance(m as 0 | 1 | 2 | 3))).toEqual([false, true, true, true]);
  });
});
