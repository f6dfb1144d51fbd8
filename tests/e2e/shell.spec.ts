/**
 * The app shell: navigation filtered by service bits and admin level (SPEC §6), theme and
 * language switches (cookie onThemeValue, SPEC §3 Storage), the 404 page, and clean documents.
 */
import { SECTIONS } from "../../domain/navigation";
import { GUEST_ID, GUEST_PASSWORD } from "../../domain/guest";
import { ADMIN_PASSWORD } from "../helpers/server";
import { cookieValue, expect, test } from "./fixtures";

const navLinks = (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: /주 메뉴|Main menu/ }).getByRole("link");

const navLink = (page: import("@playwright/test").Page, name: string) =>
  page.getByRole("navigation", { name: /주 메뉴|Main menu/ }).getByRole("link", { name, exact: true });

test.describe("harness", () => {
  test("the project really runs with JavaScript on or off", async ({ page }) => {
    await page.goto("/login");
    const hydrated = await page.evaluate(() => "__remixRouter" in window);
    expect(hydrated).toBe(test.info().project.name === "js");
  });
});

test.describe("navigation", () => {
  test("the admin home shows each area the member administers with what is in it", async ({ page, loginByCookie }) => {
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/setting");
    await expect(page.getByRole("heading", { level: 1, name: "관리 메인" })).toBeVisible();
    const areas = page.locator(".admin-home");
    for (const name of ["전체 목록", "회원 관리", "그룹 관리", "발전소 관리", "장비 관리", "RTU 관리"]) {
      await expect(areas.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(areas.getByRole("listitem").filter({ hasText: "회원 관리" })).toContainText(/회원 \d+명/);
    await expect(areas.getByRole("listitem").filter({ hasText: "발전소 관리" })).toContainText(/발전소 \d+곳/);
    await page.screenshot({ path: test.info().outputPath("admin-home.png"), fullPage: true });
    await areas.getByRole("link", { name: "회원 관리", exact: true }).click();
    await expect(page).toHaveURL(/\/setting\/id/);
  });

  test("on a phone the navigation folds behind a menu button that works without script", async ({ page, loginByCookie }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/pvstatus");
    const menu = page.getByRole("navigation", { name: "주 메뉴" });
    await expect(menu.getByText("메뉴 · 발전소 현황")).toBeVisible();
    await expect(navLink(page, "알람")).toBeHidden();
    await menu.getByText("메뉴 · 발전소 현황").click();
    await expect(navLink(page, "알람")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("phone-menu-open.png"), fullPage: false });
    await navLink(page, "알람").click();
    await expect(page).toHaveURL(/\/alarm$/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(navLink(page, "메인")).toBeVisible();
    await expect(menu.getByText("메뉴 · 알람")).toBeHidden();
  });

  test("the admin sees every section of SPEC §2", async ({ page, loginByCookie }) => {
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/");
    const hrefs = await navLinks(page).evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(SECTIONS.map((s) => s.path));
  });

  test("a navigation link marks its section current, and with JavaScript moves without reloading the page", async ({
    page,
    loginByCookie,
  }) => {
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/");
    await expect(navLink(page, "메인")).toHaveAttribute("aria-current", "page");
    const js = test.info().project.name === "js";
    // A marker on window survives a client-side navigation and is gone after a document load.
    if (js) await page.evaluate(() => ((window as unknown as { navMarker: number }).navMarker = 1));
    // With JavaScript, resting the pointer on an entry prefetches that screen (its data and code).
    await navLink(page, "공지사항").hover();
    if (js)
      await expect(
        page.locator('link[rel="prefetch"][href*="notice"], link[rel="modulepreload"][href*="notice"]').first(),
      ).toBeAttached();
    await navLink(page, "공지사항").click();
    await expect(page).toHaveURL(/\/notice$/);
    await expect(navLink(page, "공지사항")).toHaveAttribute("aria-current", "page");
    await expect(navLink(page, "메인")).not.toHaveAttribute("aria-current", /.*/);
    const marker = await page.evaluate(() => (window as unknown as { navMarker?: number }).navMarker ?? null);
    expect(marker).toBe(js ? 1 : null);
    // The browser's back button returns to the page before (a navigation adds a history entry).
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });

  test("a member with no service bits at level 1 sees no control, help or diagnose, and cannot open them", async ({
    page,
    member,
    loginByCookie,
  }) => {
    const m = await member({ service: 0, auth: 1 });
    await loginByCookie(m.id, m.password);
    await page.goto("/");
    const links = navLinks(page);
    await expect(links.first()).toBeVisible();
    for (const name of ["제어", "도움말", "진단"]) await expect(links.filter({ hasText: name })).toHaveCount(0);
    // Always-allowed sections stay (SPEC §6: pvstatus, measurement, diagram, statistics, alarm, cctv).
    for (const name of ["발전소 현황", "계측", "단선도", "통계", "알람", "CCTV"]) {
      await expect(links.filter({ hasText: name }), name).toHaveCount(1);
    }
    for (const path of ["/control", "/help", "/diagnose"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { name: "권한이 없습니다" })).toBeVisible();
      // Inside the shell: the navigation stays, so the member has a way on.
      await expect(navLinks(page).filter({ hasText: "발전소 현황" })).toHaveCount(1);
    }
  });

  test("service bits open their sections one by one", async ({ page, member, loginByCookie }) => {
    const m = await member({ service: 1 << 6, auth: 1 }); // control only
    await loginByCookie(m.id, m.password);
    await page.goto("/");
    const links = navLinks(page);
    await expect(links.filter({ hasText: "제어" })).toHaveCount(1);
    await expect(links.filter({ hasText: "도움말" })).toHaveCount(0);
    expect((await page.goto("/control"))?.status()).toBe(200);
  });

  test("admin screens follow the SPEC §6 level table and the read-only guest gets none", async ({
    page,
    context,
    member,
    loginByCookie,
  }) => {
    const level3 = await member({ auth: 3 }); // plant and device only
    await loginByCookie(level3.id, level3.password);
    await page.goto("/");
    await expect(navLinks(page).filter({ hasText: "관리" })).toHaveCount(1);
    expect((await page.goto("/setting/plant"))?.status()).toBe(200);
    expect((await page.goto("/setting/device"))?.status()).toBe(200);
    expect((await page.goto("/setting/group"))?.status()).toBe(403);
    expect((await page.goto("/setting/rtu"))?.status()).toBe(403);

    await context.clearCookies();
    await loginByCookie(GUEST_ID, GUEST_PASSWORD);
    await page.goto("/");
    await expect(navLinks(page).filter({ hasText: "관리" })).toHaveCount(0);
    expect((await page.goto("/setting"))?.status()).toBe(403);
  });
});

test.describe("preferences", () => {
  test("the theme switch sets onThemeValue and html data-theme, and switches back", async ({ page, context, loginByCookie }) => {
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/statistics");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "default");
    await page.getByRole("button", { name: "화면 테마: 다크" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page).toHaveURL(/\/statistics$/);
    expect(await cookieValue(context, "onThemeValue")).toBe("dark");
    const cookie = (await context.cookies()).find((c) => c.name === "onThemeValue")!;
    expect(cookie.path).toBe("/");

    await page.getByRole("button", { name: "화면 테마: 기본" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "default");
    expect(await cookieValue(context, "onThemeValue")).toBe("default");
  });

  test("the language switch turns the UI to English and back to Korean", async ({ page, context, loginByCookie }) => {
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "ko");
    await page.getByRole("button", { name: "언어: English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("button", { name: "Log in", exact: true })).toBeVisible();
    expect(await cookieValue(context, "lang")).toBe("en");

    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/");
    await expect(navLinks(page).filter({ hasText: "Plant status" })).toHaveCount(1);
    await page.getByRole("button", { name: "Language: 한국어" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "ko");
    await expect(navLinks(page).filter({ hasText: "발전소 현황" })).toHaveCount(1);
  });

  test("in English the administration screens, whose texts load with them, are in English too", async ({
    page,
    context,
    server,
    loginByCookie,
  }) => {
    await context.addCookies([{ name: "lang", value: "en", url: server.baseUrl }]);
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/");
    await navLink(page, "Admin").click();
    await expect(page.getByRole("heading", { name: "Admin main" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Plants", exact: true }).click();
    await expect(page).toHaveURL(/\/setting\/plant$/);
    await expect(page.getByRole("heading", { name: "Plants", level: 1 })).toBeVisible();
    await expect(page.getByRole("table", { name: "Plant list" })).toBeVisible();
    // The page title follows the language too (it stayed Korean).
    await expect(page).toHaveTitle(/^Plants · /);
  });

  test("the dark theme chosen on /login stays after signing in", async ({ page, loginByCookie }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "화면 테마: 다크" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute("content", "dark");
  });
});

test.describe("documents", () => {
  test("an unknown route shows the 404 page, signed in or not", async ({ page, loginByCookie }) => {
    let res = await page.goto("/no/such/page");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "페이지를 찾을 수 없습니다" })).toBeVisible();
    await loginByCookie("admin", ADMIN_PASSWORD);
    res = await page.goto("/definitely-not-here");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "페이지를 찾을 수 없습니다" })).toBeVisible();
    await page.getByRole("link", { name: "메인으로" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("every route of SPEC §2 answers a clean UTF-8 document (no NUL bytes inside Korean text)", async ({
    page,
    member,
    loginByCookie,
  }) => {
    test.skip(test.info().project.name !== "js", "documents are the same with and without JS");
    const forced = await member({ pwd_yn: 1 });
    const routes = [
      "/",
      "/control",
      "/pvstatus",
      "/watch",
      "/measurement",
      "/diagram",
      "/page",
      "/diagnose",
      "/statistics",
      "/alarm",
      "/cctv",
      "/help",
      "/setting",
      "/setting/total",
      "/setting/id",
      "/setting/group",
      "/setting/plant",
      "/setting/device",
      "/setting/rtu",
      "/setting/config/alarm",
      "/notice",
      "/modify",
    ];
    const check = async (path: string) => {
      const res = await page.goto(path);
      expect(res?.status(), path).toBeLessThan(400);
      const body = await res!.body();
      expect(body.includes(0), `${path} has NUL bytes`).toBe(false);
      expect(body.toString("utf8").includes("\uFFFD"), `${path} has U+FFFD`).toBe(false);
    };
    await check("/login");
    await loginByCookie("admin", ADMIN_PASSWORD);
    for (const path of routes) await check(path);
    await page.context().clearCookies();
    await loginByCookie(forced.id, forced.password);
    await check("/modify?required=1");
  });
});
