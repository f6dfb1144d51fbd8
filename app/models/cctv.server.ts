/** Camera calls of the portal (SPEC §7 GET /cctv/url; the list and the administration calls are ours). */
import type { CameraListResponse, CameraSaved, CctvUrlResponse } from "../../domain/contract/cctv";
import { api } from "./api.server";

export const cameraList = (token: string) => api<CameraListResponse>("/cctv/list", { token });

export const cameraUrl = (token: string, uid: string) => api<CctvUrlResponse>("/cctv/url", { token, query: { uid } });

export const addCamera = (
  token: string,
  body: { plantUid: string; name: string; url: string; username?: string; password?: string },
) => api<CameraSaved>("/cctv/camera", { token, method: "POST", body });

export const removeCamera = (token: string, uid: string) =>
  api<void>(`/cctv/camera/${encodeURIComponent(uid)}`, { token, method: "DELETE" });
