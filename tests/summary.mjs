// Sums the JSON reports of the vitest and Playwright stages into one closing line for CI:
// "N passed, N failed, N skipped". Missing reports (a stage that did not run) count nothing.
import { existsSync, readFileSync } from "node:fs";

let passed = 0,
  failed = 0,
  skipped = 0;
const rows = [];
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    rows.push(`${file}: no report`);
    continue;
  }
  let r;
  try {
    r = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    rows.push(`${file}: unreadable report`);
    continue;
  }
  let p, f, s;
  if (r.stats && "expected" in r.stats) {
    // Playwright: flaky tests passed on a retry; they count as passed but are named.
    p = r.stats.expected + r.stats.flaky;
    f = r.stats.unexpected;
    s = r.stats.skipped;
    if (r.stats.flaky) rows.push(`${file}: ${r.stats.flaky} flaky`);
  } else {
    p = r.numPassedTests ?? 0;
    f = r.numFailedTests ?? 0;
    s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
  passed += p;
  failed += f;
  skipped += s;
  rows.push(`${file}: ${p} passed, ${f} failed, ${s} skipped`);
}
for (const row of rows) console.log(`  ${row}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
