/**
 * What happens to an open alarm besides its condition (issue 29 §2), pure:
 * - auto-close: an alarm whose condition has not been seen for a configured time is cleared by itself (marked
 *   auto-cleared), e.g. a fault of a device that has been silent since, whose state nobody can judge any more;
 * - flapping: an alarm that comes back (raised again) more than N times within an hour stays one alarm with a count,
 *   and its further steps are not alerted one by one.
 */
export const HOUR_MS = 3_600_000;

/** Whether an open alarm last seen at `lastSeenAt` is cleared by itself at `now` (autoCloseMinutes 0: never). */
export function autoCloseDue(lastSeenAt: number, now: number, autoCloseMinutes: number): boolean {
  return autoCloseMinutes > 0 && now - lastSeenAt >= autoCloseMinutes * 60_000;
}

/** How many of these times (an alarm's returns) fall within the hour up to `now`. */
export function togglesInHour(returns: readonly number[], now: number): number {
  return returns.filter((t) => t > now - HOUR_MS && t <= now).length;
}

/**
 * Whether an alarm flaps at `now`: it came back more than `maxPerHour` times in the last hour (its returns, the
 * one now included). A flapping alarm's steps are stored and counted, not alerted.
 */
export function isFlapping(returns: readonly number[], now: number, maxPerHour: number): boolean {
  return togglesInHour(returns, now) > maxPerHour;
}
