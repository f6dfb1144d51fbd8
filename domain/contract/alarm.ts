/**
 * The /api contract of alarms, alerts and control (SPEC §3 Alarm and Command, §7 Devices, alarms, codes;
 * /pvstatus/control; /command/hex): payload types and their schemas, imported by the API routes and the
 * portal's models alike.
 */
import { wholeNumber } from "./params";
import { z } from "zod";
import { AlarmMessage, AlarmMessageCode, AlarmMessageParams } from "./shared";
import { outboundUrlProblem, WEBHOOK_SCHEMES } from "../outbound-address";
import { parseSeoul } from "../seoul-time";
import { ALARM_LEVEL_FILTERS } from "../status";

export const ALARM_STATES = ["active", "acknowledged", "cleared"] as const;
export type AlarmState = (typeof ALARM_STATES)[number];
export const COMMAND_STATES = ["pending", "done", "failed", "timeout", "undeliverable"] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

/** A day of the period, 'YYYY-MM-DD' (Seoul); the schema checks it is a real day. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "not_a_date")
  .refine((s) => parseSeoul(s) !== null, "not_a_date");

const flag = z.enum(["0", "1"]).transform((v) => v === "1");
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "too_long")
    .transform((s) => (s === "" ? undefined : s))
    .optional();

export const ALARM_PAGE_SIZES = [20, 50, 100] as const;
/** The longest period one list covers. */
export const ALARM_MAX_PERIOD_DAYS = 366;

export const AlarmListQuerySchema = z
  .object({
    start: day.optional(),
    end: day.optional(),
    level: z.coerce
      .number({ invalid_type_error: "unknown_level" })
      .int("unknown_level")
      .refine((v) => (ALARM_LEVEL_FILTERS as readonly number[]).includes(v), "unknown_level")
      .default(-1),
    device: optionalText(64),
    code: wholeNumber(0, 2 ** 31 - 1).optional(),
    status: z.enum(ALARM_STATES, { errorMap: () => ({ message: "unknown_status" }) }).optional(),
    isGroup: flag.optional(),
    group: z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_a_number").min(1, "too_small").optional(),
    plant: optionalText(64),
    page: wholeNumber(1, 100_000).default(1),
    size: z.coerce
      .number({ invalid_type_error: "not_a_number" })
      .int("not_a_number")
      .refine((v) => (ALARM_PAGE_SIZES as readonly number[]).includes(v), "unknown_page_size")
      .default(50),
  })
  .superRefine((q, ctx) => {
    if (q.start && q.end && q.start > q.end) ctx.addIssue({ code: "custom", path: ["end"], message: "end_before_start" });
    if (q.start && q.end && (parseSeoul(q.end)! - parseSeoul(q.start)!) / 86_400_000 >= ALARM_MAX_PERIOD_DAYS) {
      ctx.addIssue({ code: "custom", path: ["end"], message: "period_too_long" });
    }
    if (q.isGroup && q.group === undefined) ctx.addIssue({ code: "custom", path: ["group"], message: "required" });
  });
export type AlarmListQuery = z.infer<typeof AlarmListQuerySchema>;

/**
 * GET /alarm/scope: the alarm screen's scope picker without a list of every plant. Names the plant and group of
 * the current scope (with the plant's devices for the device filter) and, for a search text `q`, the member's
 * plants and groups whose name holds it (at most `limit` of each, an exact name first; `more` when there are more).
 */
export const AlarmScopeQuerySchema = z.object({
  q: optionalText(100),
  plant: optionalText(64),
  group: wholeNumber(1, 2 ** 31 - 1).optional(),
  limit: wholeNumber(1, 50).default(20),
});
export type AlarmScopeQuery = z.infer<typeof AlarmScopeQuerySchema>;

