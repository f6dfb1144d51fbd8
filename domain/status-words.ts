// The one vocabulary of plant status and alarm names (SPEC §4, issue 13 point 8), in both languages. Every
// screen's catalogue part (app/i18n/status.ts builds them) and every API text that names a status or an alarm
// code (alert mails) take their words from here; the inverter fault names come from the fault-code table
// (GET /code). Pure data: no I/O.
import { ALARM_CODE, type AlarmCode, type StatusCategory } from "./status";

export type WordLocale = "ko" | "en";

export interface StatusWords {
  normal: string;
  notWork: string;
  noData: string;
  /** The filter/count category that holds every warning kind (not a plant's own status). */
  allWarnings: string;
  /** Alarm code → its name; a plant whose status is that warning carries the same name. */
  codes: Readonly<Record<AlarmCode, string>>;
  /** Unit after a number of generation hours: the symbol "h" in both languages, like kW and kWh beside it. */
  hours: string;
}

export const STATUS_WORDS: Readonly<Record<WordLocale, StatusWords>> = {
  ko: {
    normal: "정상",
    notWork: "미작동",
    noData: "데이터 없음",
    allWarnings: "경고 전체",
    codes: {
      [ALARM_CODE.communicationFault]: "장비 통신 장애",
      [ALARM_CODE.internetDisconnected]: "인터넷 연결 끊김",
      [ALARM_CODE.abnormalTodayGeneration]: "금일 발전량 이상",
      [ALARM_CODE.inverterFault]: "인버터 고장",
    },
    hours: "h",
  },
  en: {
    normal: "Normal",
    notWork: "Not working",
    noData: "No data",
    allWarnings: "All warnings",
    codes: {
      [ALARM_CODE.communicationFault]: "Communication fault with the equipment",
      [ALARM_CODE.internetDisconnected]: "Internet disconnected",
      [ALARM_CODE.abnormalTodayGeneration]: "Abnormal today's generation",
      [ALARM_CODE.inverterFault]: "Inverter fault",
    },
    hours: "h",
  },
};

/** Name of a status filter/count category (SPEC §4 categories). */
export function categoryWord(locale: WordLocale, category: StatusCategory): string {
  const w = STATUS_WORDS[locale];
  switch (category) {
    case "normal":
      return w.normal;
    case "notWork":
      return w.notWork;
    case "warning":
      return w.allWarnings;
    case "warning_1000001":
      return w.codes[1000001];
    case "warning_1000003":
      return w.codes[1000003];
    case "warning_1000004":
      return w.codes[1000004];
    case "warning_1000006":
      return w.codes[1000006];
  }
}

/**
 * Name of a plant's own status, by its numeric code (SPEC §4): 3 — statusName 'warning' — is the internet
 * disconnection, never "all warnings"; 0 is no data.
 */
export function plantStatusWord(locale: WordLocale, status: number): string {
  const w = STATUS_WORDS[locale];
  switch (status) {
    case 0:
      return w.noData;
    case 2:
      return w.normal;
    case 3:
      return w.codes[1000003];
    case 4:
      return w.codes[1000001];
    case 5:
      return w.codes[1000004];
    case 6:
      return w.codes[1000006];
    default:
      return w.notWork;
  }
}

/** Name of an alarm code; undefined for a code outside SPEC §4. */
export function alarmCodeWord(locale: WordLocale, code: number): string | undefined {
  return (STATUS_WORDS[locale].codes as Record<number, string>)[code];
}
