/** Remote operation calls (SPEC §3 Command, §7 /pvstatus/control, /command/hex): what may be operated, commands and their outcome. */
import type { ControlQuery } from "../../domain/contract/alarm";
import type { AuditListResponse, AuditQuery, AuditVerifyResponse } from "../../domain/contract/audit";
import { api, call } from "./api.server";

/** A page of what the member may operate (plant or group scope, name search, kind), or one device (`device`). */
export const controlList = (token: string, query: Partial<ControlQuery> = {}) => call("get /pvstatus/control", { token, query });

export const commandList = (token: string, q: { plant?: string; limit?: number } = {}) =>
  call("get /command", { token, query: q }).then((r) => r.commandList);

export const command = (token: string, seq: number) => call("get /command/{seq}", { token, params: { seq } });

/** Sends a confirmed command; `once` is the confirmation's one-time token (a replay answers the first outcome). */
export const sendCommand = (
  token: string,
  body: { deviceType: number; rtuUid: string; deviceUid: string; ch: number; hexOn: string | null; hexOff: string | null },
  once: string,
) => call("post /command/hex", { token, body, headers: { "idempotency-key": once } });

/** The tamper-evident command and acknowledgement log (issue 29 §1): a page of it, and the chain's verification. */
export const auditList = (token: string, q: AuditQuery) =>
  api<AuditListResponse>("/audit", { token, query: { ...q, kind: q.kind || undefined, plant: q.plant || undefined } });
export const auditVerify = (token: string) => api<AuditVerifyResponse>("/audit/verify", { token });
