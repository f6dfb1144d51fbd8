/** Group tree calls (SPEC §7 /node/group/list, /node/{id}; create, update, delete documented in openapi.yaml). */
import type { GroupListResponse } from "../../domain/group-tree";
import { api } from "./api.server";

export function groupList(token: string, seq?: number): Promise<GroupListResponse> {
  return api<GroupListResponse>("/node/group/list", { token, query: { seq } });
}

export async function createGroup(token: string, body: { name: string; parent_seq: number; sort_order?: number }) {
  return (await api<{ node: { seq: number; name: string } }>("/node", { token, method: "POST", body })).node;
}

export async function updateGroup(token: string, seq: number, body: { name?: string; parent_seq?: number; sort_order?: number }) {
  return (await api<{ node: { seq: number; name: string } }>(`/node/${seq}`, { token, method: "PUT", body })).node;
}

export async function deleteGroup(token: string, seq: number, confirm: string): Promise<void> {
  await api(`/node/${seq}`, { token, method: "DELETE", body: { confirm } });
}
