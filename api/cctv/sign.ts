/**
 * Signed stream URLs (SPEC §7 GET /cctv/url): a video element cannot send the member's bearer token, so the
 * playlist, its segments and the snapshot are reached through a token in the path that names the camera and
 * an expiry, signed with HMAC-SHA256 under a key derived from the server secret. Relative segment names in
 * the playlist then carry the same token.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export function deriveCctvKey(serverSecret: string): Buffer {
  return createHash("sha256").update(`cctv-stream-url:${serverSecret}`).digest();
}

const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url").slice(0, 32);

/** `<uid>.<expiry, base 36>.<signature>`; the uid is [A-Za-z0-9_-] so the dots are unambiguous. */
export function signStreamToken(key: Buffer, uid: string, expiresAt: number): string {
  const body = `${uid}.${expiresAt.toString(36)}`;
  return `${body}.${mac(key, body)}`;
}

export type TokenCheck = { ok: true; uid: string; expiresAt: number } | { ok: false; reason: "invalid" | "expired" };

export function verifyStreamToken(key: Buffer, token: string, now = Date.now()): TokenCheck {
  const m = /^([A-Za-z0-9_-]{1,40})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return { ok: false, reason: "invalid" };
  const [, uid, exp, sig] = m;
  const want = Buffer.from(mac(key, `${uid}.${exp}`));
  const got = Buffer.from(sig!);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { ok: false, reason: "invalid" };
  const expiresAt = parseInt(exp!, 36);
  if (expiresAt < now) return { ok: false, reason: "expired" };
  return { ok: true, uid: uid!, expiresAt };
}
