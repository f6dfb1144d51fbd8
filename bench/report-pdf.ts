/**
 * PDF report benchmark (issue 26 point 2): prints figures (record them in bench/README.md by hand).
 *   npx tsx bench/report-pdf.ts            (SQLite, in a temporary directory)
 * The demo fleet (api/sim/fleet.ts demoFleet: 36 plants, their inverters and sensors) with a month (30 days) of
 * hourly rollups, written straight into rollup_hourly as ingest would have left them (24 rows a day a device:
 * a night hour is a row of 0 W, as the simulator's readings are). Then, in this process, through the API's code
 * (api/statistics/pdf-report.ts, as GET /api/statistics/export?format=pdf runs it) into a byte counter:
 *   1. the integrated report of the whole fleet, hourly, all hours (36 × 30 × 24 rows) and daylight only (sunRise);
 *   2. the inverter report of the whole fleet, hourly (every inverter × 720 hours): the heaviest month there is;
 *   3. the integrated report, summary only and daily, for comparison.
 * Each: seconds, CPU seconds, bytes, pages, rows, the peak RSS and heap of this process while writing (sampled
 * every 10 ms, their rise above the start), and the longest stretch the event loop was held (perf_hooks'
 * monitorEventLoopDelay: the server must never block > ~50 ms). Not a test: nothing passes or fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Writable } from "node:stream";
import { openStore, type Store } from "../api/store/db";
import { demoFleet, seedDemoFleet } from "../api/sim/fleet";
import { seedFoundation } from "../api/store/seed";
import { pdfFontPath, writePdf } from "../api/statistics/pdf-report";
import { prepareReport, reportChunks } from "../api/statistics/report";
import { CHUNK_ROWS } from "../api/statistics/export";
import type { AccessClaims } from "../domain/contract/auth";
import type { PdfDetail, ReportKind } from "../domain/contract/statistics";
import { detailUnit } from "../domain/statistics-table";
import { formatSeoul, seoulDayStart } from "../domain/seoul-time";

const DAYS = 30;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const fmt = (n: number, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });

async function seedMonth(store: Store, first: number): Promise<{ plants: number; inverters: number; sensors: number }> {
  const fleet = demoFleet();
  await seedFoundation(store, { adminPassword: "bench-admin-1234!" });
  await seedDemoFleet(store, fleet);
  const devices = fleet.flatMap((p) => p.devices.filter((d) => d.kind === 1 || d.kind === 4));
  const sunAt = (h: number) => Math.max(0, Math.sin(((h - 6) / 13) * Math.PI));
  for (let d = 0; d < DAYS; d++) {
    const day = first + d * DAY;
    const rows: Array<Record<string, number | string | null>> = [];
    for (const dev of devices) {
      const inverter = dev.kind === 1;
      const kw = (dev.capaRaw ?? 0) / 100;
      for (let h = 0; h < 24; h++) {
        const sun = sunAt(h) * (0.7 + 0.3 * Math.sin((d + dev.index) / 7));
        const w = kw * 1000 * 0.8 * sun;
        rows.push({
          device_uid: dev.uid,
          hour_ts: day + h * HOUR,
          kind: dev.kind,
          samples: 6,
          energy_wh: inverter ? w : null,
          avg_w: inverter ? w : null,
          max_w: inverter ? w * 1.05 : null,
          his_wh: inverter ? null : 800 * sun,
          iis_wh: inverter ? null : 900 * sun,
          avg_sts: inverter ? null : 25,
          avg_ats: inverter ? null : 15,
          max_today_wh: null,
          max_total_wh: null,
        });
      }
    }
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto("rollup_hourly")
          .values(rows.slice(i, i + 500) as never)
          .execute();
    });
  }
  return {
    plants: fleet.length,
    inverters: devices.filter((d) => d.kind === 1).length,
    sensors: devices.filter((d) => d.kind === 4).length,
  };
}

async function run(
  store: Store,
  label: string,
  report: ReportKind,
  detail: PdfDetail,
  sunRise: boolean,
  start: string,
  end: string,
) {
  const fontPath = pdfFontPath()!;
  const claims = { id: "admin", service: 0, scope: undefined } as unknown as AccessClaims;
  // The store's share of the stalls: the longest read of one chunk of rows (a synchronous SQLite query over a
  // few plants' or devices' rollups, api/store/statistics.ts), the same reads the JSON report and exports make.
  let chunkMax = 0;
  {
    const q = await prepareReport(
      store.db,
      claims,
      report,
      { unit: detailUnit(detail, "60"), start, end, sunRise },
      Date.now(),
      "전체",
    );
    const it = reportChunks(store.db, q, "plant", CHUNK_ROWS);
    for (;;) {
      const t = performance.now();
      const r = await it.next();
      chunkMax = Math.max(chunkMax, performance.now() - t);
      if (r.done) break;
    }
  }
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const heap0 = process.memoryUsage().heapUsed;
  let rss = rss0;
  let heap = heap0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 10);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const p = await prepareReport(
    store.db,
    claims,
    report,
    { unit: detailUnit(detail, "60"), start, end, sunRise },
    Date.now(),
    "전체",
  );
  let bytes = 0;
  let pages = 0;
  const sink = new Writable({
    write(chunk: Buffer, _e, cb) {
      bytes += chunk.length;
      pages += chunk.toString("latin1").match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
      // As a socket would: the write completes on a later turn.
      setImmediate(cb);
    },
  });
  await writePdf(store.db, p, { lang: "ko", detail, by: "admin", at: Date.now(), fontPath }, sink);
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  loop.disable();
  const rows = lastRows;
  console.log(
    `${label}: ${fmt(secs, 2)} s (CPU ${fmt((cpu.user + cpu.system) / 1e6, 2)} s), ${fmt(bytes / 1e6, 2)} MB, ${fmt(pages)} pages, ` +
      `${fmt(rows)} step rows; peak RSS ${fmt(rss / 1e6)} MB (+${fmt((rss - rss0) / 1e6)}), peak heap ${fmt(heap / 1e6)} MB ` +
      `(+${fmt((heap - heap0) / 1e6)}); event loop held at most ${fmt(loop.max / 1e6, 1)} ms (p99 ${fmt(loop.percentile(99) / 1e6, 1)} ms; the store's longest chunk read ${fmt(chunkMax, 1)} ms)`,
  );
}

/** Step rows of the last report (read back from the title "(전체 N행)" would need the text; counted here instead). */
let lastRows = 0;

