/**
 * Kiosk wallboard over an hour (issue 17): is it light, and does it stay light? Prints figures and records them in
 * bench/README.md.
 *   npx tsx bench/kiosk.ts                 an hour of simulated time (600 polls of 6 s, a view change every 5 min)
 *   BENCH_KIOSK_MINUTES=10 npx tsx bench/kiosk.ts   a shorter run
 * One real server (server.ts from build/, the demo fleet simulated), Debian's Chromium with script. The page's clock
 * is Playwright's fake clock, advanced 6 s at a time; every poll it fires is a real request to the real server and
 * is waited for, so an hour of wallboard life passes in a few minutes. Measured after a forced garbage collection:
 * the JavaScript heap in use, DOM nodes and event listeners (Chromium's own counters, CDP Performance.getMetrics),
 * at the start and every 10 simulated minutes; and the client JavaScript the page loaded (bytes on the wire).
 * The browser's resource-timing buffer (one entry a request, at most 250) is emptied before each sample.
 * Not a test: nothing passes or fails.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { ADMIN_PASSWORD, REPO_ROOT, startServer } from "../tests/helpers/server";

const MINUTES = Number(process.env.BENCH_KIOSK_MINUTES ?? 60);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const POLL_MS = 6_000;
const SAMPLE_EVERY_MIN = MINUTES >= 30 ? 10 : 2;
const KIOSK = "/pvstatus?kiosk=1&cycle=/pvstatus,/watch,/&every=300";

interface Sample {
  minute: number;
  heapMB: number;
  nodes: number;
  listeners: number;
  url: string;
}

async function sample(cdp: CDPSession, page: Page, minute: number): Promise<Sample> {
  // The browser's own buffer of resource timings (up to 250 entries, one per request) is not the page's memory:
  // empty it so that what remains is what the portal's code keeps.
  await page.evaluate(() => performance.clearResourceTimings());
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = await cdp.send("Runtime.getHeapUsage");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return {
    minute,
    heapMB: heap.usedSize / 2 ** 20,
    nodes: metric("Nodes"),
    listeners: metric("JSEventListeners"),
    url: new URL(page.url()).pathname,
  };
}

async function main() {
  const server = await startServer({ store: "sqlite", env: { SIMULATE: "1", HISTORY_DAYS: "1" }, timeoutMs: 180_000 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const login = await fetch(`${server.baseUrl}/api/member/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "admin", password: ADMIN_PASSWORD }),
    });
    const tokens = (await login.json()) as Record<string, string>;
    const context = await browser.newContext({
      viewport: { width: 1920, height: 1080 },
      locale: "ko-KR",
      timezoneId: "Asia/Seoul",
    });
    await context.addCookies([
      ...["accessToken", "refreshToken", "sessionId"].map((name) => ({
        name,
        value: tokens[name]!,
        url: server.baseUrl,
        httpOnly: true,
      })),
      { name: "NewAppOpenPop", value: "Y", url: server.baseUrl },
      { name: "onWeekCloseModal", value: "Y", url: server.baseUrl },
    ]);
    const page = await context.newPage();
    // Requests in flight, so each step waits for the poll it set off (a real request to the real server).
    let inFlight = 0;
    let requests = 0;
    page.on("request", () => {
      inFlight++;
      requests++;
    });
    const done = () => inFlight--;
    // The page's JavaScript as it travelled (compressed) and as the browser read it.
    const js = { files: 0, wire: 0, body: 0 };
    page.on("requestfinished", (req) => {
      done();
      if (req.resourceType() !== "script" && !req.url().endsWith(".js")) return;
      void req.sizes().then((s) => {
        js.files++;
        js.wire += s.responseBodySize;
      });
      void req
        .response()
        .then((r) => r?.body())
        .then(
          (b) => (js.body += b?.length ?? 0),
          () => undefined,
        );
    });
    page.on("requestfailed", done);
    await page.clock.install();
    await page.goto(`${server.baseUrl}${KIOSK}`);
    await page.getByTestId("polling").waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const samples: Sample[] = [await sample(cdp, page, 0)];
    console.log(
      `client JS: ${js.files} files, ${(js.wire / 1024).toFixed(1)} KB on the wire, ${(js.body / 1024).toFixed(1)} KB decoded`,
    );
    console.log(
      `minute 0: heap ${samples[0]!.heapMB.toFixed(2)} MB, ${samples[0]!.nodes} nodes, ${samples[0]!.listeners} listeners`,
    );
    const t0 = Date.now();
    const steps = (MINUTES * 60_000) / POLL_MS;
    for (let i = 1; i <= steps; i++) {
      await page.clock.runFor(POLL_MS);
      // Let the poll (and a view change) start, then wait until nothing is in flight.
      await new Promise((r) => setTimeout(r, 30));
      const until = Date.now() + 15_000;
      while (inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const minute = (i * POLL_MS) / 60_000;
      if (minute % SAMPLE_EVERY_MIN === 0) {
        const s = await sample(cdp, page, minute);
        samples.push(s);
        console.log(
          `minute ${minute}: heap ${s.heapMB.toFixed(2)} MB, ${s.nodes} nodes, ${s.listeners} listeners, on ${s.url}, ${requests} requests so far`,
        );
      }
    }
    const realS = (Date.now() - t0) / 1000;
    // Compare like with like: the same view at the start and at the end of the run.
    const first = samples[0]!;
    const sameView = samples.filter((s) => s.url === first.url);
    const last = sameView[sameView.length - 1]!;
    const table = [
      "| simulated minute | view | JS heap in use (MB) | DOM nodes | JS event listeners |",
      "|---|---|---|---|---|",
      ...samples.map((s) => `| ${s.minute} | ${s.url} | ${s.heapMB.toFixed(2)} | ${s.nodes} | ${s.listeners} |`),
    ].join("\n");
    const summary =
      `Client JavaScript of the kiosk page: ${js.files} files, ${(js.wire / 1024).toFixed(1)} KB on the wire (${(js.body / 1024).toFixed(1)} KB decoded). ` +
      `${steps} polls of ${POLL_MS / 1000} s (${MINUTES} simulated minutes, ${requests} requests) ran in ${realS.toFixed(0)} s of real time. ` +
      `On ${first.url}, minute ${first.minute} → ${last.minute}: heap ${first.heapMB.toFixed(2)} → ${last.heapMB.toFixed(2)} MB, ` +
      `DOM nodes ${first.nodes} → ${last.nodes}, listeners ${first.listeners} → ${last.listeners}.`;
    console.log(`\n${table}\n\n${summary}`);
    const marker = "kiosk";
    const section = `<!-- ${marker} -->\n## Kiosk wallboard over ${MINUTES} simulated minutes (\`${MINUTES === 60 ? "" : `BENCH_KIOSK_MINUTES=${MINUTES} `}npx tsx bench/kiosk.ts\`, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end)\n\n\`${KIOSK}\` on the simulated demo fleet, 1920×1080, Playwright's fake clock advanced ${POLL_MS / 1000} s at a time with every poll a real request; measured after a forced GC (CDP).\n\n${table}\n\n${summary}\n<!-- /${marker} -->`;
    const readme = path.join(REPO_ROOT, "bench/README.md");
    const text = readFileSync(readme, "utf8");
    const re = new RegExp(`<!-- ${marker} -->[\\s\\S]*?<!-- /${marker} -->`);
    writeFileSync(readme, re.test(text) ? text.replace(re, section) : `${text.trimEnd()}\n\n${section}\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
