/**
 * Contract of the camera calls (SPEC §7 GET /cctv/url (uid); the camera list and the administration calls
 * are ours, SPEC says "not shown"): payload types and zod schemas shared by the API route and the portal model.
 * A camera's credentials never appear in an answer: only whether it has some.
 */
import { z } from "zod";
import { cameraUrlProblem } from "../cctv";

/**
 * What a camera's stream is doing, as the screen says it in words:
 * idle (nobody watches, no process), starting (the process is connecting), live (segments are being
 * written), unreachable (the camera did not answer or the stream broke), ffmpeg_missing (the server has no
 * ffmpeg to convert streams with).
 */
export const CAMERA_STATES = ["idle", "starting", "live", "unreachable", "ffmpeg_missing"] as const;
export type CameraState = (typeof CAMERA_STATES)[number];

export const CameraItem = z.object({
  uid: z.string(),
  plant_uid: z.string(),
  plant_name: z.string(),
  name: z.string(),
  /** The camera's address without its credentials. */
  url: z.string(),
  has_credentials: z.boolean(),
  /** Resolution of the video last seen (from the stream itself), null before the first look. */
  width: z.number().nullable(),
  height: z.number().nullable(),
  state: z.enum(CAMERA_STATES),
  /** Why the last attempt failed (ffmpeg's words), when it did. */
  last_error: z.string().nullable(),
  /** Whether this member may change or remove the camera. */
  editable: z.boolean(),
});
export type CameraItem = z.infer<typeof CameraItem>;

export const CameraListResponse = z.object({
  cameraList: z.array(CameraItem),
});
export type CameraListResponse = z.infer<typeof CameraListResponse>;

export const CctvUrlResponse = z.object({
  uid: z.string(),
  /** Short-lived signed URL of the HLS playlist (this server's /api/cctv/hls/…). */
  url: z.string(),
  /** Signed URL of a still JPEG of the camera (for pages without script). */
  snapshot: z.string(),
  /** When the signed URLs stop working (epoch ms); ask again before. */
  expires_at: z.number(),
  state: z.enum(CAMERA_STATES),
  width: z.number().nullable(),
  height: z.number().nullable(),
  last_error: z.string().nullable(),
});
export type CctvUrlResponse = z.infer<typeof CctvUrlResponse>;

export const CameraSaved = z.object({
  uid: z.string(),
});
export type CameraSaved = z.infer<typeof CameraSaved>;

const text = (max: number) =>
  z.string({ required_error: "required", invalid_type_error: "required" }).trim().max(max, "too_long");

export const CameraUid = z
  .string({ required_error: "required" })
  .trim()
  .min(1, "required")
  .max(40, "too_long")
  .regex(/^[A-Za-z0-9_-]+$/, "invalid");

export const CctvUrlQuery = z.object({ uid: CameraUid });
export const CameraListQuery = z.object({ plantUid: z.string().trim().max(64, "too_long").optional() });

const cameraUrl = text(500)
  .min(1, "required")
  .superRefine((v, ctx) => {
    const problem = cameraUrlProblem(v);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

/** Registering a camera. Credentials may come apart or inside the URL (rtsp://user:pass@host/…); both are kept apart, server-side. */
export const CameraCreate = z.object({
  plantUid: text(64).min(1, "required"),
  name: text(60).min(1, "required"),
  url: cameraUrl,
  username: text(100).optional(),
  password: z.string().max(200, "too_long").optional(),
});
export type CameraCreate = z.infer<typeof CameraCreate>;

/** Changing a camera: what is left out stays; an empty password keeps the stored one, `clearCredentials` drops both. */
export const CameraUpdate = z.object({
  name: text(60).min(1, "required").optional(),
  url: cameraUrl.optional(),
  username: text(100).optional(),
  password: z.string().max(200, "too_long").optional(),
  clearCredentials: z.boolean().optional(),
});
export type CameraUpdate = z.infer<typeof CameraUpdate>;
