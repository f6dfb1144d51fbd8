/**
 * Camera calls (SPEC §7 GET /cctv/url (uid)) and what SPEC does not show: the member's camera list
 * (GET /cctv/list), the administration of a plant's cameras (POST /cctv/camera, PUT and DELETE
 * /cctv/camera/{uid}) and the stream itself, reached by signed URL only (GET /cctv/hls/{token}/{file},
 * GET /cctv/snapshot/{token}). Every camera belongs to a plant and goes through api/store/visibility.ts:
 * a camera of a plant the member may not see answers 404 `camera_not_found`, like one that does not exist.
 * The camera's credentials stay here: answers name only whether there are some.
 */
import { randomBytes } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { canAdminister } from "../../domain/admin-levels";
import { CCTV_URL_TTL_MS, splitCredentials, withCredentials } from "../../domain/cctv";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  CameraCreate,
  CameraListQuery,
  CameraUid,
  CameraUpdate,
  CctvUrlQuery,
  type CameraItem,
  type CameraListResponse,
  type CameraSaved,
  type CctvUrlResponse,
} from "../../domain/contract/cctv";
import { parse as parseCookies } from "cookie";
import { bearerToken, requireAdmin, requireSettled } from "../auth/guards";
import { CameraUnavailable, type CameraSource, type CameraStreams } from "../cctv/streams";
import { signStreamToken, verifyStreamToken } from "../cctv/sign";
import { openSecret, sealSecret } from "../crawling/secret-box";
import type { ApiContext } from "../context";
import { ApiError, badRequest, forbidden, handle, notFound, parse } from "../http";
import { cameraByUid, camerasOf, deleteCamera, insertCamera, updateCamera, type CameraRow } from "../store/cameras";
import { reachOf, requirePlant, visiblePlantUids, type Reach } from "../store/visibility";

export interface CctvOptions {
  streams: CameraStreams;
  /** Signs the stream URLs (api/cctv/sign.ts). */
  urlKey: Buffer;
  /** Seals camera passwords at rest (api/crawling/secret-box.ts). */
  passwordKey: Buffer;
}

/** Cameras are for members who have them (SPEC §3 user state `cctv`). */
function requireCctvMember(req: Request): AccessClaims {
  const m = requireSettled(req);
  if (!m.cctv) throw forbidden("cctv_not_enabled");
  return m;
}

const unavailable = (e: CameraUnavailable) =>
  e.state === "ffmpeg_missing"
    ? new ApiError(503, "ffmpeg_missing", {}, { "Retry-After": "60" })
    : e.state === "refused"
      ? new ApiError(403, "camera_address_refused", { details: { url: [e.detail ?? "address_refused"] } })
      : new ApiError(502, "camera_unreachable", e.detail ? { details: { reason: [e.detail] } } : {});

