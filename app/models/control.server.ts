/** Remote operation calls (SPEC §3 Command, §7 /pvstatus/control, /command/hex): what may be operated, commands and their outcome. */
import type { CommandOutcome, CommandRow, ControlQuery, ControlResponse } from "../../domain/contract/alarm";
import type { AuditListResponse, AuditQuery, AuditVerifyResponse } from "../../domain/contract/audit";
import { api } from "./api.server";

/** A page of what the member may operate (plant or group scope, name search, kind), or one device (`device`). */
export const controlList = (token: string, query: Partial<ControlQuery> = {}) =>
  api<ControlResponse>("/pvstatus/control", { token, query });

export const commandList = (token: string, q: { plant?: string; limit?: number } = {}) =>
  api<{ commandList: CommandRow[] }>("/command", { token, query: q }).then((r) => r.commandList);

export const command = (token: string, seq: number) => api<CommandRow>(`/command/${seq}`, { token });

/** Sends a confirmed command; `once` is the confirmation's one-time token (a replay answers the first outcome). */
export const sendCommand = (
  token: string,
  body: { deviceType: number; rtuUid: string; deviceUid: string; ch: number; hexOn: string | null; hexOff: string | null },
  once: string,
) => api<CommandOutcome>("/command/hex", { token, method: "POST", body, headers: { "idempotency-key": once } });

/** The tamper-evident command and acknowledgement log (issue 29 §1): a page of it, and the chain's verification. */
export const auditList = (token: string, q: AuditQuery) =>
  api<AuditListResponse>("/audit", { token, query: { ...q, kind: q.kind || undefined, plant: q.plant || undefined } });
export const auditVerify = (token: string) => api<AuditVerifyResponse>("/audit/verify", { token });
