/**
 * Screenshots for a person to look at (tests/.artifacts/screens/): /login, the shell (/) and
 * /modify?required=1 at desktop and phone sizes, default and dark theme. The checks here are the
 * ones a picture makes obvious: nothing overflows sideways and the main content is on screen.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ADMIN_PASSWORD, REPO_ROOT } from "../helpers/server";
import { expect, test } from "./fixtures";

const DIR = path.join(REPO_ROOT, "tests/.artifacts/screens");
const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
const THEMES = ["default", "dark"] as const;

test.describe("screenshots", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "taken once, with JavaScript on");

  for (const size of SIZES) {
    for (const theme of THEMES) {
      test(`${size.name} ${theme}`, async ({ page, context, server, member, loginByCookie }) => {
        mkdirSync(DIR, { recursive: true });
        await page.setViewportSize({ width: size.width, height: size.height });
        await context.addCookies([{ name: "onThemeValue", value: theme, url: server.baseUrl }]);
        const shoot = async (name: string) => {
          await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
          await page.screenshot({ path: path.join(DIR, `${name}-${size.name}-${theme}.png`), fullPage: true });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect.soft(overflow, `${name} overflows sideways by ${overflow}px`).toBeLessThanOrEqual(0);
        };

        await page.goto("/login");
        await expect(page.getByRole("button", { name: "로그인", exact: true })).toBeInViewport();
        await shoot("login");

        await loginByCookie("admin", ADMIN_PASSWORD);
        await page.goto("/");
        await expect(page.getByRole("main")).toBeInViewport();
        await shoot("shell");

        const forced = await member({ pwd_yn: 1, name: "비밀번호 변경 필요" });
        await loginByCookie(forced.id, forced.password);
        await page.goto("/modify?required=1");
        await expect(page.getByRole("alert")).toBeInViewport();
        await shoot("modify-required");
      });
    }
  }
});
