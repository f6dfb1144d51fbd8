/** Payloads of the detail window (SPEC §2 Detail window; GET /member/detail/view, POST /member/detail/token/{kind}). */
import { z } from "zod";
import { OperationTotals, WarningTotals } from "./shared";
import { DetailScope, MemberProfile, TokenResponse } from "./auth";
import { PlantStatusRow } from "./status";
import type { CommandFacts as DomainCommandFacts } from "../command-state";
import { COMMAND_STATES } from "./alarm";
import { AlarmMessageCode, AlarmMessageParams, type Same } from "./shared";

/** The facts of a device's newest command (domain/command-state.ts). */
const CommandFacts = z.object({ action: z.enum(["on", "off"]), status: z.enum(COMMAND_STATES), requested_at: z.number() });
export const sameAsDomain: true = true satisfies Same<z.infer<typeof CommandFacts>, DomainCommandFacts>;

export const DetailPlantView = z.object({
  kind: z.literal("plant"),
  plant: PlantStatusRow.omit({ lat: true, lng: true }).extend({
    address: z.string().nullable(),
    genTime: z.number(),
  }),
  devices: z.array(
    z.object({
      uid: z.string(),
      kind: z.number(),
      name: z.string(),
      ts: z.number().nullable(),
      /** When the newest reading arrived (server time), epoch ms: what a command is compared with. */
      receivedAt: z.number().nullable(),
      iw: z.number().nullable(),
      faulted: z.boolean(),
      /** The device's newest command (what the screen needs to say whether a reading after it has come). */
      lastCommand: CommandFacts.nullable(),
    }),
  ),
  operation: z.object({
    op: OperationTotals,
    warn: WarningTotals,
  }),
  alarms: z.array(
    z.object({
      seq: z.number(),
      code: z.number(),
      level: z.number(),
      /** In Korean; messageCode with messageParams render it in the reader's language (domain/alarm-message.ts). */
      message: z.string(),
      messageCode: AlarmMessageCode,
      messageParams: AlarmMessageParams,
      device_uid: z.string().nullable(),
      raised_at: z.number(),
    }),
  ),
  now: z.number(),
});
export type DetailPlantView = z.infer<typeof DetailPlantView>;

export const DetailMemberView = z.object({
  kind: z.literal("member"),
  member: MemberProfile,
  plants: z.array(
    z.object({
      plant_uid: z.string(),
      name: z.string(),
    }),
  ),
  now: z.number(),
});
export type DetailMemberView = z.infer<typeof DetailMemberView>;

export const DetailView = z.union([DetailPlantView, DetailMemberView]);
export type DetailView = z.infer<typeof DetailView>;
export const DetailTokenResponse = TokenResponse.extend({ scope: DetailScope });
export type DetailTokenResponse = z.infer<typeof DetailTokenResponse>;

/**
 * GET /mop/{id} (SPEC §7): the plants a member operates, as an overview — the member's own, or a member's the caller
 * administers (only the plants the caller sees too); each plant's status row and operation totals, and their sum.
 */
export const MopOverview = z.object({
  member: z.object({
    id: z.string(),
    name: z.string(),
  }),
  plants: z.array(
    PlantStatusRow.extend({
      operation: z.object({
        op: OperationTotals,
        warn: WarningTotals,
      }),
    }),
  ),
  totals: z.object({
    plants: z.number(),
    /** Raw capacity unit (×0.01 = kW), summed. */
    capa: z.number(),
    /** W. */
    iw: z.number(),
    /** Wh today. */
    dailys: z.number(),
    alarm_count: z.number(),
    operation: z.object({
      op: OperationTotals,
      warn: WarningTotals,
    }),
  }),
  now: z.number(),
});
export type MopOverview = z.infer<typeof MopOverview>;

/** GET /mop/detail/{id}: one plant's detail, the same view as the detail window's. */
export const MopDetail = DetailPlantView;
export type MopDetail = z.infer<typeof MopDetail>;

/** POST /member/detail: a one-time code that opens a detail window on the plant or member. */
export const DetailHandover = z.object({
  code: z.string(),
  kind: z.enum(["plant", "member"]),
  uid: z.string(),
  /** Seconds the code stays valid. */
  expiresIn: z.number(),
});
export type DetailHandover = z.infer<typeof DetailHandover>;
