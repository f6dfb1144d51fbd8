/**
 * What the alarm engine found, stored as a message code with parameters (migration 0015) instead of a
 * sentence, and rendered in the reader's language from the catalogue words below: the portal takes them into
 * its typed catalogue (`t.main.engine`, app/i18n), the alert mails and webhooks take them directly in the
 * recipient's language (api/notify/alerts.ts). A text of no known shape is kept verbatim (`text`).
 * Pure: no I/O.
 */
import { z } from "zod";
import type { AlarmMessageWords } from "./alarm-message-words";
import { formatSeoul } from "./seoul-clock";
import { formatNumber } from "./units";

export const ALARM_MESSAGE_CODES = [
  "rtu_silent",
  "device_silent",
  "inverter_fault",
  "low_generation",
  "plant_wide",
  "text",
] as const;
export type AlarmMessageCode = (typeof ALARM_MESSAGE_CODES)[number];

export type AlarmMessage =
  /** An RTU has sent nothing since `since` (epoch ms). */
  | { code: "rtu_silent"; params: { rtu: string; since: number } }
  /** A device of a reporting RTU does not answer. */
  | { code: "device_silent"; params: { device: string } }
  /** An inverter reports fault bits `faultCode` (their names come from the fault-code table). */
  | { code: "inverter_fault"; params: { faultCode: number } }
  /** An inverter makes `actualKw`, `ratio` % of its temperature-corrected reference `referenceKw`. */
  | { code: "low_generation"; params: { actualKw: number; referenceKw: number; ratio: number } }
  /** Every one of the plant's `count` RTUs or inverters has the same alarm; `detail` is the first one's. */
  | { code: "plant_wide"; params: { of: "rtus" | "inverters"; count: number; detail: AlarmMessage } }
  /** A text of no known shape (written before migration 0015), shown as it is. */
  | { code: "text"; params: { text: string } };

const finite = z.number().finite();
export const AlarmMessageSchema: z.ZodType<AlarmMessage> = z.lazy(() =>
  z.discriminatedUnion("code", [
    z.object({ code: z.literal("rtu_silent"), params: z.object({ rtu: z.string(), since: finite }) }),
    z.object({ code: z.literal("device_silent"), params: z.object({ device: z.string() }) }),
    z.object({ code: z.literal("inverter_fault"), params: z.object({ faultCode: z.number().int() }) }),
    z.object({
      code: z.literal("low_generation"),
      params: z.object({ actualKw: finite, referenceKw: finite, ratio: finite }),
    }),
    z.object({
      code: z.literal("plant_wide"),
      params: z.object({ of: z.enum(["rtus", "inverters"]), count: z.number().int(), detail: AlarmMessageSchema }),
    }),
    z.object({ code: z.literal("text"), params: z.object({ text: z.string() }) }),
  ]),
);

export { ALARM_MESSAGE_WORDS, type AlarmMessageWords } from "./alarm-message-words";

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => (k in values ? String(values[k]) : `{${k}}`));

const hexOf = (faultCode: number) => (faultCode < 0 ? faultCode >>> 0 : faultCode).toString(16).toUpperCase();

/** A device's name as the screens show it, by uid (undefined: not known, the uid is shown). */
export type DeviceNameOf = (uid: string) => string | null | undefined;

/**
 * The message in the words of one language. `faultNames` gives the names of a fault code's bits in that
 * language (from the fault-code table), when the caller has them; `deviceName` names a device the way the
 * screens do ("인버터 2", not "D000143"; issue 26), when the caller knows it.
 */
