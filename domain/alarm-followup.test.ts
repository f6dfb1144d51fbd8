import { describe, expect, it } from "vitest";
import { HOUR_MS, autoCloseDue, isFlapping, togglesInHour } from "./alarm-followup";

const MIN = 60_000;
const now = 1_700_000_000_000;

describe("alarm follow-up rules", () => {
  it("auto-close: after the configured time without the condition, never when off", () => {
    expect(autoCloseDue(now - 30 * MIN, now, 30)).toBe(true);
    expect(autoCloseDue(now - 30 * MIN + 1, now, 30)).toBe(false);
    expect(autoCloseDue(now - 10 * HOUR_MS, now, 0)).toBe(false);
  });

  it("flapping: more than N returns within the last hour", () => {
    const returns = [now - 70 * MIN, now - 50 * MIN, now - 20 * MIN, now - 5 * MIN, now];
    expect(togglesInHour(returns, now)).toBe(4);
    expect(isFlapping(returns, now, 3)).toBe(true);
    expect(isFlapping(returns, now, 4)).toBe(false);
    // An hour later the same returns are history: it no longer flaps.
    expect(isFlapping(returns, now + HOUR_MS, 3)).toBe(false);
    expect(isFlapping([], now, 0)).toBe(false);
  });
});
