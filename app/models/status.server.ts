/**
 * Status-screen calls of the main dashboard, the monitoring screen and the watch screen (SPEC §7
 * /pvstatus, /alarm/recent, /alarm/count, /monitor/{kind}, /node/ancestor/list/watch, /pvstatus/group/detail).
 */
import type { MonitorKind, MonitorView } from "../../domain/monitoring";
import type { PvstatusOverviewResponse } from "../../domain/pvstatus-contract";
import type { GroupDetailResponse, WatchTreeResponse, WatchViewType } from "../../domain/watch";
import type { PlantStatusCode, PlantStatusName } from "../../domain/status";
import { api } from "./api.server";

export interface RecentAlarm {
  seq: number;
  plant_uid: string;
  plantName: string;
  rtu_uid: string | null;
  device_uid: string | null;
  deviceName: string | null;
  deviceKind: number | null;
  code: number;
  level: number;
  fault_code: number | null;
  message: string;
  raised_at: number;
  released_at: number | null;
}

export interface AlarmCount {
  alarm_count: number;
  alarm_1000001_count: number;
  alarm_1000003_count: number;
  alarm_1000004_count: number;
  alarm_1000006_count: number;
  levels: Record<"1" | "2" | "3" | "4", number>;
}

export interface MonitorRow {
  plant_uid: string;
  plant_name: string;
  alias: string | null;
  locality: string | null;
  time: number | null;
  status: PlantStatusCode;
  statusName: PlantStatusName;
  alarm_count: number;
  // gen
  capa?: number;
  iw?: number;
  dailys?: number;
  genTime?: number;
  // grid
  devices?: number;
  reporting?: number;
  w?: number;
  v?: number | null;
  a?: number;
  closed?: number;
  open?: number;
}

export const fleetOverview = (token: string) => api<PvstatusOverviewResponse>("/pvstatus", { token });

export async function recentAlarms(token: string, limit = 10): Promise<RecentAlarm[]> {
  return (await api<{ alarmList: RecentAlarm[] }>("/alarm/recent", { token, query: { limit } })).alarmList;
}

export const alarmCount = (token: string) => api<AlarmCount>("/alarm/count", { token });

/** SPEC §5: 200 or 204 are both answers; 204 (nothing to show) comes back as an empty list. */
export async function monitorRows(token: string, view: MonitorView): Promise<{ kind: MonitorKind; rows: MonitorRow[]; now: number | null }> {
  const res = await api<{ kind: MonitorKind; monitorList: MonitorRow[]; now: number } | undefined>(`/monitor/${view.tab}`, {
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
