/** Curtailment and output-limit orders of a plant (issue 28 §3; api/routes/curtailment.ts). */
import type {
  CurtailmentImportResponse,
  CurtailmentListResponse,
  CurtailmentOrder,
  CurtailmentOrderInput,
} from "../../domain/contract/curtailment";
import { api } from "./api.server";

const base = (plantUid: string) => `/curtailment/${encodeURIComponent(plantUid)}`;

export const plantOrders = (token: string, plantUid: string, start?: string, end?: string) =>
  api<CurtailmentListResponse>(base(plantUid), { token, query: { start, end } });
export const createOrder = (token: string, plantUid: string, body: CurtailmentOrderInput) =>
  api<CurtailmentOrder>(base(plantUid), { token, method: "POST", body });
export const updateOrder = (token: string, plantUid: string, id: number, body: CurtailmentOrderInput) =>
  api<CurtailmentOrder>(`${base(plantUid)}/${id}`, { token, method: "PUT", body });
export const deleteOrder = (token: string, plantUid: string, id: number) =>
  api<void>(`${base(plantUid)}/${id}`, { token, method: "DELETE" });
export const importOrders = (token: string, plantUid: string, csv: string) =>
  api<CurtailmentImportResponse>(`${base(plantUid)}/import`, { token, method: "POST", body: { csv } });
