/** Payloads of the detail window (SPEC §2 Detail window; GET /member/detail/view, POST /member/detail/token/{kind}). */
import type { OperationTotals, WarningTotals } from "../operation-totals";
import type { AlarmMessage } from "../alarm-message";
import type { DetailScope, MemberProfile, TokenResponse } from "./auth";
import type { PlantStatusRow } from "./status";
import type { CommandFacts } from "../command-state";

export interface DetailPlantView {
  kind: "plant";
  plant: Omit<PlantStatusRow, "lat" | "lng"> & { address: string | null; genTime: number };
  devices: Array<{
    uid: string;
    kind: number;
    name: string;
    ts: number | null;
    /** When the newest reading arrived (server time), epoch ms: what a command is compared with. */
    receivedAt: number | null;
    iw: number | null;
    faulted: boolean;
    /** The device's newest command (what the screen needs to say whether a reading after it has come). */
    lastCommand: CommandFacts | null;
  }>;
  operation: { op: OperationTotals; warn: WarningTotals };
  alarms: Array<{
    seq: number;
    code: number;
    level: number;
    /** In Korean; messageCode with messageParams render it in the reader's language (domain/alarm-message.ts). */
    message: string;
    messageCode: AlarmMessage["code"];
    messageParams: AlarmMessage["params"];
    device_uid: string | null;
    raised_at: number;
  }>;
  now: number;
}

export interface DetailMemberView {
  kind: "member";
  member: MemberProfile;
  plants: Array<{ plant_uid: string; name: string }>;
  now: number;
}

export type DetailView = DetailPlantView | DetailMemberView;
export type DetailTokenResponse = TokenResponse & { scope: DetailScope };

/**
 * GET /mop/{id} (SPEC §7): the plants a member operates, as an overview — the member's own, or a member's the caller
 * administers (only the plants the caller sees too); each plant's status row and operation totals, and their sum.
 */
export interface MopOverview {
  member: { id: string; name: string };
  plants: Array<PlantStatusRow & { operation: { op: OperationTotals; warn: WarningTotals } }>;
  totals: {
    plants: number;
    /** Raw capacity unit (×0.01 = kW), summed. */
    capa: number;
    /** W. */
    iw: number;
    /** Wh today. */
    dailys: number;
    alarm_count: number;
    operation: { op: OperationTotals; warn: WarningTotals };
  };
  now: number;
}

/** GET /mop/detail/{id}: one plant's detail, the same view as the detail window's. */
export type MopDetail = DetailPlantView;
