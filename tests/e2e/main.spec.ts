/**
 * The main dashboard `/` with JavaScript on and off: fleet totals (SPEC §9 units), status counts linking to
 * the filtered plant status screen, recent alarms, and the Monitoring screen (tabs, keyword, sort — all in
 * the URL, so a bookmark restores the view).
 */
import type { Page } from "@playwright/test";
import { expect, shootAll, test } from "./status-fixture";

const monitoring = (page: Page) => page.locator("section#monitoring");
const rowNames = (page: Page) =>
  monitoring(page)
    .locator("tbody th[scope=row] a")
    .evaluateAll((as) => as.map((a) => a.firstChild?.textContent?.trim() ?? ""));
const ASC = [
  "가람 정상 1",
  "나래 정상 2",
  "다온 무발전",
  "라온 무자료",
  "마루 인버터고장",
  "바다 통신장애",
  "사랑 끊김",
  "아라 저발전",
  "차차 연결",
];

test.describe("main dashboard", () => {
  test.beforeEach(async ({ signIn }) => signIn());

  test("shows the fleet totals with their units and the status counts as filtered links", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "종합 현황" })).toBeVisible();
    const totals = page.locator(".totals-panel");
    // 100 + 200 + 50 + 30 + 100 × 4 + 40 kW of the nine plants the member sees.
    await expect(totals.locator(".kpi").filter({ hasText: "설비 용량" })).toContainText("820.00 kW");
    await expect(totals).toContainText("발전소 9곳");
    for (const label of ["현재 출력", "금일 발전량", "전일 발전량", "금월 발전량", "금년 발전량", "누적 발전량"]) {
      await expect(totals.locator(".kpi").filter({ hasText: label })).toContainText(/\d+\.\d\d (kW|MW|GW|kWh|MWh|GWh)/);
    }
    const counts = page.locator(".count-list");
    await expect(counts.getByRole("link", { name: /정상\s*2/ })).toHaveAttribute(
      "href",
      /\/pvstatus\?hide=warning,warning_1000001,warning_1000003,warning_1000004,warning_1000006,notWork$/,
    );
    await expect(counts.getByRole("link", { name: /경고 전체\s*4/ })).toBeVisible();
    await expect(counts.getByRole("link", { name: /미작동\s*3/ })).toBeVisible();
    await counts.getByRole("link", { name: /인버터 고장\s*1/ }).click();
    await expect(page).toHaveURL(/\/pvstatus\?hide=normal,warning_1000001,warning_1000003,warning_1000004,notWork$/);
  });

  test("lists recent alarms, newest first, with plant links that open the detail window", async ({ page }) => {
    await page.goto("/");
    const table = page.locator(".alarm-table");
    await expect(table.locator("tbody tr").first()).toBeVisible();
    await expect(table).toContainText("사랑 끊김");
    await expect(table).toContainText("인터넷 연결 끊김");
    await expect(table).toContainText("인버터 고장");
    const link = table.getByRole("link", { name: /사랑 끊김/ }).first();
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("href", /^\/resources\/detail-window\?kind=plant&uid=/);
    const times = await table.locator("tbody time").evaluateAll((ts) => ts.map((t) => t.getAttribute("datetime")!));
    expect([...times].sort().reverse()).toEqual(times);
    await expect(page.locator(".alarms-panel")).toContainText("11분마다 새로 고침");
    // Refresh now: with JS only the list reloads (a fetcher); without JS the page comes back.
    await page.getByRole("button", { name: "지금 새로 고침" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator(".alarm-table")).toContainText("사랑 끊김");
    // The silent gateway's alarm names its RTU, not the whole plant.
    const rtuRow = page.locator(".alarm-table tbody tr").filter({ hasText: "사랑 끊김" }).filter({ hasText: "인터넷 연결 끊김" });
    await expect(rtuRow.first()).toContainText(/RTU \w+/);
  });

  test("monitoring: default gen tab by plant name ascending; sort, search and tabs go into the URL", async ({ page }) => {
    await page.goto("/");
    await expect(monitoring(page).getByRole("link", { name: "발전", exact: true })).toHaveAttribute("aria-current", "page");
    await expect.poll(() => rowNames(page)).toEqual(ASC);

    await monitoring(page)
      .getByRole("columnheader", { name: /발전소/ })
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(/[?&]order=desc/);
    await expect.poll(() => rowNames(page)).toEqual([...ASC].reverse());
    await expect(monitoring(page).getByRole("columnheader", { name: /발전소/ })).toHaveAttribute("aria-sort", "descending");

    await page.getByLabel("발전소 검색").fill("정상");
    await page.getByLabel("정렬 기준").selectOption("name");
    await page.getByLabel("순서").selectOption("asc");
    await monitoring(page).getByRole("button", { name: "적용" }).click();
    await expect(page).toHaveURL(/[?&]q=%EC%A0%95%EC%83%81/);
    await expect.poll(() => rowNames(page)).toEqual(["가람 정상 1", "나래 정상 2"]);

    await page.getByLabel("정렬 기준").selectOption("time");
    await page.getByLabel("순서").selectOption("desc");
    await monitoring(page).getByRole("button", { name: "적용" }).click();
    await expect(page).toHaveURL(/sort=time/);
    await expect(monitoring(page).getByRole("columnheader", { name: /현재 시각/ })).toHaveAttribute("aria-sort", "descending");

    await monitoring(page).getByRole("link", { name: "계통", exact: true }).click();
    await expect(page).toHaveURL(/tab=grid/);
    await expect(monitoring(page).getByRole("link", { name: "계통", exact: true })).toHaveAttribute("aria-current", "page");
    // The fixture fleet has no boards or breakers: the API answers 204 and the screen says so.
    await expect(monitoring(page)).toContainText("조건에 맞는 발전소가 없습니다.");

    await monitoring(page).getByRole("link", { name: "초기화" }).click();
    await expect(page).toHaveURL(/\/\?tab=grid#monitoring$|\/\?tab=grid$/);
  });

  test("a bookmarked monitoring URL restores its view", async ({ page }) => {
    await page.goto(`/?q=${encodeURIComponent("무")}&sort=name&order=desc#monitoring`);
    await expect(page.getByLabel("발전소 검색")).toHaveValue("무");
    await expect(page.getByLabel("순서")).toHaveValue("desc");
    await expect.poll(() => rowNames(page)).toEqual(["라온 무자료", "다온 무발전"]);
    await expect(monitoring(page)).toContainText("발전소 2곳");
  });

  test("screenshots", async ({ page, server }) => {
    test.skip(test.info().project.name !== "js", "taken once, with JavaScript on");
    await shootAll(page, server.baseUrl, "main", "/", async (p) => {
      await expect(p.locator(".totals-panel .kpi").first()).toBeVisible();
    });
  });
});
