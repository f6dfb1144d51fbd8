/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. BENCH_CPU_PROF of bench/alarm.ts):
 *   npx tsx bench/cpuprofile-top.ts <file.cpuprofile> [rows=25] [filter]
 * prints the functions with the most self time, the files (packages) with the most self time, and the functions with
 * the most total time (self plus what they called; recursion counted once) — optionally only those whose name or
 * file holds `filter`. Not a test.
 */
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg, filter] = process.argv.slice(2);
if (!file) {
  console.error("usage: npx tsx bench/cpuprofile-top.ts <file.cpuprofile> [rows] [filter]");
  process.exit(2);
}
const rows = Number(rowsArg ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from the samples and their time deltas (µs).
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const short = (url: string) => {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return `npm:${rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  return url.replace(/^file:\/\/.*?\/(wt-[^/]+|alarm-before|main)\//, "") || "(native)";
};
const label = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const keep = (key: string) => !filter || key.includes(filter);

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const selfByFn = new Map<string, number>();
const selfByFile = new Map<string, number>();
const totalByFn = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  add(selfByFn, label(n), us);
  add(selfByFile, short(n.callFrame.url), us);
  // Total: this sample counts once for every distinct function on its stack.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label(byId.get(cur)!);
    if (!seen.has(k)) {
      seen.add(k);
      add(totalByFn, k, us);
    }
  }
}

const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms`;
const top = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m]
    .filter(([k]) => keep(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows))
    console.log(`${pct(us)}  ${k}`);
};
console.log(
  `${file}: ${(total / 1000).toFixed(0)} ms sampled over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
);
top("self time by function", selfByFn);
top("self time by file or package", selfByFile);
top("total time by function (self + callees)", totalByFn);