export const AlarmScopeResponse = z.object({
  plant: z
    .object({
      uid: z.string(),
      name: z.string(),
    })
    .nullable(),
  group: z
    .object({
      seq: z.number(),
      name: z.string(),
    })
    .nullable(),
  /** Devices in use of `plant`, by kind and name ([] without a plant). */
  devices: z.array(
    z.object({
      uid: z.string(),
      name: z.string(),
      kind: z.number(),
    }),
  ),
  /** Only with `q`. */
  matches: z
    .object({
      plants: z.array(
        z.object({
          uid: z.string(),
          name: z.string(),
        }),
      ),
      groups: z.array(
        z.object({
          seq: z.number(),
          name: z.string(),
        }),
      ),
      more: z.boolean(),
    })
    .nullable(),
});
export type AlarmScopeResponse = z.infer<typeof AlarmScopeResponse>;

/** An alarm of the status screens' lists (GET /alarm/recent). */
export const RecentAlarm = z.object({
  seq: z.number(),
  plant_uid: z.string(),
  plantName: z.string(),
  rtu_uid: z.string().nullable(),
  device_uid: z.string().nullable(),
  deviceName: z.string().nullable(),
  deviceKind: z.number().nullable(),
  code: z.number(),
  level: z.number(),
  fault_code: z.number().nullable(),
  /** What was found, in Korean (the default language); screens render messageCode with messageParams instead. */
  message: z.string(),
  /** What was found as a code with parameters (domain/alarm-message.ts), for rendering in the reader's language. */
  messageCode: AlarmMessageCode,
  messageParams: AlarmMessageParams,
  raised_at: z.number(),
  released_at: z.number().nullable(),
});
export type RecentAlarm = z.infer<typeof RecentAlarm>;

/** The message of an alarm row as one typed value. */
export const alarmMessageOf = (a: Pick<RecentAlarm, "messageCode" | "messageParams">) =>
  ({ code: a.messageCode, params: a.messageParams }) as AlarmMessage;

export const RecentAlarmsResponse = z.object({
  alarmList: z.array(RecentAlarm),
});
export type RecentAlarmsResponse = z.infer<typeof RecentAlarmsResponse>;

/** GET /alarm/count: open alarms by code and by level. */
export const AlarmCountResponse = z.object({
  /** Open alarms (not cleared): `active` + `acknowledged`, as the alarm screen's states (domain alarmState). */
  alarm_count: z.number(),
  /** Open and not acknowledged (the alarm screen's "active"). */
  active: z.number(),
  /** Open and acknowledged. */
  acknowledged: z.number(),
  alarm_1000001_count: z.number(),
  alarm_1000003_count: z.number(),
  alarm_1000004_count: z.number(),
  alarm_1000006_count: z.number(),
  levels: z.object({ "1": z.number(), "2": z.number(), "3": z.number(), "4": z.number() }),
});
export type AlarmCountResponse = z.infer<typeof AlarmCountResponse>;

/** An alarm with its lifecycle state (the alarm screen's rows; /alarm/recent answers them too). */
export const AlarmRow = RecentAlarm.extend({
  status: z.enum(ALARM_STATES),
  ack_by: z.string().nullable(),
  ack_at: z.number().nullable(),
  ack_note: z.string().nullable(),
  /** Cleared by itself: its condition was not seen for the configured time (issue 29 §2). */
  autoCleared: z.boolean(),
  /** How many times it came back after clearing (a flapping alarm is one alarm with this count). */
  toggles: z.number(),
});
export type AlarmRow = z.infer<typeof AlarmRow>;

export const AlarmListResponse = z.object({
  alarmList: z.array(AlarmRow),
  total: z.number(),
  page: z.number(),
  size: z.number(),
  /** The period actually covered, epoch ms [start, end). */
  start: z.number(),
  end: z.number(),
  /** Alarms per level filter (-1 all, 1–4) over the same filters except the level. */
  counts: z.object({ "-1": z.number(), "1": z.number(), "2": z.number(), "3": z.number(), "4": z.number() }),
});
export type AlarmListResponse = z.infer<typeof AlarmListResponse>;

