/**
 * Signed tokens: a short-lived access token carrying the member's state (SPEC §3 User state)
 * and a refresh token naming its session (token family) and its place in the rotation.
 */
import { SignJWT, jwtVerify } from "jose";
import { LRUCache } from "lru-cache";
import type { AccessClaims } from "../../domain/contract/auth";

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
  constructor(
    secret: string,
    private issuer = "solar-portal",
  ) {
    this.key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
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

  /**
   * Access tokens whose signature was checked, until they expire: a page makes two or three /api calls
   * with one token and a wallboard repeats it every 6 s, so the HMAC is checked once per token, not per
   * call. Only the signature and claims check is kept; the session's liveness is still asked every time.
   */
  private verified = new LRUCache<string, AccessClaims>({ max: 10_000 });

  async verifyAccess(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, await this.key, { issuer: this.issuer, algorithms: ["HS256"] });
      if (payload.typ !== "access") return null;
      const claims = payload as unknown as AccessClaims;
      this.verified.set(token, claims);
      return claims;
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
