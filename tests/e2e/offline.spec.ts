/**
 * Kiosk resilience (issue 17): when the network drops, the plant status wallboard keeps the last status it had
 * with an "offline since HH:mm" banner, and comes back by itself when the network returns (no reload).
 * Only with script: without it nothing polls. The service worker is registered by the rules of SPEC §7.
 */
import { expect, test } from "./fixtures";

test("the wallboard keeps its last status offline, says since when, and recovers by itself", async ({
  page,
  context,
  member,
  loginByCookie,
}, info) => {
  test.skip(info.project.name !== "js", "polling and the banner need script");
  test.setTimeout(60_000);
  const m = await member({ auth: 1 });
  await loginByCookie(m.id, m.password);
  // Time is the subject: the page's clock is a fake one that this test moves on (it runs at real pace otherwise).
  await page.clock.install();
  await page.goto("/pvstatus");
  const line = page.locator(".pv-status-line");
  await expect(line).toBeVisible();
  await expect(page.getByTestId("polling")).toBeVisible();
  // The page reloads nothing: a mark on the window survives the whole test.
  await page.evaluate(() => ((window as unknown as { kioskMark: number }).kioskMark = 42));
  const before = await line.textContent();
  await context.setOffline(true);
  const banner = page.getByRole("status").filter({ hasText: /오프라인 · \d{2}:\d{2}부터/ });
  await expect(banner).toBeVisible();
  // Two poll periods later (on the page's clock) the last status is still there, not an error page.
  await page.clock.runFor(13_000);
  await expect(line).toHaveText(before!);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(/오류|error/i);
  await context.setOffline(false);
  await expect(banner).toHaveCount(0);
  await expect.poll(() => line.textContent(), { timeout: 15_000 }).not.toBe(before);
  expect(await page.evaluate(() => (window as unknown as { kioskMark?: number }).kioskMark)).toBe(42);
});

test("the service worker is served as JavaScript and registered", async ({ page, member, loginByCookie, server }, info) => {
  const res = await page.request.get(`${server.baseUrl}/service-worker.js`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("javascript");
  test.skip(info.project.name !== "js", "registration needs script");
  const m = await member({ auth: 1 });
  await loginByCookie(m.id, m.password);
  await page.goto("/");
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL ?? null), {
      timeout: 15_000,
    })
    .toMatch(/\/service-worker\.js$/);
});

test("kiosk mode: no navigation, large type, cycles through the chosen views (bookmarkable)", async ({
  page,
  member,
  loginByCookie,
}, info) => {
  test.setTimeout(60_000);
  const m = await member({ auth: 1 });
  await loginByCookie(m.id, m.password);
  await page.goto("/pvstatus?kiosk=1&cycle=/pvstatus,/alarm&every=10");
  await expect(page.locator(".kiosk-shell")).toBeVisible();
  await expect(page.getByRole("navigation", { name: /메뉴|navigation/i })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "로그아웃" })).toHaveCount(0);
  expect(await page.locator(".kiosk-shell .content").evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThan(
    18,
  );
  if (info.project.name === "js") {
    await expect(page).toHaveURL(/\/alarm\?kiosk=1&cycle=/, { timeout: 20_000 });
    await expect(page.locator(".kiosk-shell")).toBeVisible();
  }
});