/** One plant's open alarms (SPEC §3 Alarm: status rows with alarm counters and iw). */
export const UnreleasedPlantRow = z.object({
  plant_uid: z.string(),
  plantName: z.string(),
  alarm_count: z.number(),
  alarm_1000001_count: z.number(),
  alarm_1000003_count: z.number(),
  alarm_1000004_count: z.number(),
  alarm_1000006_count: z.number(),
  /** Current output of the plant, W. */
  iw: z.number(),
});
export type UnreleasedPlantRow = z.infer<typeof UnreleasedPlantRow>;

export const AlarmAckSchema = z.object({ note: z.string().trim().max(500, "too_long").optional().default("") });

/** Alert preferences of a member (set on /modify). Quiet hours are 'HH:mm' in Seoul time. */
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "not_a_time");
export const ALERT_LANGS = ["ko", "en"] as const;
export const AlertPrefSchema = z
  .object({
    minLevel: z.coerce
      .number({ invalid_type_error: "unknown_level" })
      .int("unknown_level")
      .min(1, "unknown_level")
      .max(4, "unknown_level"),
    mail: z.preprocess((v) => v === true || v === "1" || v === "on" || v === 1, z.boolean()),
    webhook: z.preprocess((v) => v === true || v === "1" || v === "on" || v === 1, z.boolean()),
    webhookUrl: z
      .string()
      .trim()
      .max(500, "too_long")
      .transform((s) => (s === "" ? null : s))
      .nullable()
      .optional()
      .superRefine((s, ctx) => {
        const problem = s ? outboundUrlProblem(s, WEBHOOK_SCHEMES) : null;
        if (problem) ctx.addIssue({ code: "custom", message: "not_a_url" });
      }),
    quietFrom: z
      .union([hhmm, z.literal("")])
      .nullable()
      .optional()
      .transform((s) => s || null),
    quietTo: z
      .union([hhmm, z.literal("")])
      .nullable()
      .optional()
      .transform((s) => s || null),
    digest: z.preprocess((v) => v === true || v === "1" || v === "on" || v === 1, z.boolean()),
    /** The language of the member's alert mails and webhooks; unchanged when not given (Korean at first). */
    lang: z.enum(ALERT_LANGS, { errorMap: () => ({ message: "unknown_lang" }) }).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.webhook && !p.webhookUrl) ctx.addIssue({ code: "custom", path: ["webhookUrl"], message: "required" });
    if (!!p.quietFrom !== !!p.quietTo)
      ctx.addIssue({ code: "custom", path: [p.quietFrom ? "quietTo" : "quietFrom"], message: "required" });
    if (p.quietFrom && p.quietFrom === p.quietTo) ctx.addIssue({ code: "custom", path: ["quietTo"], message: "same_as_start" });
  });
export type AlertPrefInput = z.input<typeof AlertPrefSchema>;
export const AlertPref = z.object({
  minLevel: z.number(),
  mail: z.boolean(),
  webhook: z.boolean(),
  webhookUrl: z.string().nullable(),
  quietFrom: z.string().nullable(),
  quietTo: z.string().nullable(),
  digest: z.boolean(),
  /** The language of the alerts. */
  lang: z.enum(ALERT_LANGS),
  /** Where mail goes (the member's e-mail); alerts by mail need one. */
  email: z.string().nullable(),
});
export type AlertPref = z.infer<typeof AlertPref>;

/**
 * A member's alert routes (issue 29 §2, domain/alert-routing.ts), PUT /alarm/notify/routes: the whole list at once.
 * Each names a plant or a group (or neither: every plant the member is a contact of), a minimum level, codes (empty
 * or absent: every code) and the channels.
 */
export const ALERT_ROUTES_MAX = 20;
export const AlertRouteSchema = z
  .object({
    plant: optionalText(64).nullable(),
    group: wholeNumber(1, 2 ** 31 - 1)
      .nullable()
      .optional(),
    minLevel: wholeNumber(1, 4),
    codes: z
      .array(wholeNumber(0, 2 ** 31 - 1))
      .max(50, "too_many")
      .nullable()
      .optional(),
    mail: z.boolean(),
    webhook: z.boolean(),
  })
  .superRefine((r, ctx) => {
    if (r.plant && r.group) ctx.addIssue({ code: "custom", path: ["group"], message: "plant_or_group" });
    if (!r.mail && !r.webhook) ctx.addIssue({ code: "custom", path: ["mail"], message: "no_channel" });
  });
