/** Work order calls (issue 29 §3): the filtered list, its CSV, one work order, create, edit, state moves, notes. */
import type {
  WorkOrderCreate,
  WorkOrderDetail,
  WorkOrderListQuery,
  WorkOrderListResponse,
  WorkOrderUpdate,
} from "../../domain/contract/work-order";
import type { WorkOrderState } from "../../domain/work-order";
import type { AlarmRow } from "../../domain/contract/alarm";
import { api, apiFile } from "./api.server";

export type WorkOrderSearch = Partial<WorkOrderListQuery>;

export const workOrderList = (token: string, q: WorkOrderSearch) =>
  api<WorkOrderListResponse>("/workorder", { token, query: { ...q } });

/** The filtered list as the API's CSV file (every page), streamed through. */
export const workOrderExport = (token: string, q: WorkOrderSearch, lang: "ko" | "en") =>
  apiFile("/workorder/export", { token, query: { ...q, page: undefined, size: undefined, lang } });

export const workOrderOne = (token: string, id: number) => api<WorkOrderDetail>(`/workorder/${id}`, { token });

export const createWorkOrder = (token: string, body: WorkOrderCreate) =>
  api<WorkOrderDetail>("/workorder", { token, method: "POST", body });

export const updateWorkOrder = (token: string, id: number, body: WorkOrderUpdate) =>
  api<WorkOrderDetail>(`/workorder/${id}`, { token, method: "PATCH", body });

export const moveWorkOrder = (token: string, id: number, state: WorkOrderState, note: string) =>
  api<WorkOrderDetail>(`/workorder/${id}/state`, { token, method: "POST", body: { state, note } });

export const addWorkOrderNote = (token: string, id: number, note: string) =>
  api<WorkOrderDetail>(`/workorder/${id}/note`, { token, method: "POST", body: { note } });

/** The plant's open alarms (GET /alarm/unrelease), to tie a new work order to one or several of them. */
export const plantOpenAlarms = async (token: string, plant: string) =>
  (await api<{ alarmList: AlarmRow[] }>("/alarm/unrelease", { token, query: { plant, limit: 50 } })).alarmList;

/** Attaches a photo (multipart; the API checks its bytes and size again). */
export async function uploadWorkOrderPhoto(token: string, id: number, file: File): Promise<void> {
  const form = new FormData();
  form.append("photo", file, file.name || "photo");
  await api(`/workorder/${id}/photo`, { token, method: "POST", body: form });
}

/** A photo's bytes, streamed through. */
export const workOrderPhotoFile = (token: string, id: number, seq: number) => apiFile(`/workorder/${id}/photo/${seq}`, { token });
