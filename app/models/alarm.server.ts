/** Alarm calls (SPEC §7 Devices, alarms, codes; §3 Alarm): the filtered list, acknowledge, release, alert settings, contacts, delivery log. */
import type {
  AlarmListResponse, AlarmRow, AlertPref, DeliveryLogResponse, PlantContacts,
} from "../../domain/contract/alarm";
import type { StatisticsScopeResponse } from "../../domain/contract/statistics";
import { api } from "./api.server";

/**
 * The plants and groups the member may see, for the alarm filters: the read-only scope call every member may
 * make (also the statistics screen's), not the admin group tree (writers only, and heavy for a large fleet).
 */
export const alarmScopeOptions = (token: string) =>
  api<StatisticsScopeResponse>("/rpi/statistics/scope", { token }).then((r) => ({ plants: r.plants, groups: r.groups }));

export interface AlarmListSearch {
  start?: string;
  end?: string;
  level?: number;
  device?: string;
  code?: number;
  status?: string;
  isGroup?: boolean;
  group?: number;
  plant?: string;
  page?: number;
  size?: number;
}

export interface FaultCodeRow {
  code: number;
  hex: string;
  name_ko: string;
  name_en: string;
  level: number;
}

export const alarmList = (token: string, q: AlarmListSearch) =>
  api<AlarmListResponse>("/alarm", { token, query: { ...q, isGroup: q.isGroup ? 1 : undefined } });

export const faultCodes = (token: string) => api<{ codeList: FaultCodeRow[] }>("/code", { token }).then((r) => r.codeList);

type AlarmWithEvents = { alarm: AlarmRow; events: unknown[] };

export const acknowledgeAlarm = (token: string, seq: number, note: string) =>
  api<AlarmWithEvents>(`/alarm/${seq}/ack`, { token, method: "POST", body: { note } });

export const releaseAlarm = (token: string, seq: number, note: string) =>
  api<AlarmWithEvents>(`/alarm/${seq}/release`, { token, method: "POST", body: { note } });

export const alertPref = (token: string) => api<AlertPref>("/alarm/notify/pref", { token });

export const saveAlertPref = (token: string, body: Record<string, unknown>) =>
  api<AlertPref>("/alarm/notify/pref", { token, method: "PUT", body });

export const plantContacts = (token: string, plantUid: string) =>
  api<PlantContacts>(`/alarm/contacts/${encodeURIComponent(plantUid)}`, { token });

export const savePlantContacts = (token: string, plantUid: string, body: { owner: string | null; safety: string | null }) =>
  api<PlantContacts>(`/alarm/contacts/${encodeURIComponent(plantUid)}`, { token, method: "PUT", body });

export const deliveryLog = (token: string, q: { status?: string; page?: number }) =>
  api<DeliveryLogResponse>("/alarm/notify/log", { token, query: q });
