/**
 * Zod schemas of the types of `domain/` that the payloads of `domain/contract/` carry (a status code, an alarm's
 * message, a performance figure set…). The domain modules keep their own types (their rules are written against
 * them); each schema here is checked at compile time to describe exactly that type (`same`), so the OpenAPI
 * description generated from the contract (api/openapi-zod.ts) cannot drift from what the code computes.
 */
import { z } from "zod";
import { ALARM_MESSAGE_CODES, AlarmMessageSchema, type AlarmMessage as DomainAlarmMessage } from "../alarm-message";
import type { AvailabilityResult as DomainAvailabilityResult } from "../analytics/availability";
import { EXCLUSION_KINDS } from "../analytics/availability";
import { API_TOKEN_SCOPES, type ApiTokenClaims as DomainApiTokenClaims } from "../api-tokens";
import { COMM_STATES, type CommState as DomainCommState } from "../fleet";
import { HELP_LANGS, type HelpLang as DomainHelpLang } from "../help";
import type { IrradianceMode as DomainIrradianceMode } from "../irradiance";
import { MONITOR_KINDS, type MonitorKind as DomainMonitorKind } from "../monitoring";
import { DEVICE_CATEGORIES, type OperationTotals as DomainOperationTotals } from "../operation-totals";
import type { WarningTotals as DomainWarningTotals } from "../operation-totals";
import type { SortOrder as DomainSortOrder, SortType as DomainSortType, ViewMode as DomainViewMode } from "../ordering";
import type {
  PerformanceCoefficients as DomainPerformanceCoefficients,
  PerformanceFigures as DomainPerformanceFigures,
  StringCheck as DomainStringCheck,
  WithheldReason as DomainWithheldReason,
} from "../performance";
import { RTU_CONFIG_BITS, type RtuConfigKey as DomainRtuConfigKey } from "../rtu-config";
import { STAT_UNITS, type ReportSummary as DomainReportSummary, type StatUnit as DomainStatUnit } from "../statistics";
import type {
  PlantStatus as DomainPlantStatus,
  PlantStatusCode as DomainPlantStatusCode,
  PlantStatusName as DomainPlantStatusName,
  StatusCategory as DomainStatusCategory,
  StatusCounts as DomainStatusCounts,
} from "../status";
import type { Quantity as DomainQuantity } from "../units";

/** True only when A and B are the same type: `const _: Same<A, B> = true` fails to compile on any drift. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const nullable = <T extends z.ZodTypeAny>(t: T) => t.nullable();

// An alarm's message is recursive (a plant-wide alarm carries the first device's message). zod-to-openapi cannot
// walk z.lazy, so the parsing schema of domain/alarm-message.ts stays the check and api/openapi-zod.ts names its
// JSON Schema (the recursion a $ref to itself).
export const AlarmMessage = z.custom<DomainAlarmMessage>((v) => AlarmMessageSchema.safeParse(v).success);
export type AlarmMessage = DomainAlarmMessage;
export const AlarmMessageCode = z.enum(ALARM_MESSAGE_CODES);
/** An alarm message's parameters, carried beside its code (`messageCode`, `messageParams`). */
export const AlarmMessageParams = z.custom<DomainAlarmMessage["params"]>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v),
);

export const ApiTokenClaims = z.object({
  id: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  plants: nullable(z.array(z.string())),
});
export const CommState = z.enum(COMM_STATES);
export const HelpLang = z.enum(HELP_LANGS);
export const IrradianceMode = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);
export const MonitorKind = z.enum(MONITOR_KINDS);

const OperationCounts = z.object({
  total: z.number(),
  breaking: z.number(),
  normal: z.number(),
  generating: z.number(),
  stopped: z.number(),
});
const byCategory = <T extends z.ZodTypeAny>(t: T) =>
  z.object({ [DEVICE_CATEGORIES[0]]: t, [DEVICE_CATEGORIES[1]]: t, [DEVICE_CATEGORIES[2]]: t }) as z.ZodObject<
    Record<(typeof DEVICE_CATEGORIES)[number], T>
  >;
export const OperationTotals = byCategory(OperationCounts);
/** Alarms by level: index 0..3 = levels 1..4. */
export const WarningTotals = byCategory(z.tuple([z.number(), z.number(), z.number(), z.number()]));

