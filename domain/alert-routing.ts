/**
 * Per-member alert routing (issue 29 §2): which plants or groups, levels and codes reach a member, by mail or
 * webhook. A member without routes gets the alarms of the plants they are a contact of at their preferences' minimum
 * level (domain/alert-policy.ts); a member with routes gets an alarm only when one of their routes matches it:
 * its plant (or a group on the plant's path to the root, or every plant), at least its minimum level, and one of its
 * codes (or any code). The channels are those of the matching routes (mail needs the member's address, a webhook
 * the preferences' URL). Quiet hours hold a delivery until they end — except level 4 (severe), which always goes at
 * once. The daily digest, when chosen, still replaces the immediate alerts below level 4.
 */
import { quietUntil, type AlertPlan, type AlertPrefView } from "./alert-policy";

/** Level 4: severe, never held by quiet hours nor folded into the digest. */
export const SEVERE_LEVEL = 4;

export interface AlertRoute {
  /** One plant, or one group (and its subgroups), or neither: every plant the member is a contact of. */
  plant: string | null;
  group: number | null;
  minLevel: number;
  /** Alarm codes (e.g. 1000006 ground fault); null: every code. */
  codes: number[] | null;
  mail: boolean;
  webhook: boolean;
}

export interface RoutedAlarm {
  plant_uid: string;
  /** The plant's group and its ancestors, nearest first (empty when the plant has no group). */
  groupPath: number[];
  level: number;
  code: number;
}

export function routeMatches(r: AlertRoute, a: RoutedAlarm): boolean {
  const where = r.plant !== null ? r.plant === a.plant_uid : r.group !== null ? a.groupPath.includes(r.group) : true;
  return where && a.level >= r.minLevel && (r.codes === null || r.codes.includes(a.code));
}

/** The deliveries of one alarm step for one member: channels (none: nothing to send) and when, at the earliest. */
export function routeAlert(
  pref: AlertPrefView,
  routes: AlertRoute[],
  email: string | null,
  a: RoutedAlarm,
  now: number,
): AlertPlan {
  const severe = a.level >= SEVERE_LEVEL;
  let mail = false;
  let webhook = false;
  if (pref.digest && !severe) {
    // The digest carries it (api/notify/alerts.ts enqueueDigests).
  } else if (!routes.length) {
    if (a.level >= pref.minLevel) {
      mail = pref.mail;
      webhook = pref.webhook;
    }
  } else {
    for (const r of routes) {
      if (!routeMatches(r, a)) continue;
      mail ||= r.mail;
      webhook ||= r.webhook;
    }
  }
  const channels: AlertPlan["channels"] = [];
  if (mail && email) channels.push({ channel: "mail", to: email });
  if (webhook && pref.webhookUrl) channels.push({ channel: "webhook", to: pref.webhookUrl });
  return { channels, notBefore: severe ? now : (quietUntil(now, pref.quietFrom, pref.quietTo) ?? now) };
}
