/**
 * Detail-window handover calls (SPEC §2 Detail window; api/routes/detail.ts documents them):
 * the main window's session asks for a one-time code, the detail host trades it for a scoped session.
 */
import type { DetailScope } from "../../domain/contract/auth";
import type { DetailTokenResponse, DetailView } from "../../domain/contract/detail";
import { api, ApiFailure } from "./api.server";

/** POST /member/detail → the code, or null on 204 (not allowed, unknown). */
export async function handoverCode(token: string, target: { plant: string } | { member: string }): Promise<string | null> {
  const res = await api<{ code: string } | undefined>("/member/detail", { token, method: "POST", body: target });
  return res?.code ?? null;
}

export type TokenAnswer = { status: 200; tokens: DetailTokenResponse } | { status: 204 } | { status: "failed"; error: string };

/** "Get plant token (uid)" / "get member token (uid)": 200 with tokens or 204 (SPEC §2, §7). */
export async function detailToken(kind: DetailScope["kind"], uid: string, code: string, clientIp?: string): Promise<TokenAnswer> {
  try {
    const res = await api<DetailTokenResponse | undefined>(`/member/detail/token/${kind}`, {
      method: "POST",
      body: { uid, code },
      clientIp,
      raw401: true,
    });
    return res ? { status: 200, tokens: res } : { status: 204 };
  } catch (e) {
    // A 400 (malformed code) is the same as no token for the user: the window cannot be opened.
    if (e instanceof ApiFailure && e.status === 400) return { status: 204 };
    return { status: "failed", error: e instanceof Error ? e.message : String(e) };
  }
}

export const detailView = (token: string) => api<DetailView>("/member/detail/view", { token });
