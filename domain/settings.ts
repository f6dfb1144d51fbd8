/**
 * Typed configuration kept in the `setting` table (key → JSON value), grouped by setting type
 * (the /setting/config/{settingType} pages). Each type has a zod schema with bounds and defaults;
 * readers get the defaults for whatever is not stored. Pure: no I/O.
 */
import { z } from "zod";

/** Coerces form strings and JSON numbers alike. */
const num = (min: number, max: number) =>
  z.coerce.number({ invalid_type_error: "not_a_number" }).finite("not_a_number").min(min, "too_small").max(max, "too_large");
const int = (min: number, max: number) => num(min, max).int("not_an_integer");

export const AlarmSettingsSchema = z
  .object({
    /** An RTU is silent (1000003) after this many missed 10-minute intervals. */
    rtuSilentIntervals: int(1, 144),
    /** A device is silent (1000001) after this many missed 10-minute intervals. */
    deviceSilentIntervals: int(1, 144),
    /** Low generation (1000004) when actual / reference generation stays below this ratio. */
    lowGenerationRatio: num(0, 1),
    /** …and is released once it is back above this ratio (hysteresis; ≥ lowGenerationRatio). */
    lowGenerationReleaseRatio: num(0, 1),
    /** Plane-of-array irradiance (W/m²) below which generation is not judged. */
    minIrradiance: num(0, 1300),
    /** An incident becomes an alarm only after it has lasted this long (minutes; 0 raises at once). */
    raiseDelayMinutes: int(0, 1440),
    /**
     * An open alarm whose condition has not been seen for this long is cleared by itself, marked auto-cleared
     * (minutes; 0 never). Issue 29 §2. Optional in a saved form (older clients): the default then.
     */
    autoCloseMinutes: int(0, 10_080).default(0),
    /** An alarm that comes back more than this many times in an hour flaps: one alarm with a count, no more alerts. */
    flapMaxPerHour: int(1, 60).default(3),
  })
  .refine((v) => v.lowGenerationReleaseRatio >= v.lowGenerationRatio, {
    path: ["lowGenerationReleaseRatio"],
    message: "below_low_ratio",
  });
export type AlarmSettings = z.infer<typeof AlarmSettingsSchema>;

export const PollingSettingsSchema = z.object({
  /** Group status screen polling interval (SPEC §9: configuration value, default 660000 ms). */
  groupStatusIntervalMs: int(60_000, 3_600_000),
});
export type PollingSettings = z.infer<typeof PollingSettingsSchema>;

export const ALARM_SETTING_DEFAULTS: AlarmSettings = {
  rtuSilentIntervals: 3,
  deviceSilentIntervals: 3,
  lowGenerationRatio: 0.5,
  lowGenerationReleaseRatio: 0.7,
  minIrradiance: 150,
  raiseDelayMinutes: 0,
  autoCloseMinutes: 0,
  flapMaxPerHour: 3,
};
export const POLLING_SETTING_DEFAULTS: PollingSettings = { groupStatusIntervalMs: 660_000 };

/** Setting types with stored key/value pairs; `faultCodes` is a table of its own (fault_code). */
export const SETTING_TYPES = ["alarm", "polling", "faultCodes"] as const;
export type SettingType = (typeof SETTING_TYPES)[number];
export const VALUE_SETTING_TYPES = ["alarm", "polling"] as const;
export type ValueSettingType = (typeof VALUE_SETTING_TYPES)[number];

export function isSettingType(v: unknown): v is SettingType {
  return typeof v === "string" && (SETTING_TYPES as readonly string[]).includes(v);
}
export function isValueSettingType(v: unknown): v is ValueSettingType {
  return typeof v === "string" && (VALUE_SETTING_TYPES as readonly string[]).includes(v);
}

export interface Settings {
  alarm: AlarmSettings;
  polling: PollingSettings;
}

export const SETTING_DEFAULTS: Settings = { alarm: ALARM_SETTING_DEFAULTS, polling: POLLING_SETTING_DEFAULTS };
export const SETTING_SCHEMAS = { alarm: AlarmSettingsSchema, polling: PollingSettingsSchema } as const;

/** Field names of each value type, in display order. */
export const SETTING_FIELDS: { [T in ValueSettingType]: Array<keyof Settings[T]> } = {
  alarm: [
    "rtuSilentIntervals",
    "deviceSilentIntervals",
    "lowGenerationRatio",
    "lowGenerationReleaseRatio",
    "minIrradiance",
    "raiseDelayMinutes",
    "autoCloseMinutes",
    "flapMaxPerHour",
  ],
  polling: ["groupStatusIntervalMs"],
};

/** The storage key of one field: `alarm.minIrradiance`. */
export function settingKey(type: ValueSettingType, field: string): string {
  return `${type}.${field}`;
}

/**
 * Typed settings from stored rows (key → JSON text). A stored value that is missing, malformed or out
 * of bounds falls back to the default for that field alone.
 */
export function settingsFromRows(rows: Iterable<{ key: string; value: string }>): Settings {
  const stored = new Map<string, unknown>();
  for (const r of rows) {
    try {
      stored.set(r.key, JSON.parse(r.value));
    } catch {
      // ignore a malformed row: the default applies
    }
  }
  const out = structuredClone(SETTING_DEFAULTS) as Settings;
  for (const type of VALUE_SETTING_TYPES) {
    const candidate: Record<string, unknown> = { ...SETTING_DEFAULTS[type] };
    for (const field of SETTING_FIELDS[type] as string[]) {
      const key = settingKey(type, field);
      if (stored.has(key)) candidate[field] = stored.get(key);
    }
    const parsed = SETTING_SCHEMAS[type].safeParse(candidate);
    if (parsed.success) (out as unknown as Record<string, unknown>)[type] = parsed.data;
    else {
      // Keep the valid fields, reset the rest.
      const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
      for (const field of SETTING_FIELDS[type] as string[]) {
        if (!bad.has(field)) (out[type] as Record<string, unknown>)[field] = Number(candidate[field]);
      }
    }
  }
  return out;
}

/** Fault-code table rows (fault_code): code, hex, Korean and English names, alarm level 1–4. */
export const FaultCodeSchema = z.object({
  code: z.coerce
    .number({ invalid_type_error: "not_a_number" })
    .int("not_an_integer")
    .min(0, "too_small")
    .max(2_147_483_647, "too_large"),
  hex: z
    .string()
    .trim()
    .regex(/^(0x)?[0-9a-fA-F]{1,8}$/, "not_hex"),
  name_ko: z.string().trim().min(1, "required").max(100, "too_long"),
  name_en: z.string().trim().min(1, "required").max(100, "too_long"),
  level: z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_an_integer").min(1, "too_small").max(4, "too_large"),
});
export type FaultCode = z.infer<typeof FaultCodeSchema>;
