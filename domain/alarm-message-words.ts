/**
 * The catalogue words of the engine's alarm messages (domain/alarm-message.ts renders them), apart from the
 * messages' zod schema: the portal's typed catalogue (app/i18n) takes them into every page's script, which then
 * carries no zod. Pure: no I/O.
 */
import type { WordLocale } from "./status-words";

/** The catalogue words of the messages: `{name}` placeholders. */
export interface AlarmMessageWords {
  rtuSilent: string;
  deviceSilent: string;
  faultCode: string;
  /** A fault with the names of its bits. */
  faultNames: string;
  lowGeneration: string;
  plantWideRtus: string;
  plantWideInverters: string;
}

export const ALARM_MESSAGE_WORDS: Readonly<Record<WordLocale, AlarmMessageWords>> = {
  ko: {
    rtuSilent: "RTU {rtu}: {since} 이후 수신 없음",
    deviceSilent: "장비 {device} 응답 없음",
    faultCode: "고장 코드 0x{hex}",
    faultNames: "{names} (고장 코드 0x{hex})",
    lowGeneration: "{actual} kW, 기준 {reference} kW의 {ratio}%",
    plantWideRtus: "발전소 전체: RTU {count}대 모두 ({detail})",
    plantWideInverters: "발전소 전체: 인버터 {count}대 모두 ({detail})",
  },
  en: {
    rtuSilent: "RTU {rtu}: nothing received since {since}",
    deviceSilent: "Device {device} not answering",
    faultCode: "Fault code 0x{hex}",
    faultNames: "{names} (fault code 0x{hex})",
    lowGeneration: "{actual} kW is {ratio}% of the reference {reference} kW",
    plantWideRtus: "Whole plant: all {count} RTUs ({detail})",
    plantWideInverters: "Whole plant: all {count} inverters ({detail})",
  },
};
