/**
 * Rules of the camera screen (SPEC §2 /cctv, §7 GET /cctv/url): which camera addresses are accepted, how
 * credentials are kept apart from the address, the resolution rule of MOTIE 2021 (at least 2 MP), and the
 * form of a signed stream token (the signature itself is the API's).
 */
import { outboundUrlProblem } from "./outbound-address";
import type { CameraState } from "./contract/cctv";

/** MOTIE 2021: cameras of at least 2 megapixels (1920 × 1080 = 2.07 MP counts). */
export const MOTIE_MIN_PIXELS = 2_000_000;

/** How long a signed stream URL works; the page asks for a fresh one well before. */
export const CCTV_URL_TTL_MS = 10 * 60_000;
/** The page renews its signed URL this often. */
export const CCTV_URL_RENEW_MS = 4 * 60_000;

/**
 * Why an address cannot be a camera's by its form, or null: the outbound-address rule (domain/outbound-address.ts;
 * schemes rtsp, rtsps, http, https). The API checks the addresses the host resolves to as well.
 */
export const cameraUrlProblem = (raw: string): string | null => outboundUrlProblem(raw);

export interface CameraAddress {
  url: string;
  username: string | null;
  password: string | null;
}

/** Takes credentials written into the address out of it; fields given apart win over those in the URL. */
export function splitCredentials(raw: string, username?: string | null, password?: string | null): CameraAddress {
  const u = new URL(raw.trim());
  const inUser = u.username ? decodeURIComponent(u.username) : null;
  const inPass = u.password ? decodeURIComponent(u.password) : null;
  u.username = "";
  u.password = "";
  return { url: u.toString(), username: username || inUser || null, password: password || inPass || null };
}

/** The address with the credentials put back in, for the converter only (never for a browser). */
export function withCredentials({ url, username, password }: CameraAddress): string {
  if (!username) return url;
  const u = new URL(url);
  u.username = encodeURIComponent(username);
  if (password) u.password = encodeURIComponent(password);
  return u.toString();
}

/** Megapixels with one decimal, or null when the resolution is unknown. */
export function megapixels(width: number | null | undefined, height: number | null | undefined): number | null {
  if (!width || !height) return null;
  return Math.round((width * height) / 100_000) / 10;
}

/** Whether a resolution meets MOTIE's 2 MP; null when unknown. */
export function meetsMotie(width: number | null | undefined, height: number | null | undefined): boolean | null {
  if (!width || !height) return null;
  return width * height >= MOTIE_MIN_PIXELS;
}

/** The files of a camera's HLS output a viewer may fetch: the playlist and its numbered segments. */
export function isStreamFile(name: string): boolean {
  return name === "index.m3u8" || /^seg_\d{1,9}\.ts$/.test(name);
}

/**
 * The server's own limit from the first request to the first segment (api/cctv/streams.ts: probe 15 s, then the
 * first segment within 20 s) and some margin: a player still without a picture after this long has failed.
 */
export const CONNECT_GIVE_UP_MS = 45_000;
/** How soon a player whose stream is still being set up asks again. */
export const CONNECT_RETRY_MS = 2_000;

/**
 * What the player says after a load of the stream failed (issue 26 point 13): "✕ unreachable" showed for 15–20 s
 * while the server was still connecting to the camera. Only the server's word that the camera failed (or has no
 * converter) is a failure; while it is still starting (or could not be asked) the player keeps saying it is
 * connecting and asks again soon, until CONNECT_GIVE_UP_MS have passed since it began.
 */
export function afterLoadFailure(
  serverState: CameraState | null,
  sinceStartMs: number,
): "connecting" | "unreachable" | "ffmpeg_missing" {
  if (serverState === "unreachable" || serverState === "ffmpeg_missing") return serverState;
  return sinceStartMs >= CONNECT_GIVE_UP_MS ? "unreachable" : "connecting";
}
