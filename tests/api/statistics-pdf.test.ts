/**
 * The PDF report (issue 26 point 2) against a real server on both stores, read back with poppler's pdftotext and
 * pdfinfo: a report of more than 500 rows is complete (the PDF's step rows are the JSON report's `rowCount`, the
 * screen's "전체 N행"; the print-view PDF stopped at 500), each detail level (summary only / daily / hourly) holds
 * what it says, a long plant name and the units are never wrapped (each step row is one text line with the whole
 * name), the page numbers read "n / N쪽", the font is embedded as a subset with its ToUnicode map (pdffonts), a
 * wide table is set landscape, and a bad detail is a 400.
 * Readings go through the real POST /api/ingest.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import { openTestStore, createMember, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";
import { pollUntil } from "../helpers/wait";

const STEP = 600_000;
const HOUR = 3_600_000;
const DAYS = 5;
/** The last of the days: yesterday, Seoul; the report covers DAYS days up to it. */
const LAST = seoulDayStart(Date.now()) - 86_400_000;
const FIRST = LAST - (DAYS - 1) * 86_400_000;
const START = formatSeoul(FIRST, "YYYY-MM-DD");
const END = formatSeoul(LAST, "YYYY-MM-DD");
const INVERTERS = 10;
const LONG_NAME = "전라남도 해남군 산이면 솔라시도 제2태양광발전소";

/** A step row of pdftotext -layout's text: it starts with its time label. */
const HOUR_ROW = /^\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s/;
const DAY_ROW = /^\s*\d{4}-\d{2}-\d{2}\s{2,}/;