export const SortOrder = z.enum(["asc", "desc"]);
export const SortType = z.enum(["name", "capa", "iw", "today", "genTime"]);
export const ViewMode = z.enum(["gd", "gh", "map"]);

export const WithheldReason = z.literal("irradiance_coverage");
export const PerformanceCoefficients = z.object({
  /** Power temperature coefficient γ, per °C. */
  temperatureCoefficient: z.number(),
  /** η: everything lost between module and meter besides temperature. */
  systemFactor: z.number(),
});
export const PerformanceFigures = z.object({
  capacityKw: z.number(),
  energyKwh: z.number(),
  expectedKwh: z.number(),
  referenceYield: z.number().nullable(),
  finalYield: z.number().nullable(),
  performanceRatio: z.number().nullable(),
  performanceRatioStc: z.number().nullable(),
  energyPerformanceIndex: z.number().nullable(),
  losses: z.object({ downtimeKwh: z.number(), clippingKwh: z.number(), belowReferenceKwh: z.number() }),
  dropped: z.number(),
  coverage: z.number().nullable(),
  withheld: WithheldReason.nullable(),
});
export const StringCheck = z.object({
  channel: z.number(),
  currentA: z.number(),
  ratio: z.number().nullable(),
  low: z.boolean(),
});

const exclusionHours = z.object({ hours: z.number(), expectedKwh: z.number() });
export const AvailabilityResult = z.object({
  time: z.object({
    availability: z.number().nullable(),
    coverage: z.number().nullable(),
    availableHours: z.number(),
    unavailableHours: z.number(),
    gapHours: z.number(),
  }),
  energy: z.object({
    availability: z.number().nullable(),
    coverage: z.number().nullable(),
    expectedKwh: z.number(),
    lostKwh: z.number(),
    communicationGapHours: z.number(),
    outageGapHours: z.number(),
    unresolvedGapHours: z.number(),
  }),
  irradianceGapHours: z.number(),
  exclusions: z.object({
    [EXCLUSION_KINDS[0]]: exclusionHours,
    [EXCLUSION_KINDS[1]]: exclusionHours,
    [EXCLUSION_KINDS[2]]: exclusionHours,
  }) as z.ZodObject<Record<(typeof EXCLUSION_KINDS)[number], typeof exclusionHours>>,
  counterAnomalies: z.array(
    z.object({
      inverterId: z.string(),
      t: z.number(),
      kind: z.enum(["reset", "jump"]),
      fromKwh: z.number(),
      toKwh: z.number(),
    }),
  ),
});

const configKeys = Object.keys(RTU_CONFIG_BITS) as DomainRtuConfigKey[];
export const RtuConfigKey = z.enum(configKeys as [DomainRtuConfigKey, ...DomainRtuConfigKey[]]);
/** One flag per RTU configuration bit (domain/rtu-config.ts). */
export const RtuConfigFlags = z.object(Object.fromEntries(configKeys.map((k) => [k, z.boolean()]))) as z.ZodObject<
  Record<DomainRtuConfigKey, z.ZodBoolean>
>;

export const StatUnit = z.enum(STAT_UNITS);
export const ReportSummary = z.object({
  capa: z.number(),
  energy_wh: z.number(),
  genHours: z.number(),
  peak_w: z.number().nullable(),
  irradiation_wh: z.number().nullable(),
  pr: z.number().nullable(),
  pr_withheld: WithheldReason.nullable().optional(),
  co2_kg: z.number().optional(),
  revenue: z.object({ smp: z.number(), rec: z.number(), total: z.number() }).optional(),
  samples: z.number(),
  expected: z.number(),
  completeness: z.number().nullable(),
});

export const PlantStatusCode = z.union([
  z.literal(0),
  z.literal(1),
  z.literal(2),
  z.literal(3),
  z.literal(4),
  z.literal(5),
  z.literal(6),
]);
export const PlantStatusName = z.enum([
  "",
  "normal",
  "notWork",
  "warning",
  "warning_1000001",
  "warning_1000004",
  "warning_1000006",
]);
export const PlantStatus = z.object({ status: PlantStatusCode, statusName: PlantStatusName });
export const StatusCategory = z.enum([
  "normal",
  "warning",
  "warning_1000001",
  "warning_1000003",
  "warning_1000004",
  "warning_1000006",
  "notWork",
]);
export const StatusCounts = z.object({
  warningCount: z.number(),
  warning_1000003_Count: z.number(),
  warning_1000001_Count: z.number(),
  warning_1000006_Count: z.number(),
  warning_1000004_Count: z.number(),
  normalCount: z.number(),
  notWorkCount: z.number(),
});
export const Quantity = z.object({ value: z.string(), unit: z.string() });

