// Plant status rules of SPEC §4 (status code from alarm counters, status categories) and the alarm
// vocabulary of DESIGN "Domain notes". Pure: no I/O, no framework.

/** Alarm codes raised by the alarm engine (DESIGN "Domain notes"). */
export const ALARM_CODE = {
  communicationFault: 1000001,
  internetDisconnected: 1000003,
  abnormalTodayGeneration: 1000004,
  inverterFault: 1000006,
} as const;
export type AlarmCode = (typeof ALARM_CODE)[keyof typeof ALARM_CODE];

export function isAlarmCode(value: unknown): value is AlarmCode {
  return Object.values(ALARM_CODE).includes(value as AlarmCode);
}

/** Alarm severity levels 1–4. */
export const ALARM_LEVEL = { interest: 1, caution: 2, warning: 3, severe: 4 } as const;
export type AlarmLevel = (typeof ALARM_LEVEL)[keyof typeof ALARM_LEVEL];
export type AlarmLevelName = keyof typeof ALARM_LEVEL;

/** The alarm screen's "all" sub-filter (SPEC §2 side navigation). */
export const ALARM_LEVEL_ALL = -1;
export type AlarmLevelFilter = typeof ALARM_LEVEL_ALL | AlarmLevel;
/** Sub-filters in the order the side navigation lists them. */
export const ALARM_LEVEL_FILTERS: readonly AlarmLevelFilter[] = [ALARM_LEVEL_ALL, 1, 2, 3, 4];

export function isAlarmLevel(value: unknown): value is AlarmLevel {
  return value === 1 || value === 2 || value === 3 || value === 4;
}

export function isAlarmLevelFilter(value: unknown): value is AlarmLevelFilter {
  return value === ALARM_LEVEL_ALL || isAlarmLevel(value);
}

/** Numeric plant status codes. 0 means "no data". */
export const PLANT_STATUS = {
  noData: 0,
  notWork: 1,
  normal: 2,
  warning: 3, // internet disconnected (1000003)
  warning_1000001: 4,
  warning_1000004: 5,
  warning_1000006: 6,
} as const;
export type PlantStatusCode = (typeof PLANT_STATUS)[keyof typeof PLANT_STATUS];

/** statusName carried with the code; '' for no data. */
export type PlantStatusName = "" | "normal" | "notWork" | "warning" | "warning_1000001" | "warning_1000004" | "warning_1000006";

export interface PlantStatus {
  status: PlantStatusCode;
  statusName: PlantStatusName;
}

/** Counters may arrive as numeric strings (Postgres COUNT/bigint), hence the loose type. */
export type Counter = number | string | null | undefined;

/** A status row as the alarm queries return it (SPEC §3 "Alarm"). */
export interface AlarmCounters {
  alarm_count?: Counter;
  alarm_1000001_count?: Counter;
  alarm_1000003_count?: Counter;
  alarm_1000004_count?: Counter;
  alarm_1000006_count?: Counter;
  iw?: Counter;
}

const positive = (value: Counter): boolean => Number(value ?? 0) > 0;

export const NO_DATA_STATUS: PlantStatus = { status: 0, statusName: "" };

/**
 * SPEC §4: the first matching rule wins, in this exact order:
 * 1000003 → 3 'warning'; 1000001 → 4; 1000006 → 6; 1000004 → 5; any alarm → 1 'notWork';
 * iw > 0 → 2 'normal'; otherwise 1 'notWork'. A missing row gives 0 with an empty name.
 */
export function plantStatusFromAlarms(row: AlarmCounters | null | undefined): PlantStatus {
  if (row == null) return NO_DATA_STATUS;
  if (positive(row.alarm_1000003_count)) return { status: 3, statusName: "warning" };
  if (positive(row.alarm_1000001_count)) return { status: 4, statusName: "warning_1000001" };
  if (positive(row.alarm_1000006_count)) return { status: 6, statusName: "warning_1000006" };
  if (positive(row.alarm_1000004_count)) return { status: 5, statusName: "warning_1000004" };
  if (positive(row.alarm_count)) return { status: 1, statusName: "notWork" };
  if (positive(row.iw)) return { status: 2, statusName: "normal" };
  return { status: 1, statusName: "notWork" };
}

/** What a plant card's status lamp shows (SPEC §2). */
export type StatusIndicator = "not" | "normal" | "abnormal";

