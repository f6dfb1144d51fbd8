/**
 * Signed tokens: a short-lived access token carrying the member's state (SPEC §3 User state)
 * and a refresh token naming its session (token family) and its place in the rotation.
 */
import { SignJWT, jwtVerify } from "jose";
import type { AccessClaims } from "../../domain/contract";

export interface RefreshClaims {
  sub: string;
  sid: string;
  jti: string;
  exp: number;
  typ: "refresh";
}

export class TokenSigner {
  /**
   * The HMAC key, imported once: given the raw secret, jose imports it again on every sign and verify,
   * which doubled the cost of checking a token (every /api call does).
   */
  private key: Promise<CryptoKey>;
  constructor(secret: string, private issuer = "solar-portal") {
    this.key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  }

  async signAccess(claims: Omit<AccessClaims, "exp" | "iat" | "typ">, ttlSeconds: number, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ ...claims, typ: "access" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(this.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(await this.key);
  }

  /** Refresh tokens are deterministic in (member, session, jti, expiry), so the current one can be re-issued. */
  async signRefresh(c: { sub: string; sid: string; jti: string; expiresAt: number }): Promise<string> {
    return new SignJWT({ sid: c.sid, typ: "refresh" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(this.issuer)
      .setSubject(c.sub)
      .setJti(c.jti)
      .setExpirationTime(Math.floor(c.expiresAt / 1000))
      .sign(await this.key);
  }

  async verifyAccess(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { issuer: this.issuer, algorithms: ["HS256"] });
      return payload.typ === "access" ? (payload as unknown as AccessClaims) : null;
    } catch {
      return null;
    }
  }

  async verifyRefresh(token: string): Promise<RefreshClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { issuer: this.issuer, algorithms: ["HS256"] });
      if (payload.typ !== "refresh" || !payload.sid || !payload.jti || !payload.sub) return null;
      return payload as unknown as RefreshClaims;
    } catch {
      return null;
    }
  }
}
