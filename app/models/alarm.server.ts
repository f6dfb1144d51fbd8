/** Alarm calls (SPEC §7 Devices, alarms, codes; §3 Alarm): the filtered list, acknowledge, release, alert settings, contacts, delivery log. */
import type {
  AlertRouteView,
  AlarmFiguresResponse,
  AlarmListResponse,
  AlarmRow,
  AlarmScopeResponse,
  AlertPref,
  DeliveryLogResponse,
  LadderResponse,
  PlantContacts,
} from "../../domain/contract/alarm";
import type { FaultCodeRow } from "../../domain/contract/admin";
import { api, apiShaped, call, keptShapes } from "./api.server";

/**
 * The alarm screen's scope picker (GET /alarm/scope): the chosen plant and group by name, the plant's devices, and
 * the plants and groups whose name holds `q` — never a list of the whole fleet.
 */
export const alarmScope = (token: string, q: { q?: string; plant?: string; group?: number; limit?: number }) =>
  api<AlarmScopeResponse>("/alarm/scope", { token, query: q });

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

export type { FaultCodeRow } from "../../domain/contract/admin";

/**
 * The list answers this portal process read, parsed, under the query that asked for them (whoever asked) and the
 * API's ETag (a digest of the answer's bytes): the same answer again is drained unread, neither decoded nor parsed
 * (`apiShaped`). An answer for another member's plants differs in its bytes, so a tag never hands one member
 * another's list. The copies are shared: callers must not change them.
 */
const keptLists = keptShapes<{ list: AlarmListResponse; bytes: number }>(16 * 1024 * 1024);

export async function alarmList(token: string, q: AlarmListSearch): Promise<AlarmListResponse> {
  const query = { ...q, isGroup: q.isGroup ? 1 : undefined };
  const { value } = await apiShaped("/alarm", { token, query }, keptLists, `${JSON.stringify(query)}\u0000`, (text) => ({
    list: JSON.parse(text) as AlarmListResponse,
    bytes: text.length,
  }));
  return value.list;
}

/**
 * The fault-code table (GET /code), the same for every member: kept in this portal process for FAULT_CODES_TTL_MS
 * so a page view does not pay a call for it (an admin's edit shows within that time). A failed call is not kept.
 */
export const FAULT_CODES_TTL_MS = 60_000;
let faultCodeCache: { at: number; rows: Promise<FaultCodeRow[]> } | null = null;

export function faultCodes(token: string): Promise<FaultCodeRow[]> {
  const now = Date.now();
  if (faultCodeCache && now - faultCodeCache.at < FAULT_CODES_TTL_MS) return faultCodeCache.rows;
  const rows = call("get /code", { token }).then((r) => r.codeList);
  const entry = { at: now, rows };
  faultCodeCache = entry;
  rows.catch(() => {
    if (faultCodeCache === entry) faultCodeCache = null;
  });
  return rows;
}

export const acknowledgeAlarm = (token: string, seq: number, note: string) =>
  call("post /alarm/{seq}/ack", { token, params: { seq }, body: { note } });

export const releaseAlarm = (token: string, seq: number, note: string) =>
  call("post /alarm/{seq}/release", { token, params: { seq }, body: { note } });

export const alertPref = (token: string) => api<AlertPref>("/alarm/notify/pref", { token });

export const saveAlertPref = (token: string, body: Record<string, unknown>) =>
  api<AlertPref>("/alarm/notify/pref", { token, method: "PUT", body });

export const plantContacts = (token: string, plantUid: string) =>
  api<PlantContacts>(`/alarm/contacts/${encodeURIComponent(plantUid)}`, { token });

export const savePlantContacts = (
  token: string,
  plantUid: string,
  body: { owner: string | null; safety: string | null; operator: string | null },
) => api<PlantContacts>(`/alarm/contacts/${encodeURIComponent(plantUid)}`, { token, method: "PUT", body });

export const alarmOne = (token: string, seq: number) =>
  api<{
    alarm: AlarmRow;
    events: Array<{ seq: number; kind: string; member_id: string | null; note: string | null; at: number }>;
  }>(`/alarm/${seq}`, { token });

type LadderQuery = { plant: string } | { group: number };
export const alarmLadder = (token: string, q: LadderQuery) => api<LadderResponse>("/alarm/ladder", { token, query: q });
export const saveAlarmLadder = (token: string, q: LadderQuery, steps: LadderResponse["steps"]) =>
  api<LadderResponse>("/alarm/ladder", { token, query: q, method: "PUT", body: { steps } });
export const resetAlarmLadder = (token: string, q: LadderQuery) =>
  api<LadderResponse>("/alarm/ladder", { token, query: q, method: "DELETE" });

export const deliveryLog = (token: string, q: { status?: string; page?: number }) =>
  api<DeliveryLogResponse>("/alarm/notify/log", { token, query: q });

/** The alarm figures of a period in a plant or group scope (issue 29 §2). */
export const alarmFiguresOf = (token: string, q: { start: string; end: string; plant?: string; isGroup?: "1"; group?: number }) =>
  api<AlarmFiguresResponse>("/alarm/figures", { token, query: q });

/** The member's own alert routes (issue 29 §2). */
export const alertRoutes = (token: string) =>
  api<{ routes: AlertRouteView[] }>("/alarm/notify/routes", { token }).then((r) => r.routes);
export const saveAlertRoutes = (token: string, routes: unknown[]) =>
  api<{ routes: AlertRouteView[] }>("/alarm/notify/routes", { token, method: "PUT", body: { routes } });