for (const storeKind of STORES) {
  describe(`PDF report (${storeKind})`, () => {
    let server: TestServer;
    let store: Store;
    let g: GatewayFixture;
    let token: string;
    let dir: string;
    const get = (p: string) => apiClient(server.baseUrl).call("GET", p, { token });
    const query = (extra: Record<string, string>) =>
      new URLSearchParams({ plant: g.plantUid, start: START, end: END, ...extra }).toString();

    /** The PDF of a query: its text (layout kept), its page count and page size. */
    async function pdf(extra: Record<string, string>) {
      const res = await fetch(`${server.baseUrl}/api/statistics/export?${query({ format: "pdf", ...extra })}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      const file = path.join(dir, `${Object.values(extra).join("-")}.pdf`);
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { maxBuffer: 64 << 20 }).toString();
      const info = execFileSync("pdfinfo", [file]).toString();
      return {
        text,
        fonts: execFileSync("pdffonts", [file]).toString(),
        lines: text.split("\n"),
        pages: Number(/^Pages:\s+(\d+)/m.exec(info)![1]),
        size: /^Page size:\s+([\d.]+) x ([\d.]+)/m.exec(info)!.slice(1, 3).map(Number),
      };
    }

    beforeAll(async () => {
      // STAT_PDF_DIR=<dir> keeps the PDFs there to look at.
      dir = process.env.STAT_PDF_DIR ?? mkdtempSync(path.join(tmpdir(), "stat-pdf-"));
      server = await startServer({ store: storeKind, env: { PORTAL_WORKERS: "1" }, timeoutMs: 150_000 });
      store = await openTestStore(server.databaseUrl);
      g = await createGatewayFixture(store, { inverters: INVERTERS, capaKw: 500 });
      await store.db.updateTable("plant").set({ name: LONG_NAME }).where("uid", "=", g.plantUid).execute();
      const boss = await createMember(store, { service: 0 });
      token = (await apiClient(server.baseUrl).session(boss.id, boss.password)).accessToken;
      const readings: unknown[] = [];
      for (let d = 0; d < DAYS; d++) {
        const day = FIRST + d * 86_400_000;
        for (let i = 0; i < 72; i++) {
          const ts = day + 6 * HOUR + i * STEP;
          // The first inverter misses 12:00–12:50 each day: gap rows (▲).
          g.inverters.forEach((inv, k) => {
            if (k === 0 && ts >= day + 12 * HOUR && ts < day + 13 * HOUR) return;
            readings.push({ device: inv, ts, values: { iw: 20_000 + 100 * k } });
          });
          readings.push({ device: g.env, ts, values: { iis: 600, his: 500, sts: 30, ats: 20 } });
          readings.push({ device: g.vcb, ts, values: { v: 22_900, a: 1.5, w: 10_000, pf: 0.98, state: 1, gf_ma: 1 } });
        }
      }
      for (let i = 0; i < readings.length; i += 2000) {
        const res = await postReadings(server.baseUrl, g, readings.slice(i, i + 2000));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    }, 240_000);

    afterAll(async () => {
      await store?.close();
      await server?.stop();
      if (dir && !process.env.STAT_PDF_DIR) rmSync(dir, { recursive: true, force: true });
    });

    it("holds every hourly row of a report of more than 500 rows, one line each with the whole plant name", async () => {
      const json = await pollUntil(
        () => get(`/rpi?${query({ unit: "60" })}`),
        (res) => res.status === 200 && res.body.rowCount >= INVERTERS * 12 * DAYS,
      );
      const rowCount: number = json.body.rowCount;
      expect(rowCount).toBeGreaterThan(500);
      const doc = await pdf({ report: "inverter", detail: "hour" });
      const rows = doc.lines.filter((l) => HOUR_ROW.test(l));
      expect(rows.length).toBe(rowCount);
      expect(doc.text).toContain(`전체 ${rowCount.toLocaleString("en")}행`);
      // Never wrapped: every step row carries the whole name and a whole "kWh".
      for (const l of rows) {
        expect(l).toContain(LONG_NAME);
        expect(l).toMatch(/\d kWh\s|\s–\s/);
      }
      expect(doc.text).toContain("인버터 이력 보고서");
      // One font, the Hangul TrueType embedded as a subset with its ToUnicode map (pdffonts: emb sub uni).
      const fonts = doc.fonts
        .split("\n")
        .filter((l) => /\S/.test(l))
        .slice(2);
      expect(fonts).toHaveLength(1);
      expect(fonts[0]).toMatch(/^[A-Z]{6}\+\S+\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes\b/);
      // Page numbers n / N쪽 on every page, N the PDF's page count.
      expect(doc.pages).toBeGreaterThan(10);
      expect(doc.text).toContain(`1 / ${doc.pages}쪽`);
      expect(doc.text).toContain(`${doc.pages} / ${doc.pages}쪽`);
      // The head row is repeated on each page.
      expect(doc.lines.filter((l) => /^\s*시간\s+발전소/.test(l)).length).toBe(doc.pages - 1 + 1);
      // The gap rows are marked and explained.
      expect(doc.text).toContain("▲");
      expect(doc.text).toContain("▲ 결측");
    });

    it("holds the daily rows at detail day, and no step rows at summary only", async () => {
      const json = await get(`/rpi?${query({ unit: "day" })}`);
      expect(json.status).toBe(200);
      const daily = await pdf({ report: "inverter", detail: "day" });
      expect(daily.lines.filter((l) => DAY_ROW.test(l)).length).toBe(json.body.rowCount);
      expect(daily.lines.filter((l) => HOUR_ROW.test(l)).length).toBe(0);
      expect(daily.text).toContain("일별 자료");

      const summary = await pdf({ report: "inverter", detail: "summary", lang: "en" });
      expect(summary.lines.filter((l) => HOUR_ROW.test(l) || DAY_ROW.test(l)).length).toBe(0);
      expect(summary.text).toContain("Summary");
      expect(summary.text).toContain("Totals per device");
      // Every inverter's totals row, the one formatter's thousands separators.
      for (let k = 1; k <= INVERTERS; k++) expect(summary.text).toMatch(new RegExp(`인버터 ${k}\\s`));
      expect(summary.text).toMatch(/\d,\d{3}\.\d{2} kWh|\d+\.\d{2} MWh/);
      expect(summary.pages).toBe(1);
    });

    it("sets a wide table landscape and a narrow one portrait", async () => {
      const wide = await pdf({ report: "vcb", detail: "hour" });
      expect(wide.size[0]).toBeGreaterThan(wide.size[1]!);
      const narrow = await pdf({ report: "integrated", detail: "day" });
      expect(narrow.size[0]).toBeLessThan(narrow.size[1]!);
    });

    it("refuses an unknown detail with a 400 naming it", async () => {
      const res = await get(`/statistics/export?${query({ report: "inverter", format: "pdf", detail: "minute" })}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain("unknown_detail");
    });
  });
}
