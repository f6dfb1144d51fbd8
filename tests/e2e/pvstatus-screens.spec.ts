/**
 * Screenshots of /pvstatus for a person to look at (tests/.artifacts/screens/pvstatus-*): grid, graph and map
 * (and each card kind)
 * at desktop and phone sizes in both themes, with the checks a picture makes obvious — nothing overflows
 * sideways, cards and map markers are on screen. The map has no tiles here (no internet): the markers
 * must still stand on the plain background.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { createPvFleet } from "../api/pvstatus-fixture";
import { REPO_ROOT } from "../helpers/server";
import { expect, test } from "./fixtures";
import { stillForScreenshot } from "../helpers/page";

const DIR = path.join(REPO_ROOT, "tests/.artifacts/screens");
const SIZES = [
  { name: "desktop", width: 1280, height: 800, ua: undefined },
  {
    name: "phone",
    width: 390,
    height: 844,
    ua: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  },
] as const;
const VIEWS = [
  { name: "grid", search: "" },
  { name: "graph", search: "?view=gh" },
  // Every card kind of SPEC §2 (issue 13.13: status text on each, the stacked bar card).
  { name: "grid-sm", search: "?view=gd&size=sm" },
  { name: "graph-lg", search: "?view=gh&size=lg" },
  { name: "graph-bar", search: "?view=gh&size=bar" },
  { name: "map", search: "?view=map" },
] as const;

test.describe("pvstatus screenshots", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "taken once, with JavaScript on");

  for (const size of SIZES) {
    for (const theme of ["default", "dark"] as const) {
      test(`${size.name} ${theme}`, async ({ browser, store, server }) => {
        mkdirSync(DIR, { recursive: true });
        const fleet = await createPvFleet(store, server.baseUrl);
        const context = await browser.newContext({
          viewport: { width: size.width, height: size.height },
          userAgent: size.ua,
          baseURL: server.baseUrl,
          locale: "ko-KR",
        });
        const tokens = await (
          await fetch(`${server.baseUrl}/api/member/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ id: fleet.member.id, password: fleet.member.password }),
          })
        ).json();
        await context.addCookies([
          ...(["accessToken", "refreshToken", "sessionId"] as const).map((name) => ({
            name,
            value: tokens[name],
            url: server.baseUrl,
          })),
          { name: "onThemeValue", value: theme, url: server.baseUrl },
          { name: "NewAppOpenPop", value: "1", url: server.baseUrl },
        ]);
        const page = await context.newPage();
        for (const view of VIEWS) {
          await page.goto(`/pvstatus${view.search}`);
          await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
          if (view.name === "map")
            await expect(
              page.locator(".pv-map-frame [class*='marker'], .pv-map-frame .pv-cluster, .pv-map-frame .pv-live-cluster").first(),
            ).toBeVisible();
          else await expect(page.locator("article.pv-card").first()).toBeVisible();
          await stillForScreenshot(page);
          await page.screenshot({
            path: path.join(DIR, `pvstatus-${view.name}-${size.name}-${theme}.png`),
            fullPage: view.name !== "map",
          });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect.soft(overflow, `${view.name} overflows sideways by ${overflow}px`).toBeLessThanOrEqual(0);
        }
        await context.close();
      });
    }
  }
});
