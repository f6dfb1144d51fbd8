import { afterEach, describe, expect, it, vi } from "vitest";
import type { AccessClaims } from "../../domain/contract/auth";
import { TokenSigner } from "./tokens";

const claims: Omit<AccessClaims, "exp" | "iat" | "typ"> = {
  id: "op1",
  sid: "s1",
  auth: 3,
  service: 1,
  nodeName: "운영",
  logo: "",
  S3_DOMAIN: "",
  diagram: 0,
  cctv: 0,
  page: 0,
  phone: "",
  helmetName: "",
  plantName: "",
  alarmCount: 0,
  pwd_yn: 0,
  readOnly: 0,
};

describe("TokenSigner access tokens", () => {
  afterEach(() => vi.useRealTimers());

  it("accepts its own token, again and again (the second check comes from the verified-token cache)", async () => {
    const signer = new TokenSigner("x".repeat(32));
    const token = await signer.signAccess(claims, 60);
    const first = await signer.verifyAccess(token);
    expect(first).toMatchObject({ id: "op1", sid: "s1", typ: "access" });
    expect(await signer.verifyAccess(token)).toEqual(first);
  });

  it("refuses a token signed with another secret, a tampered one and a refresh token", async () => {
    const signer = new TokenSigner("x".repeat(32));
    const other = new TokenSigner("y".repeat(32));
    const token = await signer.signAccess(claims, 60);
    expect(await other.verifyAccess(token)).toBeNull();
    const [h, p, s] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, "base64url").toString()), auth: 1 })).toString(
      "base64url",
    );
    expect(await signer.verifyAccess(`${h}.${forged}.${s}`)).toBeNull();
    // A valid token still verifies after the forged one was refused (nothing wrong was cached).
    expect(await signer.verifyAccess(token)).not.toBeNull();
    const refresh = await signer.signRefresh({ sub: "op1", sid: "s1", jti: "j1", expiresAt: Date.now() + 60_000 });
    expect(await signer.verifyAccess(refresh)).toBeNull();
  });

  it("stops accepting a cached token once it has expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = new Date("2026-11-22T03:00:00Z").getTime();
    vi.setSystemTime(t0);
    const signer = new TokenSigner("x".repeat(32));
    const token = await signer.signAccess(claims, 60, t0);
    expect(await signer.verifyAccess(token)).not.toBeNull();
    vi.setSystemTime(t0 + 59_000);
    expect(await signer.verifyAccess(token)).not.toBeNull();
    vi.setSystemTime(t0 + 61_000);
    expect(await signer.verifyAccess(token)).toBeNull();
  });
});