export function cctvRoutes(ctx: ApiContext, opts: CctvOptions): { publicRoutes: Router; routes: Router } {
  const db = ctx.store.db;
  const { streams } = opts;

  /** A camera address the outbound-address rule allows (api/net/outbound-address.ts); 400 naming `url` otherwise. */
  async function allowedUrl(url: string): Promise<void> {
    const check = await ctx.outbound.check(url);
    if (!check.ok) throw badRequest("invalid_input", { url: check.problem });
  }

  const source = (c: CameraRow): CameraSource => {
    let password: string | null = null;
    if (c.password_sealed) {
      try {
        password = openSecret(opts.passwordKey, c.password_sealed);
      } catch {
        password = null;
      }
    }
    return { uid: c.uid, url: withCredentials({ url: c.url, username: c.username, password }) };
  };

  const item = (c: CameraRow, editable: boolean): CameraItem => {
    const s = streams.status(c.uid);
    return {
      uid: c.uid,
      plant_uid: c.plant_uid,
      plant_name: c.plant_name,
      name: c.name,
      url: c.url,
      has_credentials: !!(c.username || c.password_sealed),
      width: s.width ?? c.width,
      height: s.height ?? c.height,
      state: s.state,
      last_error: s.error,
      editable,
    };
  };

  /** The camera when the member may see (or edit) its plant; 404 camera_not_found otherwise. */
  async function cameraFor(reach: Reach, uid: string, access: "see" | "edit"): Promise<CameraRow> {
    const cam = await cameraByUid(db, uid);
    if (!cam) throw notFound("camera_not_found");
    await requirePlant(db, reach, cam.plant_uid, access, "camera_not_found");
    return cam;
  }

  /** The session the request shows: the portal's `sessionId` cookie, or the session of a bearer access token. */
  async function shownSession(req: Request): Promise<string | null> {
    const bearer = bearerToken(req);
    if (bearer) return (await ctx.signer.verifyAccess(bearer))?.sid ?? null;
    return parseCookies(req.get("cookie") ?? "").sessionId ?? null;
  }

  /**
   * A valid token's camera, or the refusal: 404 for a forged token or a camera that is gone, 403 `url_expired` for
   * an expired one, 403 `session_required` when the request does not come with the session the URL was handed to
   * (a URL passed on), 403 `session_ended` when that session no longer stands (logged out, revoked), 403
   * `camera_not_visible` when its member no longer sees the camera's plant (moved to another group, disabled).
   * Asked on every file.
   */
  async function tokenCamera(req: Request, token: string): Promise<CameraRow> {
    const check = verifyStreamToken(opts.urlKey, token);
    if (!check.ok) throw check.reason === "expired" ? forbidden("url_expired") : notFound("camera_not_found");
    const cam = await cameraByUid(db, check.uid);
    if (!cam) throw notFound("camera_not_found");
    if ((await shownSession(req)) !== check.viewer.sid) throw forbidden("session_required");
    if (!(await ctx.sessions.isLive(check.viewer.sid))) throw forbidden("session_ended");
    try {
      await requirePlant(db, await reachOf(db, { id: check.viewer.member }), cam.plant_uid, "see");
    } catch (e) {
      if (e instanceof ApiError && e.status < 500) throw forbidden("camera_not_visible");
      throw e;
    }
    return cam;
  }

  const publicRoutes = Router();

  publicRoutes.get(
    "/cctv/hls/:token/:file",
    handle(async (req: Request, res: Response) => {
      const cam = await tokenCamera(req, req.params.token!);
      const file = req.params.file!;
      if (file === "index.m3u8") {
        try {
          await streams.open(source(cam));
        } catch (e) {
          if (e instanceof CameraUnavailable) throw unavailable(e);
          throw e;
        }
      }
      const p = await streams.file(cam.uid, file);
      if (!p) throw notFound("segment_not_found");
      res.setHeader("Cache-Control", "no-store");
      res.type(file.endsWith(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t");
      await new Promise<void>((resolve, reject) =>
        res.sendFile(p, { cacheControl: false, lastModified: false, etag: false }, (err) =>
          err && !res.headersSent ? reject(err) : resolve(),
        ),
      );
      return undefined;
    }),
  );

  publicRoutes.get(
    "/cctv/snapshot/:token",
    handle(async (req: Request, res: Response) => {
      const cam = await tokenCamera(req, String(req.params.token).replace(/\.jpg$/, ""));
      try {
        const jpeg = await streams.snapshot(source(cam));
        res.setHeader("Cache-Control", "no-store");
        res.type("image/jpeg").send(jpeg);
        return undefined;
      } catch (e) {
        if (e instanceof CameraUnavailable) throw unavailable(e);
        throw e;
      }
    }),
  );

  const r = Router();

  r.get(
    "/cctv/list",
    handle(async (req): Promise<CameraListResponse> => {
      const me = requireCctvMember(req);
      const q = parse(CameraListQuery, req.query);
      const reach = await reachOf(db, me);
      let uids = await visiblePlantUids(db, reach, "see");
      if (q.plantUid) {
        await requirePlant(db, reach, q.plantUid, "see");
        uids = [q.plantUid];
      }
      const editablePlants =
        !me.readOnly && canAdminister("plant", me.auth) ? new Set(await visiblePlantUids(db, reach, "edit")) : new Set<string>();
      const cams = await camerasOf(db, uids);
      return { cameraList: cams.map((c) => item(c, editablePlants.has(c.plant_uid))) };
    }),
  );

  r.get(
    "/cctv/url",
    handle(async (req): Promise<CctvUrlResponse> => {
      const me = requireCctvMember(req);
      const { uid } = parse(CctvUrlQuery, req.query);
      const cam = await cameraFor(await reachOf(db, me), uid, "see");
      const expiresAt = Date.now() + CCTV_URL_TTL_MS;
      const token = signStreamToken(opts.urlKey, cam.uid, { sid: me.sid, member: me.id }, expiresAt);
      // A viewer is coming: the process starts now, so the playlist is (nearly) there when the player asks.
      if (streams.ffmpegAvailable()) streams.warm(source(cam));
      const it = item(cam, false);
      return {
        uid: cam.uid,
        url: `/api/cctv/hls/${token}/index.m3u8`,
        snapshot: `/api/cctv/snapshot/${token}.jpg`,
        expires_at: expiresAt,
        state: it.state,
        width: it.width,
        height: it.height,
        last_error: it.last_error,
      };
    }),
  );

  r.post(
    "/cctv/camera",
    handle(async (req): Promise<CameraSaved> => {
      const me = requireAdmin(req, "plant");
      if (!me.cctv) throw forbidden("cctv_not_enabled");
      const body = parse(CameraCreate, req.body);
      const plant = await requirePlant(db, await reachOf(db, me), body.plantUid, "edit");
      await allowedUrl(body.url);
      const addr = splitCredentials(body.url, body.username, body.password);
      const uid = `CAM${randomBytes(6).toString("hex").toUpperCase()}`;
      await insertCamera(db, {
        uid,
        plant_uid: plant.uid,
        name: body.name,
        url: addr.url,
        username: addr.username,
        password_sealed: addr.password ? sealSecret(opts.passwordKey, addr.password) : null,
        created_by: me.id,
      });
      return { uid };
    }),
  );

  r.put(
    "/cctv/camera/:uid",
    handle(async (req): Promise<CameraSaved> => {
      const me = requireAdmin(req, "plant");
      if (!me.cctv) throw forbidden("cctv_not_enabled");
      const uid = parse(CameraUid, req.params.uid);
      const body = parse(CameraUpdate, req.body);
      const cam = await cameraFor(await reachOf(db, me), uid, "edit");
      const change: Parameters<typeof updateCamera>[2] = {};
      if (body.name !== undefined) change.name = body.name;
      if (body.clearCredentials) {
        change.username = null;
        change.password_sealed = null;
      }
      if (body.url !== undefined) {
        await allowedUrl(body.url);
        const addr = splitCredentials(body.url, body.username, body.password);
        change.url = addr.url;
        if (addr.username) change.username = addr.username;
        if (addr.password) change.password_sealed = sealSecret(opts.passwordKey, addr.password);
        // Another camera behind the address: its resolution is learnt again.
        if (addr.url !== cam.url) Object.assign(change, { width: null, height: null });
      } else {
        if (body.username) change.username = body.username;
        if (body.password) change.password_sealed = sealSecret(opts.passwordKey, body.password);
      }
      await updateCamera(db, cam.uid, change);
      // Viewers reconnect to the camera as it is now.
      streams.close(cam.uid);
      return { uid: cam.uid };
    }),
  );

  r.delete(
    "/cctv/camera/:uid",
    handle(async (req) => {
      const me = requireAdmin(req, "plant");
      if (!me.cctv) throw forbidden("cctv_not_enabled");
      const uid = parse(CameraUid, req.params.uid);
      const cam = await cameraFor(await reachOf(db, me), uid, "edit");
      await deleteCamera(db, cam.uid);
      streams.close(cam.uid);
      return undefined;
    }),
  );

  return { publicRoutes, routes: r };
}
