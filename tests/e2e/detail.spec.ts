/**
 * The detail window (SPEC §1, §2 Detail window, §6 last two rules) with JavaScript on and off: a plant link
 * opens a new window on the sibling host detail.localhost (the main window runs on 127.0.0.1 or localhost);
 * the handover stores the three session cookies there (and, with JS, session storage `detail_token`) and
 * lands on the root, which shows that plant only. A refused handover (204) shows the Korean alert and
 * closes the window; without JS a page says so. The detail host serves nothing else.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, SCREENS, test } from "./status-fixture";

const FAILED = "오류가 발생했습니다. 관리자에게 문의하세요.";
const detailOrigin = (baseUrl: string) => `http://detail.localhost:${new URL(baseUrl).port}`;

async function openFromWatch(page: Page, context: BrowserContext, plantName: string): Promise<Page> {
  await page.goto("/watch");
  const link = page.locator(".watch-main").getByRole("link", { name: new RegExp(plantName) });
  await expect(link).toHaveAttribute("target", "_blank");
  const [popup] = await Promise.all([context.waitForEvent("page"), link.click()]);
  await popup.waitForLoadState();
  return popup;
}

test.describe("detail window", () => {
  test.beforeEach(async ({ signIn }) => signIn());

  test("a plant opens on the detail host with the session handed over, showing that plant only", async ({
    page,
    context,
    fleet,
    server,
  }) => {
    const origin = detailOrigin(server.baseUrl);
    const popup = await openFromWatch(page, context, "가람 정상 1");
    await expect(popup).toHaveURL(`${origin}/`);
    await expect(popup.getByRole("heading", { level: 1, name: "가람 정상 1" })).toBeVisible();
    await expect(popup.getByText("이 창에서는 이 항목만 볼 수 있습니다.")).toBeVisible();
    await expect(popup.getByRole("navigation")).toHaveCount(0);
    await expect(popup.getByRole("table", { name: "장비 목록" }).locator("tbody tr")).toHaveCount(3);

    const jar = await context.cookies(origin);
    for (const name of ["accessToken", "refreshToken", "sessionId"]) {
      expect(
        jar.find((c) => c.name === name && c.domain === "detail.localhost"),
        name,
      ).toBeTruthy();
    }
    // The main window's own session is untouched.
    const main = await context.cookies(server.baseUrl);
    expect(main.find((c) => c.name === "sessionId")?.value).not.toBe(jar.find((c) => c.name === "sessionId")?.value);

    if (test.info().project.name === "js") {
      const stored = await popup.waitForFunction(() => sessionStorage.getItem("detail_token")).then((h) => h.jsonValue());
      const copy = JSON.parse(stored as string) as { accessToken: string; sessionId: string };
      expect(copy.sessionId).toBe(jar.find((c) => c.name === "sessionId")?.value);
      // The detail host's own API calls carry the bearer token from session storage; only its plant answers.
      const calls = await popup.evaluate(async () => {
        const { accessToken } = JSON.parse(sessionStorage.getItem("detail_token")!);
        const call = async (p: string) => (await fetch(p, { headers: { authorization: `Bearer ${accessToken}` } })).status;
        return {
          view: await call("/api/member/detail/view"),
          monitor: await call("/api/monitor/gen"),
          alarms: await call("/api/alarm/recent"),
        };
      });
      expect(calls).toEqual({ view: 200, monitor: 403, alarms: 403 });
    }

    // Nothing else is served on the detail host (the login page sends a signed-in window back to its root).
    for (const p of ["/watch", "/pvstatus", "/setting", "/alarm", "/notice"]) {
      const res = await popup.goto(`${origin}${p}`);
      expect(res?.status(), p).toBe(403);
    }
    await popup.goto(`${origin}/login`);
    expect(popup.url()).toBe(`${origin}/`);
    await expect(popup.getByRole("heading", { level: 1, name: "가람 정상 1" })).toBeVisible();
    expect(fleet.plants.n1!.uid).toBeTruthy();
  });

  test("a member's own detail opens the same way and shows the profile only", async ({ page, context, fleet, server }) => {
    await page.goto("/");
    const link = page.getByRole("link", { name: /내 정보 상세/ });
    await expect(link).toHaveAttribute("href", new RegExp(`kind=member&uid=${fleet.member.id}`));
    const [popup] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await popup.waitForLoadState();
    await expect(popup).toHaveURL(`${detailOrigin(server.baseUrl)}/`);
    await expect(popup.getByText("회원 상세")).toBeVisible();
    await expect(popup.locator("dl.detail-facts")).toContainText(fleet.member.id);
    await expect(popup.getByRole("heading", { level: 2, name: "연결된 발전소" })).toBeVisible();
    await expect(popup.getByText("차차 연결")).toBeVisible();
  });

  test("the detail window follows the main window's theme", async ({ page, context, server }) => {
    await context.addCookies([{ name: "onThemeValue", value: "dark", url: server.baseUrl }]);
    const popup = await openFromWatch(page, context, "나래 정상 2");
    await expect(popup.getByRole("heading", { level: 1, name: "나래 정상 2" })).toBeVisible();
    await expect(popup.locator("html")).toHaveAttribute("data-theme", "dark");
  });

  test("a refused handover (204) shows the Korean alert and closes the window", async ({ page, context, fleet, server }) => {
    // A plant of another group: the API answers 204, so the window arrives without a code.
    await page.goto("/");
    const href = `/resources/detail-window?kind=plant&uid=${fleet.plants.out!.uid}&name=${encodeURIComponent("자바 남의것")}`;
    if (test.info().project.name === "js") {
      const popupPromise = context.waitForEvent("page");
      await page.evaluate((h) => void window.open(h, "detail_refused", "popup"), href);
      const popup = await popupPromise;
      const dialog = await popup.waitForEvent("dialog");
      expect(dialog.message()).toBe(FAILED);
      await Promise.all([popup.waitForEvent("close"), dialog.accept()]);
      expect(popup.isClosed()).toBe(true);
    } else {
      const res = await page.goto(href);
      expect(new URL(page.url()).host).toBe(`detail.localhost:${new URL(server.baseUrl).port}`);
      expect(res?.status()).toBe(403);
      await expect(page.getByRole("alert")).toHaveText(FAILED);
      await expect(page.getByText("이 창을 닫으세요.")).toBeVisible();
      const jar = await context.cookies(detailOrigin(server.baseUrl));
      expect(jar.find((c) => c.name === "accessToken")).toBeUndefined();
    }
  });

  test("a handover code works once and a forged one is refused", async ({ page, context, server }) => {
    const origin = detailOrigin(server.baseUrl);
    const res = await page.goto(`${origin}/setNewToken/newPlantWindow/?name=x&uid=PVNOPE&theme=default&code=${"a".repeat(32)}`);
    expect(res?.status()).toBe(403);
    if (test.info().project.name === "nojs") await expect(page.getByRole("alert")).toHaveText(FAILED);
    expect((await context.cookies(origin)).find((c) => c.name === "accessToken")).toBeUndefined();
    // The root of the detail host without a session says so instead of sending anyone to a login.
    const root = await page.goto(`${origin}/`);
    expect(root?.status()).toBe(401);
    await expect(page.getByText("상세 창의 세션이 끝났습니다.", { exact: false })).toBeVisible();
  });

  test("screenshots", async ({ page, context, server }) => {
    test.skip(test.info().project.name !== "js", "taken once, with JavaScript on");
    mkdirSync(SCREENS, { recursive: true });
    for (const theme of ["default", "dark"] as const) {
      await context.addCookies([{ name: "onThemeValue", value: theme, url: server.baseUrl }]);
      const popup = await openFromWatch(page, context, "바다 통신장애");
      for (const size of [
        { n: "desktop", w: 1280, h: 800 },
        { n: "phone", w: 390, h: 844 },
      ]) {
        await popup.setViewportSize({ width: size.w, height: size.h });
        await expect(popup.getByRole("heading", { level: 1 })).toBeVisible();
        await popup.screenshot({ path: path.join(SCREENS, `detail-plant-${size.n}-${theme}.png`), fullPage: true });
        const overflow = await popup.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect.soft(overflow).toBeLessThanOrEqual(0);
      }
      await popup.close();
    }
  });
});