async function main() {
  if (!pdfFontPath()) throw new Error("no TrueType Hangul font: install fonts-nanum or set PDF_FONT");
  const dir = mkdtempSync(path.join(tmpdir(), "bench-pdf-"));
  const store = await openStore(`file:${path.join(dir, "portal.db")}`);
  try {
    const first = seoulDayStart(Date.now()) - (DAYS + 1) * DAY;
    const start = formatSeoul(first, "YYYY-MM-DD");
    const end = formatSeoul(first + (DAYS - 1) * DAY, "YYYY-MM-DD");
    const t0 = performance.now();
    const fleet = await seedMonth(store, first);
    console.log(
      `report PDF bench — demo fleet ${fleet.plants} plants, ${fleet.inverters} inverters, ${fleet.sensors} sensors; ` +
        `${DAYS} days of hourly rollups (${start} – ${end}) seeded in ${fmt((performance.now() - t0) / 1000, 1)} s; ` +
        `Node ${process.version}; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
    );
    const countRows = async (report: ReportKind, unit: string, sunRise: boolean) => {
      const { reportAnswer } = await import("../api/statistics/report");
      const claims = { id: "admin", service: 0, scope: undefined } as unknown as AccessClaims;
      const p = await prepareReport(store.db, claims, report, { unit: unit as never, start, end, sunRise }, Date.now(), "전체");
      return (await reportAnswer(store.db, p, { unit: unit as never, sunRise, limit: 0 }, Date.now())).rowCount;
    };
    // A warm-up (the font read, V8's optimisation), not measured.
    lastRows = await countRows("integrated", "day", false);
    await run(store, "warm-up: integrated, daily", "integrated", "day", false, start, end);
    lastRows = await countRows("integrated", "60", false);
    await run(store, "1a. integrated report, fleet, hourly, all hours", "integrated", "hour", false, start, end);
    lastRows = await countRows("integrated", "60", true);
    await run(store, "1b. integrated report, fleet, hourly, daylight only (sunRise)", "integrated", "hour", true, start, end);
    lastRows = await countRows("inverter", "60", false);
    await run(store, "2.  inverter report, fleet, hourly, all hours", "inverter", "hour", false, start, end);
    lastRows = 0;
    await run(store, "3a. integrated report, fleet, summary only", "integrated", "summary", false, start, end);
    lastRows = await countRows("integrated", "day", false);
    await run(store, "3b. integrated report, fleet, daily", "integrated", "day", false, start, end);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
