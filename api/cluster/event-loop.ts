/**
 * Event-loop delay of this process (Node's monitorEventLoopDelay): how long a timer, a request or an answer waited
 * because something held the loop. Measured in windows; the last window's p99 and max go into the health answer,
 * and a line goes to the log when a window missed the target (p99 ≤ 50 ms, max ≤ 200 ms) and every tenth window
 * otherwise.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { EventLoopDelay } from "../../domain/contract/health";

export const EVENT_LOOP_TARGET = { p99Ms: 50, maxMs: 200 };

export interface EventLoopMonitor {
  /** The last complete window, or the one under way before the first has ended. */
  delay(): EventLoopDelay;
  stop(): void;
}

export function eventLoopMonitor(opts: { name: string; windowMs?: number; log?: (m: string) => void }): EventLoopMonitor {
  const windowMs = opts.windowMs ?? 60_000;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let started = Date.now();
  const measure = (): EventLoopDelay => ({
    p99Ms: Math.round(histogram.percentile(99) / 1e4) / 100,
    maxMs: Math.round(histogram.max / 1e4) / 100,
    windowS: Math.round((Date.now() - started) / 1000),
  });
  let last: EventLoopDelay | null = null;
  let windows = 0;
  const timer = setInterval(() => {
    last = histogram.count ? measure() : { p99Ms: 0, maxMs: 0, windowS: Math.round(windowMs / 1000) };
    histogram.reset();
    started = Date.now();
    const missed = last.p99Ms > EVENT_LOOP_TARGET.p99Ms || last.maxMs > EVENT_LOOP_TARGET.maxMs;
    if (missed || windows++ % 10 === 0)
      opts.log?.(
        `event loop (${opts.name} ${process.pid}): p99 ${last.p99Ms} ms, max ${last.maxMs} ms over ${last.windowS} s` +
          (missed ? ` (target p99 ≤ ${EVENT_LOOP_TARGET.p99Ms} ms, max ≤ ${EVENT_LOOP_TARGET.maxMs} ms)` : ""),
      );
  }, windowMs);
  timer.unref();
  return {
    delay: () => last ?? measure(),
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
