// Preloaded into every process of a server by bench/event-loop.ts (`node --import`; portal processes inherit it
// through node:cluster): Node's event-loop delay histogram, printed and reset on SIGUSR2, so the bench reads each
// process's p99 and max over a phase it chooses. Works on any version of the server (the "before" figures too).
import cluster from "node:cluster";
import { monitorEventLoopDelay } from "node:perf_hooks";

const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
const ms = (ns) => (ns / 1e6).toFixed(1);
process.on("SIGUSR2", () => {
  const role = cluster.isWorker ? "portal" : "primary";
  process.stdout.write(
    `[eld] pid=${process.pid} role=${role} n=${h.count} p50=${ms(h.percentile(50))} p99=${ms(h.percentile(99))} max=${ms(h.max)}\n`,
  );
  h.reset();
});
