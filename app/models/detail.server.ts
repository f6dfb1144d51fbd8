/**
 * Detail-window handover calls (SPEC §2 Detail window; api/routes/detail.ts documents them):
 * the main window's session asks for a one-time code, the detail host trades it for a scoped session.
 */
import type { DetailScope, TokenResponse } from "../../domain/contract";
import type { MemberProfile } from "../../domain/contract";
import type { OperationTotals, WarningTotals } from "../../domain/operation-totals";
import type { PlantStatusCode, PlantStatusName } from "../../domain/status";
import { api, ApiFailure } from "./api.server";

/** POST /member/detail → the code, or null on 204 (not allowed, unknown). */
export async function handoverCode(token: string, target: { plant: string } | { member: string }): Promise<string | null> {
  const res = await api<{ code: string } | undefined>("/member/detail", { token, method: "POST", body: target });
  return res?.code ?? null;
}

export type TokenAnswer =
  | { status: 200; tokens: TokenResponse & { scope: DetailScope } }
  | { status: 204 }
  | { status: "failed"; error: string };

/** "Get plant token (uid)" / "get member token (uid)": 200 with tokens or 204 (SPEC §2, §7). */
export async function detailToken(kind: DetailScope["kind"], uid: string, code: string, clientIp?: string): Promise<TokenAnswer> {
  try {
    const res = await api<(TokenResponse & { scope: DetailScope }) | undefined>(`/member/detail/token/${kind}`, {
      method: "POST", body: { uid, code }, clientIp, raw401: true,
    });
    return res ? { status: 200, tokens: res } : { status: 204 };
  } catch (e) {
    // A 400 (malformed code) is the same as no token for the user: the window cannot be opened.
    if (e instanceof ApiFailure && e.status === 400) return { status: 204 };
    return { status: "failed", error: e instanceof Error ? e.message : String(e) };
  }
}

export interface DetailPlantView {
  kind: "plant";
  plant: {
    plant_uid: string; name: string; alias: string | null; capa: number; locality: string | null; node_seq: number | null;
    iw: number; dailys: number; month: number; year: number; accrue: number; yesterday: number; lastTs: number | null;
    inverterCount: number; alarm_count: number; status: PlantStatusCode; statusName: PlantStatusName; address: string | null; genTime: number;
  };
  devices: Array<{ uid: string; kind: number; name: string; ts: number | null; iw: number | null; faulted: boolean }>;
  operation: { op: OperationTotals; warn: WarningTotals };
  alarms: Array<{ seq: number; code: number; level: number; message: string; device_uid: string | null; raised_at: number }>;
  now: number;
}
export interface DetailMemberView {
  kind: "member";
  member: MemberProfile;
  plants: Array<{ plant_uid: string; name: string }>;
  now: number;
}
export type DetailView = DetailPlantView | DetailMemberView;

export const detailView = (token: string) => api<DetailView>("/member/detail/view", { token });
