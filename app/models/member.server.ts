import type { AccessClaims, LoginResponse, MemberProfile, TokenResponse } from "../../domain/contract/auth";
import { api, call } from "./api.server";

export function login(id: string, password: string, clientIp: string, deviceToken?: string): Promise<LoginResponse> {
  return api<LoginResponse>("/member/login", { method: "POST", body: { id, password, deviceToken }, clientIp, raw401: true });
}

export function renewAccessToken(refreshToken: string, clientIp?: string): Promise<TokenResponse> {
  return api<TokenResponse>("/member/refresh/accessToken", { method: "PUT", token: refreshToken, clientIp, raw401: true });
}

export async function logout(token: string): Promise<void> {
  await api("/member/logout", { token, raw401: true });
}

export function isAuth(token: string): Promise<AccessClaims & { isLogin: true }> {
  return api("/member/isAuth", { token });
}

export async function myProfile(token: string): Promise<MemberProfile> {
  return (await call("get /member", { token })).member;
}

export function changeOwnPassword(
  token: string,
  id: string,
  body: { currentPassword: string; newPassword: string },
): Promise<TokenResponse> {
  return api<TokenResponse>(`/member/${encodeURIComponent(id)}/password`, { method: "PUT", token, body });
}

export function updateOwnProfile(
  token: string,
  body: { name: string; phone: string | null; email: string | null },
): Promise<TokenResponse & { member: MemberProfile }> {
  return api("/member", { method: "PUT", token, body });
}
