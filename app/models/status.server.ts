/**
 * Status-screen calls of the main dashboard, the monitoring screen and the watch screen (SPEC §7
 * /pvstatus, /alarm/recent, /alarm/count, /monitor/{kind}, /node/ancestor/list/watch, /pvstatus/group/detail).
 */
import type { AlarmCountResponse, RecentAlarm } from "../../domain/contract/alarm";
import type { MonitorResponse, MonitorRow } from "../../domain/contract/monitor";
import type { MonitorKind, MonitorView } from "../../domain/monitoring";
import type { PvstatusSummaryResponse } from "../../domain/contract/pvstatus";
import type { GroupDetailResponse, WatchTreeResponse, WatchViewType } from "../../domain/watch";
import { api, call } from "./api.server";

/** The fleet's totals and status counts (GET /pvstatus?part=summary: the overview without its per-plant lists). */
export const fleetSummary = (token: string) => api<PvstatusSummaryResponse>("/pvstatus", { token, query: { part: "summary" } });

export async function recentAlarms(token: string, limit = 10): Promise<RecentAlarm[]> {
  return (await call("get /alarm/recent", { token, query: { limit } })).alarmList;
}

export const alarmCount = (token: string) => api<AlarmCountResponse>("/alarm/count", { token });

/** SPEC §5: 200 or 204 are both answers; 204 (nothing to show) comes back as an empty list. */
export async function monitorRows(
  token: string,
  view: MonitorView,
): Promise<{ kind: MonitorKind; rows: MonitorRow[]; now: number | null }> {
  const res = await api<MonitorResponse | undefined>(`/monitor/${view.tab}`, {
    token,
    query: { keyword: view.keyword, sortType: view.sort, order: view.order },
  });
  return { kind: view.tab, rows: res?.monitorList ?? [], now: res?.now ?? null };
}

/** The watch tree; null on 204 (SPEC §8 'Not Content': the member sees no node and no plant). */
export async function watchTree(token: string, type: WatchViewType, keyword: string): Promise<WatchTreeResponse | null> {
  return (await api<WatchTreeResponse | undefined>("/node/ancestor/list/watch", { token, query: { type, keyword } })) ?? null;
}

export function groupDetail(token: string, type: "node" | "locality", uid: string | number | null): Promise<GroupDetailResponse> {
  return api<GroupDetailResponse>("/pvstatus/group/detail", { token, query: { type, uid: uid ?? undefined } });
}
