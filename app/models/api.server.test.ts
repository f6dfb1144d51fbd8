import { afterEach, describe, expect, it, vi } from "vitest";
import { frozenInTests } from "./api.server";

describe("frozenInTests (answers shared between requests)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("freezes the whole value outside production, so a change throws instead of reaching the next request", () => {
    const shared = frozenInTests({ list: [{ name: "가람", values: [1, 2] }], counts: { total: 1 } });
    expect(Object.isFrozen(shared.list[0]!.values)).toBe(true);
    expect(() => {
      (shared.list[0] as { name: string }).name = "changed";
    }).toThrow(TypeError);
    expect(() => shared.list.push({ name: "x", values: [] })).toThrow(TypeError);
  });

  it("leaves it as it is in production, unless FREEZE_SHARED=1 (the test servers)", () => {
    vi.stubEnv("NODE_ENV", "production");
    expect(Object.isFrozen(frozenInTests({ a: [1] }).a)).toBe(false);
    vi.stubEnv("FREEZE_SHARED", "1");
    expect(Object.isFrozen(frozenInTests({ a: [1] }).a)).toBe(true);
  });
});