export function statusIndicator(status: number): StatusIndicator {
  if (status === 2) return "normal";
  if (status >= 3 && status <= 6) return "abnormal";
  return "not"; // 0 (no data), 1 (not working) and anything unknown
}

/** Filter/count categories of SPEC §4. 'warning' is the umbrella over every warning kind. */
export type StatusCategory =
  "normal" | "warning" | "warning_1000001" | "warning_1000003" | "warning_1000004" | "warning_1000006" | "notWork";

export const STATUS_CATEGORIES: readonly StatusCategory[] = [
  "normal",
  "warning",
  "warning_1000001",
  "warning_1000003",
  "warning_1000004",
  "warning_1000006",
  "notWork",
];

/** The specific warning categories, i.e. every category below the 'warning' umbrella. */
export const WARNING_KINDS = ["warning_1000003", "warning_1000001", "warning_1000006", "warning_1000004"] as const;
export type WarningKind = (typeof WARNING_KINDS)[number];

export function isStatusCategory(value: unknown): value is StatusCategory {
  return STATUS_CATEGORIES.includes(value as StatusCategory);
}

/** Status code of each warning kind (code 3 is the internet-disconnected one, named plain 'warning'). */
export const WARNING_KIND_STATUS: Readonly<Record<WarningKind, PlantStatusCode>> = {
  warning_1000003: 3,
  warning_1000001: 4,
  warning_1000004: 5,
  warning_1000006: 6,
};

export function isWarningStatus(status: number): boolean {
  return status >= 3 && status <= 6;
}

/**
 * The one specific category a status code belongs to (used for list ordering and per-kind counts).
 * Code 3 is named 'warning' but is the internet-disconnected kind, so it is 'warning_1000003' here;
 * otherwise the grid/graph order difference of SPEC §4 could never show. No data (0) is 'notWork'.
 */
export function statusCategory(status: number): Exclude<StatusCategory, "warning"> {
  switch (status) {
    case 2:
      return "normal";
    case 3:
      return "warning_1000003";
    case 4:
      return "warning_1000001";
    case 5:
      return "warning_1000004";
    case 6:
      return "warning_1000006";
    default:
      return "notWork";
  }
}

/** Every category that contains a status: warnings are both in 'warning' and in their own kind. */
export function statusCategories(status: number): StatusCategory[] {
  const own = statusCategory(status);
  return isWarningStatus(status) ? ["warning", own] : [own];
}

/**
 * Whether a plant passes the status filter: all of its categories must be switched on, so turning
 * off 'warning' hides every warning and turning off one kind hides just that kind.
 */
export function isShownByStatusFilter(status: number, enabled: Iterable<StatusCategory>): boolean {
  const on = new Set(enabled);
  return statusCategories(status).every((c) => on.has(c));
}

/** SPEC §3 "Status counts". */
export interface StatusCounts {
  /** Total of all warning kinds (codes 3–6): the umbrella count. */
  warningCount: number;
  warning_1000003_Count: number;
  warning_1000001_Count: number;
  warning_1000006_Count: number;
  warning_1000004_Count: number;
  normalCount: number;
  /** Not working, including plants with no data (code 0). */
  notWorkCount: number;
}

export function emptyStatusCounts(): StatusCounts {
  return {
    warningCount: 0,
    warning_1000003_Count: 0,
    warning_1000001_Count: 0,
    warning_1000006_Count: 0,
    warning_1000004_Count: 0,
    normalCount: 0,
    notWorkCount: 0,
  };
}

const COUNT_KEY: Record<Exclude<StatusCategory, "warning">, keyof StatusCounts> = {
  normal: "normalCount",
  notWork: "notWorkCount",
  warning_1000001: "warning_1000001_Count",
  warning_1000003: "warning_1000003_Count",
  warning_1000004: "warning_1000004_Count",
  warning_1000006: "warning_1000006_Count",
};

/** Tallies already computed status codes. */
export function tallyStatusCodes(statuses: Iterable<number>): StatusCounts {
  const counts = emptyStatusCounts();
  for (const status of statuses) {
    counts[COUNT_KEY[statusCategory(status)]] += 1;
    if (isWarningStatus(status)) counts.warningCount += 1;
  }
  return counts;
}

/** Status counts straight from alarm-counter rows (a null row counts as no data → notWork). */
export function countStatuses(rows: Iterable<AlarmCounters | null | undefined>): StatusCounts {
  const codes: number[] = [];
  for (const row of rows) codes.push(plantStatusFromAlarms(row).status);
  return tallyStatusCodes(codes);
}
