/** The catalogue of the alarm and control screens and the alert settings (alarm-ko.ts, alarm-en.ts), only with them. */
import { alarmEn } from "./alarm-en";
import { alarmKo, type AlarmMessages } from "./alarm-ko";
import type { Messages } from "./ko";
import { cataloguePart } from "./part";

export type AlarmCatalogue = Messages & AlarmMessages;

const part = cataloguePart<AlarmMessages>({ ko: alarmKo, en: alarmEn });
export const alarmMessages = part.messages;
export const useAlarmT = part.useT;
