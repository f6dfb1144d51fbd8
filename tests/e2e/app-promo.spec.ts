/**
 * The app promotion pop-up (SPEC §2, §8, §9) with JavaScript on and off: shown unless NewAppOpenPop is set,
 * two QR codes rendered on the server as SVG, "hide for 1 week" sets the cookie for 7 days (a plain form post
 * without script), the other button only closes; a QR opens the store only on a device of its platform
 * (Android, iPhone), elsewhere the alert of SPEC §8.
 */
import { expect, test } from "./fixtures";

const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

test.beforeEach(async ({ context, member, loginByCookie }) => {
  await context.clearCookies({ name: "NewAppOpenPop" });
  const m = await member({ auth: 1 });
  await loginByCookie(m.id, m.password);
});

test("shows two server-rendered QR codes; 'hide for 1 week' sets NewAppOpenPop for 7 days", async ({ page, context }, info) => {
  await page.goto("/");
  const title = page.getByRole("heading", { name: "새 모바일 앱이 나왔습니다" });
  await expect(title).toBeVisible();
  await expect(page.getByRole("img", { name: "Android 앱 스토어로 가는 QR 코드" }).locator("svg")).toHaveCount(1);
  await expect(page.getByRole("img", { name: "iOS 앱 스토어로 가는 QR 코드" }).locator("svg")).toHaveCount(1);
  if (info.project.name === "js") await expect(page.getByRole("dialog")).toBeVisible();
  const before = Date.now() / 1000;
  await page.getByRole("button", { name: "1주일 동안 보지 않기" }).click();
  await expect(title).toHaveCount(0);
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === "NewAppOpenPop")?.value).toBe("Y");
  const cookie = (await context.cookies()).find((c) => c.name === "NewAppOpenPop")!;
  expect(cookie.path).toBe("/");
  expect(cookie.expires - before).toBeGreaterThan(7 * 86_400 - 120);
  expect(cookie.expires - before).toBeLessThan(7 * 86_400 + 120);
  await page.goto("/alarm");
  await expect(page.getByRole("heading", { name: "새 모바일 앱이 나왔습니다" })).toHaveCount(0);
});

test("the other button only closes: no week cookie", async ({ page, context }, info) => {
  await page.goto("/");
  // With script, wait for the dialog (hydrated): a click before that is the no-script form post, which
  // hides the pop-up for the rest of the session, and the reloads below would not show it again.
  if (info.project.name === "js") await expect(page.getByRole("dialog")).toBeVisible();
  await page.getByRole("button", { name: "닫기", exact: true }).click();
  await expect(page.getByRole("heading", { name: "새 모바일 앱이 나왔습니다" })).toHaveCount(0);
  expect((await context.cookies()).find((c) => c.name === "NewAppOpenPop")).toBeUndefined();
  if (info.project.name === "js") {
    // With script the dialog only closed: the next load shows it again. The backdrop closes it too.
    await page.reload();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  }
});

test("a QR on the wrong device alerts; on its own platform it goes to the store", async ({ page, server }, info) => {
  await page.goto("/");
  if (info.project.name === "js") {
    const alerts: string[] = [];
    page.on("dialog", (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    await page.getByRole("link", { name: "Android 앱 스토어로 가는 QR 코드" }).click();
    await page.getByRole("link", { name: "iOS 앱 스토어로 가는 QR 코드" }).click();
    await expect
      .poll(() => alerts)
      .toEqual(["안드로이드 폰에서만 이용 가능한 링크입니다.", "아이폰에서만 이용 가능한 링크입니다."]);
    await expect(page).toHaveURL(/\/$/);
  } else {
    await page.getByRole("link", { name: "Android 앱 스토어로 가는 QR 코드" }).click();
    await expect(page.getByText("안드로이드 폰에서만 이용 가능한 링크입니다.")).toBeVisible();
  }
  // The link itself (no script): by user agent.
  const go = (platform: string, ua: string) =>
    page.request.get(`${server.baseUrl}/resources/app-promo?platform=${platform}&redirectTo=/`, {
      headers: { "user-agent": ua },
      maxRedirects: 0,
    });
  expect((await go("android", ANDROID)).headers().location).toMatch(/^https:\/\/play\.google\.com\//);
  expect((await go("ios", IPHONE)).headers().location).toMatch(/^https:\/\/apps\.apple\.com\//);
  expect((await go("android", DESKTOP)).headers().location).toBe("/");
  expect((await go("ios", ANDROID)).headers().location).toBe("/");
});

test("screenshots", async ({ page, server }, info) => {
  const { shootAll } = await import("./status-fixture");
  await shootAll(page, server.baseUrl, `app-promo-${info.project.name}`, "/", async (p) => {
    await expect(p.getByRole("heading", { name: "새 모바일 앱이 나왔습니다" })).toBeVisible();
  });
});