export function renderAlarmMessage(
  words: AlarmMessageWords,
  m: AlarmMessage,
  faultNames?: (faultCode: number) => readonly string[],
  deviceName?: DeviceNameOf,
): string {
  switch (m.code) {
    case "rtu_silent":
      return fill(words.rtuSilent, { rtu: m.params.rtu, since: formatSeoul(m.params.since) });
    case "device_silent":
      return fill(words.deviceSilent, { device: deviceName?.(m.params.device) || m.params.device });
    case "inverter_fault": {
      const names = faultNames?.(m.params.faultCode) ?? [];
      const hex = hexOf(m.params.faultCode);
      return names.length ? fill(words.faultNames, { names: names.join(", "), hex }) : fill(words.faultCode, { hex });
    }
    case "low_generation":
      return fill(words.lowGeneration, {
        actual: formatNumber(m.params.actualKw, 1),
        reference: formatNumber(m.params.referenceKw, 1),
        ratio: Math.round(m.params.ratio),
      });
    case "plant_wide": {
      const detail = renderAlarmMessage(words, m.params.detail, faultNames, deviceName);
      const text = fill(m.params.of === "rtus" ? words.plantWideRtus : words.plantWideInverters, {
        count: m.params.count,
        detail,
      });
      return detail ? text : text.replace(/ \(\)$/, "");
    }
    case "text":
      return m.params.text;
  }
}

/** Bits of `faultCode` named in a fault-code table (code 0 names nothing), in table order. */
export function faultBitNames(table: ReadonlyArray<{ code: number; name: string }>, faultCode: number): string[] {
  return table.filter((f) => f.code !== 0 && (faultCode & f.code) === f.code).map((f) => f.name);
}

const CODES: ReadonlySet<string> = new Set<string>(ALARM_MESSAGE_CODES);

/**
 * A stored message: its code and JSON parameters, checked against the schema when they were written
 * (`checkedAlarmMessage`, api/store/alarms.ts alarmMessageColumns), so a read only parses the JSON; a row without
 * a known code (or with parameters that are not JSON) shows its stored text verbatim.
 */
export function storedAlarmMessage(code: string | null, params: string | null, text: string): AlarmMessage {
  if (code && CODES.has(code)) {
    try {
      return { code, params: params ? JSON.parse(params) : {} } as AlarmMessage;
    } catch {
      // not JSON: the text below
    }
  }
  return { code: "text", params: { text } };
}

/** A message as it may be stored: checked against the schema once, at the write (a bad one throws). */
export function checkedAlarmMessage(m: AlarmMessage): AlarmMessage {
  return AlarmMessageSchema.parse(m);
}

/**
 * The code and parameters of a sentence the alarm engine wrote before migration 0015, when it follows one of
 * the engine's templates; any other text becomes a `text` message kept verbatim. An inverter fault was written
 * as the Korean names of its bits (`faultTable`, the fault-code table when the row was converted): a text equal
 * to those names becomes the fault code, whose names are looked up when it is shown.
 */
export function parseLegacyAlarmMessage(
  text: string,
  row: { faultCode: number | null },
  faultTable: ReadonlyArray<{ code: number; name: string }> = [],
): AlarmMessage {
  let m = /^plant-wide: all (\d+) (RTUs|inverters) \((.*)\)$/s.exec(text);
  if (m) {
    return {
      code: "plant_wide",
      params: {
        of: m[2] === "RTUs" ? "rtus" : "inverters",
        count: Number(m[1]),
        detail: parseLegacyAlarmMessage(m[3]!, { faultCode: null }, faultTable),
      },
    };
  }
  m = /^RTU (\S+) silent since (\S+)$/.exec(text);
  if (m && Number.isFinite(Date.parse(m[2]!))) return { code: "rtu_silent", params: { rtu: m[1]!, since: Date.parse(m[2]!) } };
  m = /^device (\S+) not answering$/.exec(text);
  if (m) return { code: "device_silent", params: { device: m[1]! } };
  m = /^fault 0x([0-9A-F]{1,8})$/.exec(text);
  if (m) return { code: "inverter_fault", params: { faultCode: parseInt(m[1]!, 16) } };
  m = /^(-?\d+(?:\.\d+)?) kW is (-?\d+) % of the reference (-?\d+(?:\.\d+)?) kW$/.exec(text);
  if (m) return { code: "low_generation", params: { actualKw: Number(m[1]), ratio: Number(m[2]), referenceKw: Number(m[3]) } };
  if (row.faultCode) {
    const names = faultBitNames(faultTable, row.faultCode);
    if (names.length && names.join(", ") === text) return { code: "inverter_fault", params: { faultCode: row.faultCode } };
  }
  return { code: "text", params: { text } };
}
