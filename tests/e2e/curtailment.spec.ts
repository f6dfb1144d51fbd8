/**
 * Curtailment orders (issue 28 §3) with JavaScript on and off: added on the plant's settings screen (field errors for
 * an end before its start and a % above 100), seen on /diagnose (the curtailment figures, the order's band on the
 * chart with its legend), edited, imported from CSV (a bad line writes nothing) and deleted.
 * A plant of its own per test: two 50 kW inverters for three hours at 800 W/m² and 25 °C delivering 35 kW each, held at
 * 25 kW each in the second hour.
 */
import type { Page } from "@playwright/test";
import { formatSeoul } from "../../domain/seoul-time";
import { createGatewayFixture, postReadings } from "../helpers/telemetry";
import { ADMIN_PASSWORD } from "../helpers/server";
import { expect, test } from "./fixtures";

const HOUR = 3_600_000;
const local = (t: number) => formatSeoul(t, "YYYY-MM-DD HH:mm").replace(" ", "T");
const wall = (t: number) => formatSeoul(t, "YYYY-MM-DD HH:mm");

async function submit(page: Page, scope: ReturnType<Page["locator"]>, name: string) {
  await scope.getByRole("button", { name, exact: true }).click();
  await page.waitForLoadState("load");
}

test("an order added on the plant's settings screen is seen on /diagnose; edited, imported and deleted", async ({
  page,
  store,
  loginByCookie,
}, info) => {
  test.slow();
  const g = await createGatewayFixture(store, { inverters: 2, capaKw: 100 });
  const now = Date.now();
  const to = now - (now % HOUR);
  const from = to - 3 * HOUR;
  const readings: unknown[] = [];
  for (let i = 0; i < 18; i++) {
    const ts = from + i * 600_000;
    const held = i >= 6 && i < 12;
    for (const [n, dev] of g.inverters.entries())
      readings.push({ device: dev, ts, values: { iw: held ? 25_000 : 35_000, total_wh: (n + 1) * 1e6 + 6_000 * (i + 1) } });
    readings.push({ device: g.env, ts, values: { iis: 800, his: 600, sts: 25, ats: 20 } });
  }
  expect((await postReadings(process.env.E2E_BASE_URL!, g, readings)).status).toBe(200);
  await loginByCookie("admin", ADMIN_PASSWORD);

  const settings = `/setting/plant/${g.plantUid}`;
  await page.goto(settings);
  if (info.project.name === "js") await page.waitForFunction(() => "__remixRouter" in window);
  const section = page.getByRole("region", { name: "출력 제어·출력 제한 지시" });
  await expect(section.getByText("등록된 지시가 없습니다.")).toBeVisible();
  const add = section.getByRole("form", { name: "지시 추가" });
  await add.getByLabel("시작 (서울 시각)").fill(local(from + HOUR));
  await add.getByLabel("끝 (서울 시각)").fill(local(from));
  await add.getByLabel("제한 값").fill("120");
  await add.getByLabel("단위").selectOption("pct");
  await submit(page, add, "추가");
  await expect(add.getByText("끝이 시작보다 뒤여야 합니다.")).toBeVisible();
  await expect(add.getByText("100 %를 넘을 수 없습니다.")).toBeVisible();
  await add.getByLabel("끝 (서울 시각)").fill(local(from + 2 * HOUR));
  await add.getByLabel("제한 값").fill("50");
  await add.getByLabel("메모").fill("KPX 출력 제어");
  await submit(page, add, "추가");
  const table = section.getByRole("table", { name: "출력 제어 지시 목록" });
  await expect(table).toContainText(wall(from + HOUR));
  await expect(table).toContainText("50.0 % (50.0 kW)");
  await expect(table).toContainText("전력거래소 (KPX)");

  // The diagnosis: the order's hour is curtailment. Expected 100 kW × 0.8 × 0.87 = 69.6 kWh, delivered 50: 19.6 lost.
  await page.goto(
    `/diagnose?tab=performance&plant=${g.plantUid}&start=${encodeURIComponent(wall(from))}&end=${encodeURIComponent(wall(to))}&unit=10`,
  );
  const panel = page.getByRole("region", { name: "출력 제한" });
  await expect(panel.locator('[data-figure="curtailment-orders"]')).toHaveText("1");
  await expect(panel.locator('[data-figure="curtailment-lost"]')).toHaveText("19.6 kWh");
  await expect(panel.getByRole("table")).toContainText("KPX 출력 제어");
  await expect(page.locator("svg.time-chart rect.band")).toHaveCount(1);
  await expect(page.locator('.chart-legend [data-legend="band"]')).toHaveText("출력 제한 구간 (빗금)");

  // Edit through the row's link (a plain GET: no script needed), then a CSV with a bad line writes nothing.
  await page.goto(settings);
  await section.getByRole("link", { name: `수정: ${wall(from + HOUR)}` }).click();
  const edit = section.getByRole("form", { name: /지시 수정/ });
  await edit.getByLabel("제한 값").fill("40");
  await edit.getByLabel("단위").selectOption("kw");
  await submit(page, edit, "수정 저장");
  await expect(table).toContainText("40.0 kW");
  const imp = section.getByRole("form", { name: "CSV로 여러 건 가져오기" });
  const day = formatSeoul(from - 2 * 86_400_000, "YYYY-MM-DD");
  await imp
    .getByLabel("CSV 내용")
    .fill(`start,end,limit,unit,source,note\n${day} 10:00,${day} 11:00,30,kw,owner,\n${day} 12:00,${day} 11:00,30,kw,owner,`);
  await submit(page, imp, "가져오기");
  await expect(imp.getByRole("alert")).toContainText("3번째 줄 · 끝 (서울 시각): 끝이 시작보다 뒤여야 합니다.");
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await section.getByRole("button", { name: `삭제: ${wall(from + HOUR)}` }).click();
  await page.waitForLoadState("load");
  await expect(section.getByText("등록된 지시가 없습니다.")).toBeVisible();
});