export const AlertRoutesSchema = z.object({ routes: z.array(AlertRouteSchema).max(ALERT_ROUTES_MAX, "too_many") });
export interface AlertRouteView {
  plant: string | null;
  plantName: string | null;
  group: number | null;
  groupName: string | null;
  minLevel: number;
  codes: number[] | null;
  mail: boolean;
  webhook: boolean;
}

/** A plant's contacts: the owner and electrical safety manager (MOTIE 2021), and the operator (issue 29's ladder). */
export const PLANT_CONTACT_ROLES = ["owner", "safety", "operator"] as const;
export type PlantContactRole = (typeof PLANT_CONTACT_ROLES)[number];
export const PlantContactsSchema = z.object({
  owner: optionalText(30).nullable(),
  safety: optionalText(30).nullable(),
  /** Unchanged when not given (forms of before the operator role). */
  operator: optionalText(30).nullable().optional(),
});
export const PlantContacts = z.object({
  plant_uid: z.string(),
  owner: z
    .object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
    })
    .nullable(),
  safety: z
    .object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
    })
    .nullable(),
  operator: z
    .object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
    })
    .nullable(),
});
export type PlantContacts = z.infer<typeof PlantContacts>;

/** GET /alarm/ladder: the ladder a plant or group works with, and where it comes from (null: the default). */
export const LadderResponse = z.object({
  scope: z.union([
    z.object({
      plant: z.string(),
    }),
    z.object({
      group: z.number(),
    }),
  ]),
  own: z.boolean(),
  from: z
    .union([
      z.object({
        plant: z.string(),
      }),
      z.object({
        group: z.number(),
      }),
    ])
    .nullable(),
  steps: z.array(
    z.object({
      afterMinutes: z.number(),
      roles: z.array(z.union([z.literal("operator"), z.literal("safety"), z.literal("owner")])),
    }),
  ),
});
export type LadderResponse = z.infer<typeof LadderResponse>;
export const LadderQuerySchema = z
  .object({
    plant: optionalText(64),
    group: z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_a_number").min(1, "not_a_number").optional(),
  })
  .refine((q) => !!q.plant !== (q.group !== undefined), { path: ["plant"], message: "plant_or_group" });

/** dropped: not sent because the recipient could no longer see the plant at send time (the reason in last_error). */
export const OUTBOX_STATES = ["pending", "sent", "failed", "dropped"] as const;
export const DeliveryLogQuerySchema = z.object({
  status: z.enum(OUTBOX_STATES, { errorMap: () => ({ message: "unknown_status" }) }).optional(),
  page: wholeNumber(1, 100_000).default(1),
});
export const DeliveryRow = z.object({
  seq: z.number(),
  channel: z.union([z.literal("mail"), z.literal("webhook")]),
  recipient: z.string(),
  subject: z.string(),
  status: z.enum(OUTBOX_STATES),
  attempts: z.number(),
  next_attempt_at: z.number(),
  last_error: z.string().nullable(),
  created_at: z.number(),
  sent_at: z.number().nullable(),
});
export type DeliveryRow = z.infer<typeof DeliveryRow>;
export const DeliveryLogResponse = z.object({
  deliveryList: z.array(DeliveryRow),
  total: z.number(),
  page: z.number(),
  size: z.number(),
  /** Channels this server can deliver now (mail needs SMTP_URL). */
  channels: z.array(z.union([z.literal("mail"), z.literal("webhook")])),
});
export type DeliveryLogResponse = z.infer<typeof DeliveryLogResponse>;

