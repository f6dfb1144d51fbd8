/** Diagram calls of the portal (SPEC §7 GET /diagram, /node/diagrams; PUT/DELETE /diagram/{plantUid}/svg). */
import type { DiagramBinding, DiagramListResponse, DiagramResponse, DiagramUploadResponse } from "../../domain/contract/diagram";
import { api } from "./api.server";

export const diagramList = (token: string) => api<DiagramListResponse>("/node/diagrams", { token });

export const plantDiagram = (token: string, plantUid: string) =>
  api<DiagramResponse>("/diagram", { token, query: { plantName: plantUid } });

export const uploadDiagram = (token: string, plantUid: string, body: { svg: string; bindings: DiagramBinding[] }) =>
  api<DiagramUploadResponse>(`/diagram/${encodeURIComponent(plantUid)}/svg`, { token, method: "PUT", body });

export const removeDiagram = (token: string, plantUid: string) =>
  api<void>(`/diagram/${encodeURIComponent(plantUid)}/svg`, { token, method: "DELETE" });
