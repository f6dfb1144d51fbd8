import { describe, expect, it } from "vitest";
import { seoulHm, seoulYmdHm } from "./format";

describe("Seoul times on the status screens", () => {
  it("writes the first hour after midnight as 00, the same in every runtime (no Intl: one ICU says 24)", () => {
    const justAfterMidnight = Date.UTC(2026, 10, 26, 15, 5); // 2026-11-27 00:05 in Seoul
    expect(seoulHm(justAfterMidnight)).toBe("00:05");
    expect(seoulYmdHm(justAfterMidnight)).toBe("2026-11-27 00:05");
    expect(seoulYmdHm(Date.UTC(2026, 10, 26, 14, 59))).toBe("2026-11-26 23:59");
  });
});
