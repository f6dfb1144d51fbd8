/**
 * /statistics with JavaScript on and off: each report from a bookmarked URL, the controls (a GET form and
 * links), a refused period, the print layout (print media screenshot), the exports (CSV read back; the PDF
 * from its form, its text read with pdftotext — every row the screen counts — and its first page turned into PNG
 * with pdftoppm), and
 * screenshots at desktop and phone width in both themes. Readings go through the real POST /api/ingest.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import { createGatewayFixture, postReadings, type GatewayFixture } from "../helpers/telemetry";
import { ADMIN_PASSWORD, REPO_ROOT } from "../helpers/server";
import { expect, test } from "./fixtures";
import { createMember, type MemberFixture } from "../helpers/fixtures";

const SCREENS = path.join(REPO_ROOT, "tests/.artifacts/screens");
const DAY = seoulDayStart(Date.now()) - 86_400_000;
const DATE = formatSeoul(DAY, "YYYY-MM-DD");

let g: GatewayFixture;
let who: MemberFixture;
let plantName: string;
/** The group node of the member `who`. */
let groupNode: number;

test.beforeAll(async ({ store }) => {
  const baseUrl = process.env.E2E_BASE_URL!;
  const now = Date.now();
  const root = await store.db
    .selectFrom("node")
    .select("seq")
    .where("parent_seq", "is", null)
    .orderBy("seq")
    .executeTakeFirstOrThrow();
  const node = Number(
    (
      await store.db
        .insertInto("node")
        .values({ parent_seq: root.seq, name: `통계 그룹 ${now % 100000}`, sort_order: 0, created_at: now })
        .returning("seq")
        .executeTakeFirstOrThrow()
    ).seq,
  );
  groupNode = node;
  g = await createGatewayFixture(store, { inverters: 2, capaKw: 100, nodeSeq: node });
  plantName = (await store.db.selectFrom("plant").select("name").where("uid", "=", g.plantUid).executeTakeFirstOrThrow()).name;
  who = await createMember(store, { node_seq: node });
  const readings: unknown[] = [];
  for (let i = 0; i < 144; i++) {
    const ts = DAY + i * 600_000;
    const h = i / 6;
    const sun = Math.max(0, Math.sin(((h - 6) / 12) * Math.PI));
    // 13:00–13:50 the inverters are silent: a gap in the report.
    if (h >= 6 && h < 18 && !(h >= 13 && h < 14))
      for (const inv of g.inverters) readings.push({ device: inv, ts, values: { iw: Math.round(45_000 * sun) } });
    readings.push({
      device: g.env,
      ts,
      values: { iis: Math.round(900 * sun), his: Math.round(750 * sun), sts: 15 + 20 * sun, ats: 10 + 5 * sun },
    });
    const state = h >= 10 && h < 11 ? 0 : 1;
    readings.push({
      device: g.vcb,
      ts,
      values: { v: 22_900, a: 2 * sun * state, w: 90_000 * sun * state, pf: 0.98, state, gf_ma: 1 },
    });
    readings.push({ device: g.acb, ts, values: { v: 380, a: 130 * sun, w: 85_000 * sun, pf: 0.97, state: 1, gf_ma: 0 } });
  }
  for (let i = 0; i < readings.length; i += 2000) {
    const res = await postReadings(baseUrl, g, readings.slice(i, i + 2000));
    if (res.status !== 200) throw new Error(`ingest ${res.status} ${JSON.stringify(res.body)}`);
  }
});

const bookmark = (report: string, extra = "") =>
  `/statistics?report=${report}&plant=${g.plantUid}&period=day&date=${DATE}${extra}`;

test.describe("the seeded admin", () => {
  test("sees CO₂ and revenue on /statistics?period=month (bits 7 and 8 hide them; issue 26)", async ({ page, loginByCookie }) => {
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto(`/statistics?plant=${g.plantUid}&period=month&date=${DATE}`);
    const summary = page.locator(".stat-summary");
    await expect(summary.getByText("CO₂ 저감")).toBeVisible();
    await expect(summary.getByText("REC·SMP 수익")).toBeVisible();
  });
});

