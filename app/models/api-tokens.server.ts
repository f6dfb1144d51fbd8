/** The API token calls of the portal (api/routes/api-tokens.ts), typed from domain/api-tokens.ts. */
import type {
  ApiTokenCreate,
  ApiTokenCreated,
  ApiTokenListResponse,
  ApiTokenRow,
  MemberApiTokensResponse,
} from "../../domain/api-tokens";
import { api } from "./api.server";

export function myApiTokens(token: string): Promise<ApiTokenListResponse> {
  return api<ApiTokenListResponse>("/token", { token });
}

/** The form's fields, parsed with the API's own schema (JSON numbers for the limits). */
export function createApiToken(token: string, body: ApiTokenCreate): Promise<ApiTokenCreated> {
  return api<ApiTokenCreated>("/token", { method: "POST", token, body });
}

export function revokeApiToken(token: string, id: string): Promise<{ token: ApiTokenRow }> {
  return api(`/token/${encodeURIComponent(id)}`, { method: "DELETE", token });
}

export function memberApiTokens(token: string, memberId: string): Promise<MemberApiTokensResponse> {
  return api<MemberApiTokensResponse>(`/token/member/${encodeURIComponent(memberId)}`, { token });
}