export type ApiTokenClaims = z.infer<typeof ApiTokenClaims>;
export type CommState = z.infer<typeof CommState>;
export type HelpLang = z.infer<typeof HelpLang>;
export type IrradianceMode = z.infer<typeof IrradianceMode>;
export type MonitorKind = z.infer<typeof MonitorKind>;
export type OperationTotals = z.infer<typeof OperationTotals>;
export type WarningTotals = z.infer<typeof WarningTotals>;
export type SortOrder = z.infer<typeof SortOrder>;
export type SortType = z.infer<typeof SortType>;
export type ViewMode = z.infer<typeof ViewMode>;
export type WithheldReason = z.infer<typeof WithheldReason>;
export type PerformanceCoefficients = z.infer<typeof PerformanceCoefficients>;
export type PerformanceFigures = z.infer<typeof PerformanceFigures>;
export type StringCheck = z.infer<typeof StringCheck>;
export type AvailabilityResult = z.infer<typeof AvailabilityResult>;
export type RtuConfigKey = z.infer<typeof RtuConfigKey>;
export type RtuConfigFlags = z.infer<typeof RtuConfigFlags>;
export type StatUnit = z.infer<typeof StatUnit>;
export type ReportSummary = z.infer<typeof ReportSummary>;
export type PlantStatusCode = z.infer<typeof PlantStatusCode>;
export type PlantStatusName = z.infer<typeof PlantStatusName>;
export type PlantStatus = z.infer<typeof PlantStatus>;
export type StatusCategory = z.infer<typeof StatusCategory>;
export type StatusCounts = z.infer<typeof StatusCounts>;
export type Quantity = z.infer<typeof Quantity>;

// Each schema describes exactly the domain's type.
export const sameAsDomain: Array<true> = [
  true satisfies Same<z.infer<typeof ApiTokenClaims>, DomainApiTokenClaims>,
  true satisfies Same<z.infer<typeof CommState>, DomainCommState>,
  true satisfies Same<z.infer<typeof HelpLang>, DomainHelpLang>,
  true satisfies Same<z.infer<typeof IrradianceMode>, DomainIrradianceMode>,
  true satisfies Same<z.infer<typeof MonitorKind>, DomainMonitorKind>,
  true satisfies Same<z.infer<typeof OperationTotals>, DomainOperationTotals>,
  true satisfies Same<z.infer<typeof WarningTotals>, DomainWarningTotals>,
  true satisfies Same<z.infer<typeof SortOrder>, DomainSortOrder>,
  true satisfies Same<z.infer<typeof SortType>, DomainSortType>,
  true satisfies Same<z.infer<typeof ViewMode>, DomainViewMode>,
  true satisfies Same<z.infer<typeof WithheldReason>, DomainWithheldReason>,
  true satisfies Same<z.infer<typeof PerformanceCoefficients>, DomainPerformanceCoefficients>,
  true satisfies Same<z.infer<typeof PerformanceFigures>, DomainPerformanceFigures>,
  true satisfies Same<z.infer<typeof StringCheck>, DomainStringCheck>,
  true satisfies Same<z.infer<typeof AvailabilityResult>, DomainAvailabilityResult>,
  true satisfies Same<z.infer<typeof RtuConfigKey>, DomainRtuConfigKey>,
  true satisfies Same<z.infer<typeof StatUnit>, DomainStatUnit>,
  true satisfies Same<z.infer<typeof ReportSummary>, DomainReportSummary>,
  true satisfies Same<z.infer<typeof PlantStatusCode>, DomainPlantStatusCode>,
  true satisfies Same<z.infer<typeof PlantStatusName>, DomainPlantStatusName>,
  true satisfies Same<z.infer<typeof PlantStatus>, DomainPlantStatus>,
  true satisfies Same<z.infer<typeof StatusCategory>, DomainStatusCategory>,
  true satisfies Same<z.infer<typeof StatusCounts>, DomainStatusCounts>,
  true satisfies Same<z.infer<typeof Quantity>, DomainQuantity>,
];