test.describe("statistics screen", () => {
  test.beforeEach(async ({ loginByCookie }) => {
    // Several pages per test on a shared, loaded machine: room for slowness, never a timing assertion.
    test.setTimeout(180_000);
    await loginByCookie(who.id, who.password);
  });

  test("renders every report from a bookmarked URL", async ({ page }) => {
    const expected: Array<[string, string, RegExp]> = [
      ["integrated", "통합 보고서", new RegExp(plantName)],
      ["inverter", "인버터 이력 보고서", /인버터 2/],
      ["env", "환경 센서 보고서", /기상/],
      ["vcb", "VCB 보고서", /VCB/],
      ["acb", "ACB 보고서", /ACB/],
    ];
    for (const [report, title, row] of expected) {
      await page.goto(bookmark(report, "&unit=60"));
      await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
      await expect(page.locator(".report-scope")).toHaveText(plantName);
      await expect(page.getByRole("link", { name: title })).toHaveAttribute("aria-current", "page");
      const steps = page.getByRole("table", { name: `${title} — 시간별 자료` });
      await expect(steps).toContainText(row);
      await expect(page.getByRole("table", { name: "장치별 합계" })).toContainText(row);
      await expect(page.locator(".stat-chart")).toBeVisible();
      await expect(page.getByText("데이터 완전성").first()).toBeVisible();
    }
    // The generation report marks the silent hour as a gap, in the table and in the chart.
    await page.goto(bookmark("inverter", "&unit=60"));
    // (The device totals table marks each inverter short of 100 % too; the hour is in the steps table.)
    const silentHour = page.getByRole("table", { name: "인버터 이력 보고서 — 시간별 자료" }).locator("tr.gap").first();
    await expect(silentHour).toContainText("13:00");
    await expect(silentHour).toContainText("결측");
    await expect(page.locator(".stat-chart .gap-mark").first()).toBeAttached();
    await expect(page.locator(".completeness")).toContainText("결측이 있는 보고서입니다");
  });

  test("the controls change the report through the URL", async ({ page }) => {
    await page.goto(bookmark("integrated"));
    await page.getByLabel("단위").selectOption("60");
    await page.getByRole("button", { name: "조회" }).click();
    await expect(page).toHaveURL(/unit=60/);
    await expect(page).toHaveURL(new RegExp(`plant=${g.plantUid}`));
    await expect(page.locator(".report-meta").first()).toContainText("단위 1시간");
    await page.getByRole("link", { name: "◀ 이전" }).click();
    await expect(page).toHaveURL(new RegExp(`date=${formatSeoul(DAY - 86_400_000, "YYYY-MM-DD")}`));
    await page.getByRole("link", { name: "인버터 이력 보고서" }).click();
    await expect(page).toHaveURL(/report=inverter/);
    await expect(page).toHaveURL(/unit=60/);
    // A period too long for the unit is refused with a message, not an error page.
    await page.goto(`/statistics?plant=${g.plantUid}&period=year&date=${DATE}&unit=10`);
    await expect(page.getByRole("alert")).toContainText("이 단위로는 기간이 너무 깁니다");
    await page.goto(`/statistics?plant=${g.plantUid}&period=custom&start=${DATE}&end=2020-01-01`);
    await expect(page.getByRole("alert")).toContainText("종료일이 시작일보다 빠릅니다");
  });

  test("a foreign plant answers 404", async ({ page, store }) => {
    const other = await createGatewayFixture(store, { inverters: 1 });
    const res = await page.goto(`/statistics?plant=${other.plantUid}`);
    expect(res?.status()).toBe(404);
  });

  test("subscribes to the report by mail and unsubscribes again", async ({ page }) => {
    await page.goto(bookmark("inverter"));
    const section = page.getByRole("region", { name: /정기 보고서 메일|Scheduled report mail/ });
    await expect(section.getByText(/구독한 정기 보고서가 없습니다|No scheduled reports/)).toBeVisible();
    await section.getByLabel(/^(주기|Every)$/).selectOption("weekly");
    await section.getByLabel(/^(받는 주소|Send to)$/).fill("ops@plant.test");
    await section.getByRole("button", { name: /^(구독|Subscribe)$/ }).click();
    await expect(page.getByText(/정기 보고서를 구독했습니다|Subscribed to the scheduled report/)).toBeVisible();
    // Back on the same report, with the subscription listed.
    await expect(page).toHaveURL(/report=inverter/);
    const row = section.getByRole("row").filter({ hasText: "ops@plant.test" });
    await expect(row).toContainText(plantName);
    await expect(row).toContainText(/매주|week/);
    await expect(row).toContainText(/인버터|Inverter/);
    if (test.info().project.name === "js") {
      for (const theme of ["default", "dark"] as const) {
        await page.context().addCookies([{ name: "onThemeValue", value: theme, url: new URL(page.url()).origin }]);
        for (const size of [
          { n: "desktop", w: 1280, h: 900 },
          { n: "phone", w: 390, h: 844 },
        ]) {
          await page.setViewportSize({ width: size.w, height: size.h });
          await page.reload();
          await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
          await section.screenshot({
            path: path.join(SCREENS, `statistics-subscriptions-${size.n}-${theme}.png`),
            timeout: 60_000,
          });
        }
      }
    }
    await row.getByRole("button", { name: /구독 해지|Unsubscribe/ }).click();
    await expect(page.getByText(/구독을 해지했습니다|Unsubscribed\./)).toBeVisible();
    await expect(section.getByText(/구독한 정기 보고서가 없습니다|No scheduled reports/)).toBeVisible();
  });

  test("exports the CSV the page shows", async ({ page }) => {
    await page.goto(bookmark("inverter", "&unit=60"));
    const href = await page.getByRole("link", { name: "CSV 내려받기" }).getAttribute("href");
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    const text = (await res.body()).toString("utf8");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text).toContain("인버터 1");
    expect(text).toContain(plantName);
  });

  test("prints as a clean A4 document and as a PDF", async ({ page }, info) => {
    test.skip(info.project.name !== "js", "one browser renders the printed page and the PDF");
    mkdirSync(SCREENS, { recursive: true });
    await page.goto(bookmark("integrated", "&unit=60"));
    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".sidenav")).toBeHidden();
    await expect(page.locator(".stat-filters")).toBeHidden();
    await expect(page.locator(".report-head")).toContainText(plantName);
    await page.screenshot({ path: path.join(SCREENS, "statistics-print.png"), fullPage: true, timeout: 60_000 });
    await page.emulateMedia({ media: "screen" });

    // The PDF form: the detail picked (hourly, as the screen's unit) and the report's search, a plain GET.
    await expect(page.getByLabel("PDF 내용")).toHaveValue("hour");
    const download = page.waitForEvent("download", { timeout: 90_000 });
    await page.getByRole("button", { name: "PDF 내려받기" }).click();
    const file = path.join(SCREENS, "statistics.pdf");
    await (await download).saveAs(file);
    const text = execFileSync("pdftotext", ["-layout", file, "-"]).toString();
    expect(text).toContain(plantName);
    expect(text).toContain("통합 보고서");
    expect(text).toContain("시간별 자료");
    execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "2", file, path.join(SCREENS, "statistics-pdf")]);
  });

  test("the PDF holds every row the screen counts, past 500, at the detail picked in its form", async ({ page, store }, info) => {
    // Issue 26: the print-view PDF stopped at "1–500행 / 전체 893행". Eight inverters of a plant of the member's group
    // over six days: 8 × 12 hours × 6 = 576 hourly rows.
    const big = await createGatewayFixture(store, { inverters: 8, capaKw: 400, nodeSeq: groupNode });
    const first = DAY - 5 * 86_400_000;
    const readings: unknown[] = [];
    for (let d = 0; d < 6; d++)
      for (let i = 36; i < 108; i++)
        for (const inv of big.inverters)
          readings.push({ device: inv, ts: first + d * 86_400_000 + i * 600_000, values: { iw: 30_000 } });
    for (let i = 0; i < readings.length; i += 2000) {
      const res = await postReadings(process.env.E2E_BASE_URL!, big, readings.slice(i, i + 2000));
      expect(res.status).toBe(200);
    }
    const url = `/statistics?report=inverter&plant=${big.plantUid}&period=custom&start=${formatSeoul(first, "YYYY-MM-DD")}&end=${DATE}&unit=60`;
    await page.goto(url);
    const counted = page.getByText(/전체 [\d,]+행/);
    await expect(counted).toBeVisible();
    const total = Number(/전체 ([\d,]+)행/.exec((await counted.textContent())!)![1]!.replace(/,/g, ""));
    expect(total).toBeGreaterThan(500);
    for (const [detail, label, row] of [
      ["hour", "시간별", /^\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s/],
      ["summary", "요약만", /^\s*\d{4}-\d{2}-\d{2}(\s\d{2}:\d{2})?\s{2,}/],
    ] as const) {
      await page.getByLabel("PDF 내용").selectOption({ label });
      const download = page.waitForEvent("download", { timeout: 120_000 });
      await page.getByRole("button", { name: "PDF 내려받기" }).click();
      const file = path.join(SCREENS, `statistics-${detail}-${info.project.name}.pdf`);
      await (await download).saveAs(file);
      const lines = execFileSync("pdftotext", ["-layout", file, "-"], { maxBuffer: 64 << 20 })
        .toString()
        .split("\n");
      expect(lines.filter((l) => row.test(l)).length, `${detail}: step rows`).toBe(detail === "hour" ? total : 0);
    }
  });

  test("screenshots at desktop and phone width in both themes", async ({ page, server }, info) => {
    test.skip(info.project.name !== "js", "screenshots once");
    mkdirSync(SCREENS, { recursive: true });
    for (const theme of ["default", "dark"] as const) {
      await page.context().addCookies([{ name: "onThemeValue", value: theme, url: server.baseUrl }]);
      for (const size of [
        { n: "desktop", w: 1280, h: 800 },
        { n: "phone", w: 390, h: 844 },
      ]) {
        await page.setViewportSize({ width: size.w, height: size.h });
        await page.goto(bookmark("inverter", "&unit=60"));
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await shoot(page, `statistics-${size.n}-${theme}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect.soft(overflow, `${size.n} overflows sideways by ${overflow}px`).toBeLessThanOrEqual(0);
      }
    }
  });
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true, timeout: 60_000 });
}
