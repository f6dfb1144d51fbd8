import { describe, expect, it } from "vitest";
import { THROTTLE, afterFailure, throttleWait, type ThrottleState } from "./throttle";

describe("login throttle", () => {
  it("lets the first failures through without delay", () => {
    let s: ThrottleState | undefined;
    for (let i = 0; i < THROTTLE.freeFailures - 1; i++) {
      s = afterFailure(s, 1000);
      expect(throttleWait(s, 1000)).toBe(0);
    }
  });

  it("doubles the wait for each failure past the free ones, up to the cap", () => {
    const now = 10_000_000;
    const wait = (failures: number) => throttleWait({ failures, lastFailureAt: now }, now);
    expect(wait(THROTTLE.freeFailures)).toBe(1_000);
    expect(wait(THROTTLE.freeFailures + 1)).toBe(2_000);
    expect(wait(THROTTLE.freeFailures + 3)).toBe(8_000);
    expect(wait(THROTTLE.freeFailures + 30)).toBe(THROTTLE.maxDelayMs);
  });

  it("counts down as time passes", () => {
    const s = { failures: THROTTLE.freeFailures + 2, lastFailureAt: 0 };
    expect(throttleWait(s, 1_000)).toBe(3_000);
    expect(throttleWait(s, 4_000)).toBe(0);
  });

  it("forgets after a quiet window, so the owner is not locked out for long", () => {
    const s = { failures: 100, lastFailureAt: 0 };
    expect(throttleWait(s, THROTTLE.forgetAfterMs)).toBe(0);
    expect(afterFailure(s, THROTTLE.forgetAfterMs)).toEqual({ failures: 1, lastFailureAt: THROTTLE.forgetAfterMs });
    expect(afterFailure(s, 5)).toEqual({ failures: 101, lastFailureAt: 5 });
  });
});
