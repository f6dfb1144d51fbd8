import { describe, expect, it } from "vitest";
import { deriveSourceKey, openSecret, sealSecret } from "./secret-box";

describe("secret box", () => {
  it("round-trips and does not reveal the password", () => {
    const key = deriveSourceKey("x".repeat(40));
    const sealed = sealSecret(key, "pässword!");
    expect(sealed).not.toContain("pässword");
    expect(openSecret(key, sealed)).toBe("pässword!");
    expect(sealSecret(key, "a")).not.toBe(sealSecret(key, "a"));
  });
  it("refuses another key or tampered text", () => {
    const sealed = sealSecret(deriveSourceKey("a".repeat(40)), "secret");
    expect(() => openSecret(deriveSourceKey("b".repeat(40)), sealed)).toThrow();
    expect(() => openSecret(deriveSourceKey("a".repeat(40)), sealed.slice(0, -2) + "AA")).toThrow();
  });
});
