/**
 * Device cookies (OWASP "Slow down online guessing attacks with device cookies"): a successful login
 * hands the browser a token bound to that member. A later login for the same id that presents it is
 * throttled under the token's own key instead of the id's, so failures by strangers, however patient,
 * never delay the member on a browser that has logged in as them before. The token is stateless:
 * a random nonce and an HMAC over (member id, nonce) with the server's signing secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export class DeviceTokens {
  constructor(private readonly secret: string) {}

  private mac(id: string, nonce: string): Buffer {
    return createHmac("sha256", this.secret).update(`device\u0000${id.toLowerCase()}\u0000${nonce}`).digest();
  }

  issue(id: string): string {
    const nonce = randomBytes(12).toString("base64url");
    return `${nonce}.${this.mac(id, nonce).toString("base64url")}`;
  }

  /** The token's nonce when it was issued to `id`, else null. */
  verify(id: string, token: unknown): string | null {
    if (typeof token !== "string" || token.length > 128) return null;
    const [nonce, mac, extra] = token.split(".");
    if (!nonce || !mac || extra !== undefined) return null;
    const given = Buffer.from(mac, "base64url");
    const expected = this.mac(id, nonce);
    return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
  }
}
