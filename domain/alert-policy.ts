/**
 * Who gets an alert and when (pure): a member's preferences (minimum level, channels, quiet hours, daily
 * digest) decide whether an alarm step is sent, on which channels, and not before when. Quiet hours are
 * Seoul wall-clock minutes and may wrap midnight (22:00–07:00).
 */
import { DAY_MS, MINUTE_MS, seoulDayStart } from "./seoul-time";

export interface AlertPrefView {
  minLevel: number;
  mail: boolean;
  webhook: boolean;
  webhookUrl: string | null;
  /** Minutes after Seoul midnight; both null when there are no quiet hours. */
  quietFrom: number | null;
  quietTo: number | null;
  digest: boolean;
}

/** A member who never saved preferences: warnings and severe alarms by mail, at once. */
export const DEFAULT_ALERT_PREF: AlertPrefView = {
  minLevel: 3,
  mail: true,
  webhook: false,
  webhookUrl: null,
  quietFrom: null,
  quietTo: null,
  digest: false,
};

export const hhmmToMinutes = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
export const minutesToHhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** The end of the quiet hours `now` falls in (epoch ms), or null when now is not quiet. */
export function quietUntil(now: number, from: number | null, to: number | null): number | null {
  if (from === null || to === null || from === to) return null;
  const day = seoulDayStart(now);
  const minute = Math.floor((now - day) / MINUTE_MS);
  if (from < to) return minute >= from && minute < to ? day + to * MINUTE_MS : null;
  // Wrapping midnight: quiet from `from` to 24:00 and from 00:00 to `to`.
  if (minute >= from) return day + DAY_MS + to * MINUTE_MS;
  if (minute < to) return day + to * MINUTE_MS;
  return null;
}

export interface AlertPlan {
  channels: Array<{ channel: "mail" | "webhook"; to: string }>;
  notBefore: number;
}

/** The deliveries of one alarm step for one member; no channels when nothing is to be sent now. */
export function planAlert(pref: AlertPrefView, email: string | null, level: number, now: number): AlertPlan {
  const channels: AlertPlan["channels"] = [];
  if (level >= pref.minLevel && !pref.digest) {
    if (pref.mail && email) channels.push({ channel: "mail", to: email });
    if (pref.webhook && pref.webhookUrl) channels.push({ channel: "webhook", to: pref.webhookUrl });
  }
  return { channels, notBefore: quietUntil(now, pref.quietFrom, pref.quietTo) ?? now };
}

/** The Seoul hour after which the digest of the previous day is sent. */
export const DIGEST_HOUR = 7;
