/**
 * A kiosk wallboard outlives its server (issue 17): the whole server goes away for 30 s (not just the
 * browser's network) while /pvstatus?kiosk=1 polls. The board keeps the last status it had and says since
 * when the server cannot be reached; when the server is back (same data, same port) it refreshes by itself,
 * without a reload. On a server of its own, so no other spec loses its server.
 */
import { apiLogin, expect, test } from "./fixtures";
import { createMember, openTestStore } from "../helpers/fixtures";
import { freePort, startServer, type TestServer } from "../helpers/server";

test("a kiosk survives the server going away for 30 s and comes back by itself", async ({ page, context }, info) => {
  test.skip(info.project.name !== "js", "without script nothing polls: the browser shows its own error page");
  test.setTimeout(240_000);
  const port = await freePort(4500, 4599);
  let server: TestServer = await startServer({ store: "sqlite", port, timeoutMs: 120_000 });
  try {
    const store = await openTestStore(server.databaseUrl);
    const m = await createMember(store, { auth: 1 });
    await store.close();
    const tokens = await apiLogin(server.baseUrl, m.id, m.password);
    await context.addCookies([
      ...(["accessToken", "refreshToken", "sessionId"] as const).map((name) => ({
        name,
        value: tokens[name],
        url: server.baseUrl,
        httpOnly: true,
      })),
      { name: "NewAppOpenPop", value: "Y", url: server.baseUrl },
      { name: "onWeekCloseModal", value: "Y", url: server.baseUrl },
    ]);
    // Time is the subject: the page's clock is a fake one that this test moves on (it runs at real pace otherwise).
    await page.clock.install();
    await page.goto(`${server.baseUrl}/pvstatus?kiosk=1`);
    const line = page.locator(".pv-status-line");
    await expect(page.getByTestId("polling")).toBeVisible();
    await page.evaluate(() => ((window as unknown as { kioskMark: number }).kioskMark = 7));
    // At least one poll went through before the outage.
    const first = await line.textContent();
    await expect.poll(() => line.textContent(), { timeout: 20_000 }).not.toBe(first);

    const { dataDir, databaseUrl } = server;
    await server.stop({ keepData: true });
    const before = await line.textContent();
    const banner = page.getByRole("status").filter({ hasText: /서버에 연결할 수 없습니다 · \d{2}:\d{2}부터/ });
    await expect(banner).toBeVisible({ timeout: 20_000 });
    // Thirty seconds without a server (on the page's clock), five polls that found none: the last status stays,
    // never an error page.
    for (let i = 0; i < 5; i++) {
      const failed = page.waitForEvent("requestfailed", { predicate: (r) => r.url().includes("_data="), timeout: 30_000 });
      await page.clock.runFor(6_500);
      await failed;
    }
    await expect(line).toHaveText(before!);
    await expect(page.locator(".kiosk-shell")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await page.screenshot({ path: "tests/.artifacts/screens/kiosk-server-away.png", fullPage: false });

    server = await startServer({ store: "sqlite", port, reuse: { dataDir, databaseUrl }, timeoutMs: 120_000 });
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(() => line.textContent(), { timeout: 30_000 }).not.toBe(before);
    expect(await page.evaluate(() => (window as unknown as { kioskMark?: number }).kioskMark)).toBe(7);
  } finally {
    await server.stop();
  }
});
