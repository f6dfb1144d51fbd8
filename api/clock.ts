/**
 * The data plane's notion of "now". In production it is the wall clock; a demo may run the
 * fleet faster (SIM_SPEED), and then ingest, alarms and the status API all follow the same clock.
 */
export interface Clock {
  now(): number;
  speed: number;
}

export const wallClock: Clock = { now: () => Date.now(), speed: 1 };

export function acceleratedClock(speed: number, start = Date.now()): Clock {
  if (speed === 1) return wallClock;
  const realStart = Date.now();
  return { now: () => start + (Date.now() - realStart) * speed, speed };
}
