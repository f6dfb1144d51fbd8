/** Group tree calls (SPEC §7 /node/group/list, /node/{id}; create, update, delete documented in openapi.yaml). */
import type { GroupListResponse } from "../../domain/group-tree";
import { api, call } from "./api.server";

export function groupList(token: string, seq?: number): Promise<GroupListResponse> {
  return call("get /node/group/list", { token, query: { seq } });
}

export async function createGroup(token: string, body: { name: string; parent_seq: number; sort_order?: number }) {
  return (await call("post /node", { token, body })).node;
}

export async function updateGroup(token: string, seq: number, body: { name?: string; parent_seq?: number; sort_order?: number }) {
  return (await call("put /node/{id}", { token, params: { id: seq }, body })).node;
}

export async function deleteGroup(token: string, seq: number, confirm: string): Promise<void> {
  await api(`/node/${seq}`, { token, method: "DELETE", body: { confirm } });
}
