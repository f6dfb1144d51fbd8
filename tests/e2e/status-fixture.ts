/**
 * Shared set-up of the main, watch and detail specs: one small fleet per worker (tests/api/pvstatus-fixture.ts,
 * fed through the real ingest), settled by the real alarm engine, and a sign-in as its member.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { createPvFleet, settleAlarms, type PvFleet } from "../api/pvstatus-fixture";
import { REPO_ROOT } from "../helpers/server";
import { expect, test as base } from "./fixtures";

export { expect };

export const SCREENS = path.join(REPO_ROOT, "tests/.artifacts/screens");

export const test = base.extend<{ signIn: () => Promise<void> }, { fleet: PvFleet }>({
  fleet: [
    async ({ store }, use) => {
      const fleet = await createPvFleet(store, process.env.E2E_BASE_URL!);
      await settleAlarms(store, fleet);
      await use(fleet);
    },
    { scope: "worker", timeout: 90_000 },
  ],
  signIn: async ({ fleet, loginByCookie }, use) =>
    use(async () => void (await loginByCookie(fleet.member.id, fleet.member.password))),
});

/** Full-page screenshots at desktop and phone size in both themes, and no sideways overflow. */
export async function shootAll(page: Page, baseUrl: string, name: string, url: string, ready: (page: Page) => Promise<void>) {
  mkdirSync(SCREENS, { recursive: true });
  for (const theme of ["default", "dark"] as const) {
    await page.context().addCookies([{ name: "onThemeValue", value: theme, url: baseUrl }]);
    for (const size of [
      { n: "desktop", w: 1280, h: 800 },
      { n: "phone", w: 390, h: 844 },
    ]) {
      await page.setViewportSize({ width: size.w, height: size.h });
      await page.goto(url);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await ready(page);
      await page.screenshot({ path: path.join(SCREENS, `${name}-${size.n}-${theme}.png`), fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect.soft(overflow, `${name} ${size.n} overflows sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    }
  }
}
