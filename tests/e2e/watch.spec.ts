/**
 * /watch with JavaScript on and off: the group tree and the locality list (alphabetical, 'site unspecified'
 * last), tree search, selection with its operation and warning totals, reset — all in the URL.
 */
import type { Page } from "@playwright/test";
import { expect, shootAll, test } from "./status-fixture";

const tree = (page: Page) => page.locator("nav.wt-nav");
const plantRows = (page: Page) =>
  page.locator(".watch-plants tbody th[scope=row] a").evaluateAll((as) => as.map((a) => a.firstChild?.textContent?.trim() ?? ""));

test.describe("watch screen", () => {
  test.beforeEach(async ({ signIn }) => signIn());

  test("opens on the member's own group with the totals of everything below it", async ({ page, fleet }) => {
    await page.goto("/watch");
    await expect(page.getByRole("heading", { level: 1, name: "그룹 관제" })).toBeVisible();
    await expect(tree(page).getByRole("link", { name: `발전현황 ${fleet.tag}` })).toHaveAttribute("aria-current", "true");
    await expect(tree(page).getByRole("link", { name: "직접 연결된 발전소" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: `발전현황 ${fleet.tag} 및 모든 하위 그룹` })).toBeVisible();
    await expect
      .poll(() => plantRows(page))
      .toEqual([
        "가람 정상 1",
        "나래 정상 2",
        "다온 무발전",
        "라온 무자료",
        "마루 인버터고장",
        "바다 통신장애",
        "사랑 끊김",
        "아라 저발전",
      ]);
    const op = page.getByRole("table", { name: "운영 현황" });
    // 10 inverters and 4 sensors in the eight plants of the node (the first column is the total).
    await expect(
      op
        .getByRole("row", { name: /인버터/ })
        .locator("td")
        .first(),
    ).toHaveText("10");
    await expect(
      op
        .getByRole("row", { name: /환경 센서/ })
        .locator("td")
        .first(),
    ).toHaveText("4");
    await expect(page.getByRole("table", { name: /경보 현황/ })).toBeVisible();

    await tree(page).getByRole("link", { name: "직접 연결된 발전소" }).click();
    await expect(page).toHaveURL(/\/watch\?node=0$/);
    await expect.poll(() => plantRows(page)).toEqual(["차차 연결"]);
  });

  test("lists localities alphabetically with 'site unspecified' last, and selects one", async ({ page }) => {
    await page.goto("/watch");
    await page.getByRole("link", { name: "지역별" }).click();
    await expect(page).toHaveURL(/view=locality/);
    await expect.poll(async () => (await tree(page).locator(".wt-name").allTextContents()).at(-1)).toBe("지역 미지정");
    const names = await tree(page).locator(".wt-name").allTextContents();
    const named = names.slice(0, -1);
    expect(named).toEqual([...named].sort((a, b) => a.localeCompare(b, "ko")));
    await tree(page).getByRole("link", { name: "지역 미지정" }).click();
    await expect(page).toHaveURL(/locality=-/);
    await expect(page.getByRole("heading", { level: 2, name: "지역 미지정의 발전소" })).toBeVisible();
    await expect.poll(() => plantRows(page)).toEqual(["라온 무자료"]);
  });

  test("tree search keeps the matching plants and their path; reset restores group view and an empty keyword", async ({
    page,
    fleet,
  }) => {
    await page.goto("/watch?view=locality");
    await page.getByLabel("트리 검색").fill("가람");
    await page.getByRole("button", { name: "검색" }).click();
    await expect(page).toHaveURL(/view=locality&q=%EA%B0%80%EB%9E%8C/);
    await expect(tree(page).locator(".wt-name")).toHaveText(["전라남도 해남군"]);
    await expect(tree(page).getByRole("link", { name: /가람 정상 1/ })).toHaveAttribute("href", /resources\/detail-window/);

    await page.getByRole("link", { name: "그룹별" }).click();
    await expect(page).toHaveURL(/\/watch\?q=%EA%B0%80%EB%9E%8C$/);
    await expect(tree(page).getByRole("link", { name: `발전현황 ${fleet.tag}` })).toBeVisible();
    await expect(tree(page).getByRole("link", { name: /가람 정상 1/ })).toBeVisible();
    await expect(tree(page).getByRole("link", { name: /나래 정상 2/ })).toHaveCount(0);

    await page.getByRole("link", { name: "초기화" }).click();
    await expect(page).toHaveURL(/\/watch$/);
    await expect(page.getByLabel("트리 검색")).toHaveValue("");
    await expect(page.getByRole("link", { name: "그룹별" })).toHaveAttribute("aria-current", "page");
  });

  test("a bookmarked selection restores its view, and a group out of reach shows no selection", async ({
    page,
    fleet,
    store,
  }) => {
    await page.goto(`/watch?view=locality&locality=${encodeURIComponent("경기도 화성시")}`);
    await expect.poll(() => plantRows(page)).toEqual(["마루 인버터고장"]);
    const other = await store.db
      .selectFrom("plant")
      .select("node_seq")
      .where("uid", "=", fleet.plants.out!.uid)
      .executeTakeFirstOrThrow();
    await page.goto(`/watch?node=${other.node_seq}`);
    await expect(page.getByText("트리에서 그룹이나 지역을 고르세요.")).toBeVisible();
    await expect(page.locator(".watch-main")).not.toContainText("자바 남의것");
  });

  test("screenshots", async ({ page, server }) => {
    test.skip(test.info().project.name !== "js", "taken once, with JavaScript on");
    await shootAll(page, server.baseUrl, "watch", "/watch", async (p) => {
      await expect(p.getByRole("table", { name: "운영 현황" })).toBeVisible();
    });
    await shootAll(
      page,
      server.baseUrl,
      "watch-search",
      `/watch?view=locality&q=${encodeURIComponent("정상")}&locality=${encodeURIComponent("전라남도 해남군")}`,
      async (p) => {
        await expect(p.getByRole("table", { name: "운영 현황" })).toBeVisible();
      },
    );
  });
});
