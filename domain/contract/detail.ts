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
