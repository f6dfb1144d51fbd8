/**
 * Signed stream URLs (SPEC §7 GET /cctv/url): a video element cannot send the member's bearer token, so the
 * playlist, its segments and the snapshot are reached through a token in the path that names the camera, the
 * viewer's session and member, and an expiry, signed with HMAC-SHA256 under a key derived from the server secret.
 * Relative segment names in the playlist then carry the same token. The route answers a token only while its
 * session stands and its member still sees the camera's plant, so a URL passed on, or kept after logout or a move
 * to another group, is worth nothing.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export function deriveCctvKey(serverSecret: string): Buffer {
  return createHash("sha256").update(`cctv-stream-url:${serverSecret}`).digest();
}

const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url").slice(0, 32);

export interface StreamViewer {
  /** The session (token family) the URL was handed to. */
  sid: string;
  member: string;
}

/**
 * `<uid>.<expiry, base 36>.<session>.<member, base64url>.<signature>`; the uid and the session are [A-Za-z0-9_-],
 * the member id is encoded, so the dots are unambiguous.
 */
export function signStreamToken(key: Buffer, uid: string, viewer: StreamViewer, expiresAt: number): string {
  const body = `${uid}.${expiresAt.toString(36)}.${viewer.sid}.${Buffer.from(viewer.member).toString("base64url")}`;
  return `${body}.${mac(key, body)}`;
}

export type TokenCheck =
  { ok: true; uid: string; expiresAt: number; viewer: StreamViewer } | { ok: false; reason: "invalid" | "expired" };

export function verifyStreamToken(key: Buffer, token: string, now = Date.now()): TokenCheck {
  const m =
    /^(([A-Za-z0-9_-]{1,40})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,200}))\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return { ok: false, reason: "invalid" };
  const [, body, uid, exp, sid, member, sig] = m;
  const want = Buffer.from(mac(key, body!));
  const got = Buffer.from(sig!);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { ok: false, reason: "invalid" };
  const expiresAt = parseInt(exp!, 36);
  if (expiresAt < now) return { ok: false, reason: "expired" };
  return { ok: true, uid: uid!, expiresAt, viewer: { sid: sid!, member: Buffer.from(member!, "base64url").toString() } };
}
