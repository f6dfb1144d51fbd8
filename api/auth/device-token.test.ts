import { describe, expect, it } from "vitest";
import { DeviceTokens } from "./device-token";

describe("device tokens", () => {
  const tokens = new DeviceTokens("s".repeat(40));
  it("verify the member they were issued to (id case-insensitive) and nobody else", () => {
    const t = tokens.issue("Owner");
    expect(tokens.verify("owner", t)).toBeTruthy();
    expect(tokens.verify("other", t)).toBeNull();
    expect(new DeviceTokens("x".repeat(40)).verify("owner", t)).toBeNull();
  });
  it("refuse what is not a token", () => {
    for (const bad of [undefined, 1, "", "abc", "a.b.c", `${"a".repeat(100)}.${"b".repeat(100)}`]) {
      expect(tokens.verify("owner", bad)).toBeNull();
    }
  });
});
