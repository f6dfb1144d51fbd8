/**
 * API tokens in Chromium, with JavaScript on and off (issue 27 point 6): a member reaches /modify/token from /modify,
 * a bad form comes back with field errors, a created token's secret is shown once and works on the /api, revoking it
 * stops it at once; an administrator sees the member's tokens on the member's page and revokes one there.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function noPopup(page: Page, baseURL: string) {
  await page.context().addCookies([{ name: "onWeekCloseModal", value: "Y", url: baseURL }]);
}

async function callWith(baseURL: string, secret: string): Promise<number> {
  const res = await fetch(`${baseURL}/api/plant`, { headers: { authorization: `Bearer ${secret}` } });
  return res.status;
}

test.describe("API tokens (/modify/token)", () => {
  test.beforeEach(async ({ page, baseURL }) => noPopup(page, baseURL!));

  test("creates a token shown once, which works until it is revoked", async ({ page, member, loginByCookie, baseURL }) => {
    const me = await member({ auth: 1 });
    await loginByCookie(me.id, me.password);
    await page.goto("/modify");
    await page.getByRole("link", { name: "API 토큰 관리" }).click();
    await expect(page).toHaveURL(/\/modify\/token$/);
    await expect(page.getByRole("heading", { level: 1, name: "API 토큰" })).toBeVisible();
    await expect(page.getByText("만든 토큰이 없습니다.")).toBeVisible();

    // A bad form: the field errors, nothing made.
    await page.getByLabel("분당 호출 한도").fill("0");
    await page.getByRole("button", { name: "토큰 만들기" }).click();
    await expect(page.getByText("필수 항목입니다.")).toBeVisible();
    await expect(page.getByText("허용 범위를 벗어났습니다.")).toBeVisible();

    await page.getByLabel("이름").fill("관제 시스템");
    await page.getByLabel("분당 호출 한도").fill("30");
    await page.getByLabel("읽기 + 명령").check();
    await page.getByRole("button", { name: "토큰 만들기" }).click();
    await expect(page.getByRole("heading", { name: "토큰을 만들었습니다" })).toBeVisible();
    const secret = await page.getByLabel(/^토큰 · 관제 시스템/).inputValue();
    expect(secret).toMatch(/^spt_/);
    const row = page.getByRole("row", { name: /관제 시스템/ });
    await expect(row).toContainText("읽기 + 명령");
    await expect(row).toContainText("분당 30회");
    await expect(row).toContainText("✓ 사용 중");
    await expect(row).toContainText("사용 전");

    expect(await callWith(baseURL!, secret)).toBe(200);
    // The secret is not shown again.
    await page.goto("/modify/token");
    await expect(page.getByRole("heading", { name: "토큰을 만들었습니다" })).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await expect(page.getByRole("row", { name: /관제 시스템/ })).not.toContainText("사용 전");

    await page.getByRole("button", { name: "관제 시스템 토큰 폐기" }).click();
    await expect(page.getByText("토큰을 폐기했습니다.")).toBeVisible();
    await expect(page.getByRole("row", { name: /관제 시스템/ })).toContainText("✕ 폐기됨");
    await expect(page.getByRole("button", { name: "관제 시스템 토큰 폐기" })).toHaveCount(0);
    expect(await callWith(baseURL!, secret)).toBe(401);
  });

  test("an administrator sees a member's tokens and revokes one", async ({ page, member, loginByCookie, baseURL }) => {
    const owner = await member({ auth: 1 });
    await loginByCookie(owner.id, owner.password);
    await page.goto("/modify/token");
    await page.getByLabel("이름").fill("정산 연동");
    await page.getByRole("button", { name: "토큰 만들기" }).click();
    const secret = await page.getByLabel(/^토큰 · 정산 연동/).inputValue();

    // Signed in as the administrator instead (the session cookies are replaced).
    const admin = await member({ auth: 10 });
    await loginByCookie(admin.id, admin.password);
    await page.goto(`/setting/id/edit/${owner.id}`);
    const section = page.getByRole("region", { name: "이 회원의 API 토큰" });
    await expect(section.getByRole("row", { name: /정산 연동/ })).toContainText("읽기 전용");
    await section.getByRole("button", { name: "정산 연동 토큰 폐기" }).click();
    await expect(page.getByText("토큰을 폐기했습니다.")).toBeVisible();
    await expect(page.getByRole("region", { name: "이 회원의 API 토큰" }).getByRole("row", { name: /정산 연동/ })).toContainText(
      "✕ 폐기됨",
    );
    expect(await callWith(baseURL!, secret)).toBe(401);
  });
});
