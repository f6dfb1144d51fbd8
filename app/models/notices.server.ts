/** Notice calls (SPEC §7 Notices) and the after-login notice pop-up state (cookie onWeekCloseModal). */
import { serialize } from "cookie";
import type { NoticeRow } from "../../domain/notice-form";
import { readCookies } from "~/auth/cookies.server";
import type { PortalAuth } from "~/auth/load-context.server";
import { api, call } from "./api.server";

export async function listNotices(token: string, use?: 0 | 1): Promise<NoticeRow[]> {
  return (await call("get /notice", { token, query: { use } })).noticeList;
}

export async function getNotice(token: string, seq: number): Promise<NoticeRow> {
  return (await call("get /notice/{seq}", { token, params: { seq } })).notice;
}

export async function createNotice(token: string, body: { content: string; use: number }): Promise<NoticeRow> {
  return (await call("post /notice", { token, body })).notice;
}

export async function updateNotice(token: string, seq: number, body: { content: string; use: number }): Promise<NoticeRow> {
  return (await call("put /notice/{seq}", { token, params: { seq }, body })).notice;
}

export async function deleteNotices(token: string, noticesSeq: number[], confirm: string): Promise<void> {
  await api("/notice", { token, method: "DELETE", body: { noticesSeq, confirm } });
}

/** SPEC §3 Storage: set for 7 days by "don't show for a week", path /. */
export const WEEK_COOKIE = "onWeekCloseModal";
/** Closing without the week option hides the pop-up for the rest of this session (value: session id). */
export const CLOSED_COOKIE = "noticeClosed";

export function noticePopupHidden(request: Request, auth: PortalAuth): boolean {
  const cookies = readCookies(request.headers.get("cookie"));
  return cookies[WEEK_COOKIE] === "Y" || (!!cookies[CLOSED_COOKIE] && cookies[CLOSED_COOKIE] === auth.user.sid);
}

/** The active notices to pop up after login, unless the member closed them; never fails the page. */
export async function pendingNotices(request: Request, auth: PortalAuth): Promise<NoticeRow[]> {
  if (auth.user.pwd_yn === 1 || noticePopupHidden(request, auth)) return [];
  try {
    return (await call("get /notice/custom", { token: auth.accessToken, query: { use: 1 } })).noticeList;
  } catch (error) {
    if (error instanceof Response) throw error;
    return [];
  }
}

export function noticeCloseCookies(auth: PortalAuth, week: boolean): string[] {
  const cookies = [serialize(CLOSED_COOKIE, auth.user.sid, { path: "/", sameSite: "lax", httpOnly: true })];
  if (week) cookies.push(serialize(WEEK_COOKIE, "Y", { path: "/", sameSite: "lax", maxAge: 7 * 24 * 3600 }));
  return cookies;
}