/** SPEC §3 Command. Exactly one of hexOn (switch on / close) and hexOff (switch off / trip). */
const hex = z.string().regex(/^(0x)?[0-9a-fA-F]{1,8}$/, "not_hex");
export const CommandSchema = z
  .object({
    deviceType: z.coerce
      .number({ invalid_type_error: "unknown_kind" })
      .int("unknown_kind")
      .refine((k) => [1, 2, 4, 7, 8].includes(k), "unknown_kind"),
    rtuUid: z.string().min(1, "required").max(64, "too_long"),
    deviceUid: z.string().min(1, "required").max(64, "too_long"),
    ch: wholeNumber(0, 255),
    hexOn: hex.nullish(),
    hexOff: hex.nullish(),
  })
  .refine((b) => !!b.hexOn !== !!b.hexOff, { message: "exactly_one_of_hexOn_hexOff", path: ["hexOn"] });
export type CommandInput = z.infer<typeof CommandSchema>;

/** The register values the portal sends to switch a device (the demo gateways and MQTT gateways take them). */
export const COMMAND_HEX = { on: "0x0001", off: "0x0000" } as const;

export const CommandRow = z.object({
  seq: z.number(),
  plant_uid: z.string().nullable(),
  rtu_uid: z.string(),
  device_uid: z.string(),
  deviceName: z.string().nullable(),
  device_type: z.number(),
  action: z.union([z.literal("on"), z.literal("off")]),
  status: z.enum(COMMAND_STATES),
  message: z.string().nullable(),
  requested_by: z.string(),
  requested_at: z.number(),
  completed_at: z.number().nullable(),
});
export type CommandRow = z.infer<typeof CommandRow>;

export const CommandOutcome = z.object({
  seq: z.number(),
  status: z.enum(COMMAND_STATES),
  ok: z.boolean(),
  state: z.number().optional(),
  message: z.string().optional(),
  /** When the command was recorded (epoch ms). */
  requested_at: z.number(),
  /** A replay of the same one-time token (Idempotency-Key): the first command's outcome; nothing ran now. */
  replayed: z.literal(true).optional(),
});
export type CommandOutcome = z.infer<typeof CommandOutcome>;

/** Kinds the control screen operates: inverters (on/off) and breakers VCB/ACB (trip/close). */
export const CONTROLLABLE_KINDS = [1, 7, 8] as const;

export const ControlDevice = z.object({
  uid: z.string(),
  name: z.string(),
  kind: z.number(),
  rtu_uid: z.string(),
  /** 1 on / closed, 0 off / open (tripped), null unknown or not shown (breakStatus). */
  state: z.number().nullable(),
  /** Current output, W (inverters). */
  iw: z.number().nullable(),
  /**
   * When the newest reading (state, output) arrived, server time, epoch ms; null before the first. (Its own ts is
   * floored onto the 10-minute grid, so it cannot tell a reading after a command from one before.)
   */
  readingAt: z.number().nullable(),
  lastCommand: CommandRow.nullable(),
  /** Whether this member may operate it (deviceOperation for inverters, control for breakers, edit access). */
  operable: z.boolean(),
});
export type ControlDevice = z.infer<typeof ControlDevice>;
export const ControlPlant = z.object({
  plant_uid: z.string(),
  name: z.string(),
  devices: z.array(ControlDevice),
});
export type ControlPlant = z.infer<typeof ControlPlant>;
export const ControlResponse = z.object({
  /** The page's devices, by plant (plant name, kind, device name). */
  plants: z.array(ControlPlant),
  commandList: z.array(CommandRow),
  /** Devices passing the filters (all pages). */
  total: z.number(),
  page: z.number(),
  size: z.number(),
});
export type ControlResponse = z.infer<typeof ControlResponse>;

/** Devices a /control page lists. */
export const CONTROL_PAGE_SIZE = 20;
/** The kinds filter of /control: inverters (on/off) or breakers (close/trip). */
export const CONTROL_KIND_FILTERS = { inverter: [1], breaker: [7, 8] } as const satisfies Record<string, readonly number[]>;
export type ControlKindFilter = keyof typeof CONTROL_KIND_FILTERS;

