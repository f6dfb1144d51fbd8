import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashGatewaySecret, newGatewaySecret, parseGatewayAuthorization, verifyGatewaySecret } from "./gateway-credential";

describe("gateway credential", () => {
  it("makes 32-byte secrets and stores only their sha256 hex", () => {
    const s = newGatewaySecret();
    expect(Buffer.from(s, "base64url")).toHaveLength(32);
    expect(newGatewaySecret()).not.toBe(s);
    expect(hashGatewaySecret(s)).toBe(createHash("sha256").update(s).digest("hex"));
  });
  it("verifies in constant time and refuses missing or malformed hashes", () => {
    const s = newGatewaySecret();
    const h = hashGatewaySecret(s);
    expect(verifyGatewaySecret(s, h)).toBe(true);
    expect(verifyGatewaySecret(s, h.toUpperCase())).toBe(true);
    expect(verifyGatewaySecret(`${s}x`, h)).toBe(false);
    expect(verifyGatewaySecret(s, null)).toBe(false);
    expect(verifyGatewaySecret(s, "abc")).toBe(false);
  });
  it("parses Basic base64(rtuUid:secret)", () => {
    const header = `Basic ${Buffer.from("RTU-1:se:cret").toString("base64")}`;
    expect(parseGatewayAuthorization(header)).toEqual({ rtuUid: "RTU-1", secret: "se:cret" });
    expect(parseGatewayAuthorization("Bearer x")).toBeNull();
    expect(parseGatewayAuthorization(undefined)).toBeNull();
  });
});
