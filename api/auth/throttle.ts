/**
 * Login throttling: after a few failures for one id or one address, each further attempt
 * must wait an exponentially growing delay (capped), and counters forget after a quiet window.
 * The owner is never locked out for longer than the cap.
 */
export const THROTTLE = {
  freeFailures: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
  forgetAfterMs: 15 * 60_000,
} as const;

export interface ThrottleState {
  failures: number;
  lastFailureAt: number;
}

/** Milliseconds the next attempt must still wait; 0 means it may go ahead. */
export function throttleWait(state: ThrottleState | undefined, now: number): number {
  if (!state || now - state.lastFailureAt >= THROTTLE.forgetAfterMs) return 0;
  const over = state.failures - THROTTLE.freeFailures;
  if (over < 0) return 0;
  const delay = Math.min(THROTTLE.maxDelayMs, THROTTLE.baseDelayMs * 2 ** over);
  return Math.max(0, state.lastFailureAt + delay - now);
}

/** The state after one more failure at `now` (a forgotten state starts again from one). */
export function afterFailure(state: ThrottleState | undefined, now: number): ThrottleState {
  if (!state || now - state.lastFailureAt >= THROTTLE.forgetAfterMs) return { failures: 1, lastFailureAt: now };
  return { failures: state.failures + 1, lastFailureAt: now };
}
