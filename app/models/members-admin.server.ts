/** Member administration calls (SPEC §7 Account and members) for the /setting/id screens. */
import type { MemberAdminRow, MemberDetailResponse, MemberListFilter, MemberListResponse } from "../../domain/member-form";
import { api, call } from "./api.server";

const enc = encodeURIComponent;

export function listMembers(token: string, filter: Partial<MemberListFilter>): Promise<MemberListResponse> {
  return call("get /member/node/list", { token, query: { ...filter } });
}

export function getMember(token: string, id: string): Promise<MemberDetailResponse> {
  return call("get /member/{id}", { token, params: { id } });
}

export function checkMemberId(token: string, id: string): Promise<{ id: string; valid: boolean; exists: boolean }> {
  return api(`/member/check/id/${enc(id)}`, { token });
}

export async function createMember(token: string, body: Record<string, unknown>): Promise<MemberAdminRow> {
  return (await call("post /member", { token, body })).member;
}

export async function updateMember(token: string, id: string, body: Record<string, unknown>): Promise<MemberAdminRow> {
  return (await call("put /member/{id}", { token, params: { id }, body })).member;
}

export async function deleteMember(token: string, id: string, confirm: string): Promise<void> {
  await api(`/member/${enc(id)}`, { token, method: "DELETE", body: { confirm } });
}

export async function resetMemberPassword(token: string, id: string, password: string): Promise<void> {
  await api(`/member/${enc(id)}/password/reset`, { token, method: "POST", body: { password } });
}

export async function uploadMemberLogo(token: string, id: string, file: File): Promise<void> {
  const form = new FormData();
  form.append("logo", file, file.name || "logo");
  await api(`/member/logo/${enc(id)}`, { token, method: "POST", body: form });
}

export async function removeMemberLogo(token: string, id: string): Promise<void> {
  await api(`/member/logo/${enc(id)}`, { token, method: "DELETE" });
}

export async function linkMemberPlant(token: string, id: string, plantUid: string): Promise<void> {
  await api(`/member/link/${enc(id)}/${enc(plantUid)}`, { token, method: "POST" });
}

export async function unlinkMemberPlant(token: string, id: string, plantUid: string): Promise<void> {
  await api(`/member/link/${enc(id)}/${enc(plantUid)}`, { token, method: "DELETE" });
}
