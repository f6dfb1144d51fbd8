/** Alarm calls (SPEC §7 Devices, alarms, codes; §3 Alarm): the filtered list, acknowledge, release, alert settings, contacts, delivery log. */
import type {
  AlarmListResponse, AlarmRow, AlertPref, DeliveryLogResponse, PlantContacts,
} from "../../domain/contract/alarm";
import { api } from "./api.server";

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
