import type { HealthAnswer } from "../../domain/contract/health";

/** Polls `probe` until it answers something truthy (its answer is returned) or the time is up. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  opts: { ms?: number; every?: number; failure?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.ms ?? 8_000);
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(opts.failure?.() ?? "condition not met in time");
    await new Promise((r) => setTimeout(r, opts.every ?? 100));
  }
}

/**
 * Asks `probe` until its answer passes `done` or the time is up, and returns the last answer either way: the caller
 * asserts on it, so a timeout fails with the answer that was wrong rather than "condition not met".
 */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (answer: T) => boolean,
  opts: { ms?: number; every?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.ms ?? 8_000);
  for (;;) {
    const answer = await probe();
    if (done(answer) || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, opts.every ?? 50));
  }
}

async function alarmEngineOf(baseUrl: string): Promise<NonNullable<HealthAnswer["alarmEngine"]>> {
  const res = await fetch(`${baseUrl}/api/health`);
  const engine = ((await res.json()) as HealthAnswer).alarmEngine;
  if (!engine) throw new Error(`the server at ${baseUrl} does not run the alarm engine`);
  return engine;
}

/**
 * Waits until the alarm engine has judged every telemetry batch the server stored before this call (the health
 * answer's alarmEngine): after it, an alarm those readings would raise or clear has been raised or cleared, so a
 * test may assert that nothing happened.
 */
export async function alarmsJudged(baseUrl: string, ms = 15_000): Promise<void> {
  const { batchesIn } = await alarmEngineOf(baseUrl);
  await waitFor(async () => (await alarmEngineOf(baseUrl)).batchesJudged >= batchesIn, {
    ms,
    every: 50,
    failure: () => `the alarm engine did not judge the ${batchesIn} batches stored in ${ms} ms`,
  });
}

/** Waits until the alarm engine has completed `more` passes after this call (default two: one begun after it). */
export async function alarmPasses(baseUrl: string, more = 2, ms = 15_000): Promise<void> {
  const { passes } = await alarmEngineOf(baseUrl);
  await waitFor(async () => (await alarmEngineOf(baseUrl)).passes >= passes + more, {
    ms,
    every: 50,
    failure: () => `the alarm engine did not complete ${more} passes in ${ms} ms`,
  });
}

/**
 * The rhythm of a simulated client — a gateway's send interval, a wallboard's poll, a retry's back-off, the beat of
 * a chaos test's kills — where time itself is the subject. Never a wait for an outcome: wait for the event instead
 * (waitFor, pollUntil, alarmsJudged).
 */
export function pace(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