/**
 * GET /pvstatus/control: the plant or group (with its subgroups) the list covers, a name search (device or plant
 * name holding `q`), the kind, one device (`device`, what a command's confirmation looks up), and the page.
 */
export const ControlQuerySchema = z.object({
  plant: optionalText(64),
  group: wholeNumber(1, 2 ** 31 - 1).optional(),
  q: optionalText(100),
  kind: z.enum(["inverter", "breaker"], { errorMap: () => ({ message: "unknown_kind" }) }).optional(),
  device: optionalText(64),
  page: wholeNumber(1, 100_000).default(1),
  size: wholeNumber(1, 200).default(CONTROL_PAGE_SIZE),
});
export type ControlQuery = z.infer<typeof ControlQuerySchema>;
export const CommandListQuerySchema = z.object({
  plant: optionalText(64),
  limit: wholeNumber(1, 200).default(20),
});

/**
 * GET /alarm/figures (issue 29 §2, domain/alarm-figures.ts): the alarm figures of a period (Seoul days, end
 * inclusive) in a plant or group scope, in all and per code, plant and group (at most FIGURE_ROWS of each, most
 * alarms first).
 */
export const FIGURE_ROWS = 100;
export const AlarmFiguresQuerySchema = z
  .object({
    start: day,
    end: day,
    isGroup: flag.optional(),
    group: z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_a_number").min(1, "too_small").optional(),
    plant: optionalText(64),
  })
  .superRefine((q, ctx) => {
    if (q.start > q.end) ctx.addIssue({ code: "custom", path: ["end"], message: "end_before_start" });
    else if ((parseSeoul(q.end)! - parseSeoul(q.start)!) / 86_400_000 >= ALARM_MAX_PERIOD_DAYS)
      ctx.addIssue({ code: "custom", path: ["end"], message: "period_too_long" });
    if (q.isGroup && q.group === undefined) ctx.addIssue({ code: "custom", path: ["group"], message: "required" });
  });
export type AlarmFiguresQuery = z.infer<typeof AlarmFiguresQuerySchema>;
export interface AlarmFigureView {
  count: number;
  perHundredPlantsPerDay: number | null;
  nuisance: number;
  nuisanceShare: number | null;
  acknowledged: number;
  meanToAckMs: number | null;
  cleared: number;
  meanToClearMs: number | null;
}
export interface AlarmFiguresResponse {
  start: string;
  end: string;
  days: number;
  plants: number;
  total: AlarmFigureView;
  byCode: Array<AlarmFigureView & { code: number }>;
  byPlant: Array<AlarmFigureView & { plant_uid: string; plantName: string }>;
  byGroup: Array<AlarmFigureView & { group: number | null; groupName: string | null }>;
}
/** GET /alarm/recent, /alarm/unrelease (open alarms, newest first). */
export const AlarmRowsResponse = z.object({ alarmList: z.array(AlarmRow) });
export type AlarmRowsResponse = z.infer<typeof AlarmRowsResponse>;
/** GET /alarm/v2/unrelease: open alarms per plant. */
export const UnreleasedByPlantResponse = z.object({ alarmList: z.array(UnreleasedPlantRow) });
export type UnreleasedByPlantResponse = z.infer<typeof UnreleasedByPlantResponse>;
/** One step of an alarm's lifecycle (raised, acknowledged, released…). */
export const AlarmEvent = z.object({
  seq: z.number(),
  kind: z.string(),
  member_id: z.string().nullable(),
  note: z.string().nullable(),
  at: z.number(),
});
export type AlarmEvent = z.infer<typeof AlarmEvent>;
/** GET /alarm/{seq}, POST /alarm/{seq}/ack, /alarm/{seq}/release. */
export const AlarmDetailResponse = z.object({ alarm: AlarmRow, events: z.array(AlarmEvent) });
export type AlarmDetailResponse = z.infer<typeof AlarmDetailResponse>;
/** GET /command. */
export const CommandListResponse = z.object({ commandList: z.array(CommandRow) });
export type CommandListResponse = z.infer<typeof CommandListResponse>;
