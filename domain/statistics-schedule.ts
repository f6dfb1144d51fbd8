/**
 * When a scheduled statistics report is due (issue 16): a subscription sends the report of the last complete
 * Seoul calendar period — the day before, the week before (Monday to Sunday) or the month before — an hour
 * after that period ended (01:00 Seoul), so late readings and the rollups are in. A new subscription gets the
 * last complete period at the next run; after that one mail per period (the period start is remembered, and the
 * outbox's dedupe key carries it, so a second run or a second server never sends it again).
 */
import type { SubscriptionFrequency } from "./contract/statistics";
import { addSeoul, HOUR_MS, seoulPeriodStart } from "./seoul-time";
import type { Period, StatUnit } from "./statistics";

/** How long after a period's end its report is sent. */
export const REPORT_DELIVERY_DELAY_MS = HOUR_MS;

/** The unit of a scheduled report's table: hours for a day, days for a week or month. */
export const SUBSCRIPTION_UNIT: Record<SubscriptionFrequency, StatUnit> = { daily: "60", weekly: "day", monthly: "day" };

const CALENDAR: Record<SubscriptionFrequency, "day" | "week" | "month"> = { daily: "day", weekly: "week", monthly: "month" };

/** The Seoul calendar period of a frequency that contains ts. */
export function periodContaining(frequency: SubscriptionFrequency, ts: number): Period {
  const unit = CALENDAR[frequency];
  const start = seoulPeriodStart(ts, unit);
  return { start, end: addSeoul(start, 1, unit) };
}

/** The latest period whose report is due at `now` (ended at least REPORT_DELIVERY_DELAY_MS ago). */
export function lastDuePeriod(frequency: SubscriptionFrequency, now: number): Period {
  const current = periodContaining(frequency, now - REPORT_DELIVERY_DELAY_MS);
  return periodContaining(frequency, current.start - 1);
}

/** The period to send now, or null when the latest due one (start `lastSent`) was already sent. */
export function periodToSend(frequency: SubscriptionFrequency, lastSent: number | null, now: number): Period | null {
  const due = lastDuePeriod(frequency, now);
  return lastSent !== null && lastSent >= due.start ? null : due;
}

/** When the next report of this frequency falls due after `now` (epoch ms). */
export function nextRunAt(frequency: SubscriptionFrequency, now: number): number {
  const current = periodContaining(frequency, now - REPORT_DELIVERY_DELAY_MS);
  return current.end + REPORT_DELIVERY_DELAY_MS;
}
