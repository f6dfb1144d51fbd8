/**
 * Rollup maintenance (a singleton job): every closed hour is rolled up once more from the raw rows
 * after it closed, in order, and the hour it reached is committed as the job's checkpoint in the same
 * transaction. Ingest already recomputes the hours a batch touches; this pass is what guarantees that no
 * hour is missed whatever happened to a batch's server, and a new owner continues from the checkpoint
 * its predecessor committed (the fencing token refuses a commit from an owner that lost the lease).
 */
import type { Clock } from "../clock";
import type { SingletonContext, SingletonJob } from "../cluster/singletons";
import type { Store } from "../store/db";
import { HOUR_MS } from "../../domain/seoul-time";
import { hourOf } from "./rollups";
import { rebuildRollupsIn } from "./writer";
import { dataChanged } from "../store/data-changes";

export const ROLLUP_MAINTENANCE = "rollup-maintenance";
/** A closed hour waits this long (data-plane time) for late readings before its pass. */
const SETTLE_MS = 5 * 60_000;
/** At most this many hours per pass, so a long gap is worked off in short transactions. */
const HOURS_PER_PASS = 24;

export function rollupMaintenance(
  store: Store,
  clock: Clock,
  opts: { intervalMs: number; log: (m: string, e?: unknown) => void },
): SingletonJob & { runOnce(ctx: SingletonContext): Promise<number> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  const job = {
    name: ROLLUP_MAINTENANCE,
    /** Rolls up the closed hours after the checkpoint; returns how many hours were done. */
    async runOnce(ctx: SingletonContext): Promise<number> {
      let done = 0;
      for (;;) {
        const saved = Number(await ctx.checkpoint());
        // First run ever: begin with the hour before the current one.
        const from = Number.isFinite(saved) && saved > 0 ? saved : hourOf(clock.now()) - HOUR_MS;
        const closed = hourOf(clock.now() - SETTLE_MS);
        if (from >= closed || !ctx.held()) return done;
        const to = Math.min(closed, from + HOURS_PER_PASS * HOUR_MS);
        await store.db.transaction().execute(async (trx) => {
          await rebuildRollupsIn(trx, from, to);
          await ctx.saveCheckpoint(trx, String(to));
        });
        dataChanged({ from, to });
        done += (to - from) / HOUR_MS;
      }
    },
    start(ctx: SingletonContext) {
      const pass = () => {
        if (running) return;
        running = job
          .runOnce(ctx)
          .catch((e) => ctx.held() && opts.log("rollup maintenance failed", e))
          .finally(() => (running = null));
      };
      pass();
      timer = setInterval(pass, opts.intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
  return job;
}
