/**
 * Wide tables at desktop and phone width (issue 13 points 15, 16, 18): the English monitoring table fits at
 * 1440 px, the RTU list keeps ids, MACs and dates on one line, and the members, RTU and monitoring tables
 * leave no sideways overflow on a 390 px phone.
 */
import type { Locator, Page } from "@playwright/test";
import { ADMIN_PASSWORD } from "../helpers/server";
import { expect, test } from "./status-fixture";

/** Heights of the cells' contents (not of their rows), in lines of the cell's own computed line height. */
const linesOf = (cells: Locator) =>
  cells.evaluateAll((els) =>
    els.map((el) => {
      const style = getComputedStyle(el);
      const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
      const range = document.createRange();
      range.selectNodeContents(el);
      return { text: el.textContent?.trim() ?? "", lines: range.getBoundingClientRect().height / line };
    }),
  );

const pageOverflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

test.describe("wide tables", () => {
  test("in English the monitoring table fits at 1440 px without wrapping plant names", async ({ page, server, signIn }) => {
    await page.context().addCookies([{ name: "lang", value: "en", url: server.baseUrl }]);
    await signIn();
    await page.setViewportSize({ width: 1440, height: 900 });
    // The fleet has no grid devices (its grid tab is empty): the generation tab is the one with rows.
    for (const tab of ["gen"]) {
      await page.goto(`/?tab=${tab}`);
      const table = page.locator("section#monitoring table");
      await expect(table.locator("tbody tr").first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`monitoring-en-1440-${tab}.png`), fullPage: true });
      const wrap = table.locator("xpath=..");
      const { scroll, client } = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll, `${tab}: a column hides behind a sideways scroll`).toBeLessThanOrEqual(client);
      const tableBox = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(tableBox.scroll).toBeLessThanOrEqual(tableBox.client);
      for (const cell of await linesOf(table.locator("tbody th[scope=row]"))) {
        expect(cell.lines, `${tab}: "${cell.text}" wraps`).toBeLessThanOrEqual(2.2);
      }
    }
  });

  test("the RTU list keeps ids, MACs and dates on one line at 1440 px", async ({ page, server, loginByCookie, fleet }) => {
    const { accessToken } = await loginByCookie("admin", ADMIN_PASSWORD);
    expect(fleet).toBeTruthy();
    // An RTU with a MAC and a long alias next to the fleet's: the columns compete for the width.
    const uid = `RL${Date.now().toString(36).toUpperCase()}`;
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${server.baseUrl}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const rtu = await call("POST", "/rtu", {
      uid,
      name: "layout",
      alias: "남쪽 창고 지붕 위의 게이트웨이 두 번째 함체 안쪽 선반",
      // A MAC of its own per run: the js and nojs projects each add one, and a MAC is unique.
      mac: [
        "02",
        ...Array.from({ length: 5 }, () =>
          Math.floor(Math.random() * 256)
            .toString(16)
            .padStart(2, "0")
            .toUpperCase(),
        ),
      ].join(":"),
    });
    expect(rtu.status).toBeLessThan(300);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/setting/rtu");
    const rows = page.locator("main table tbody tr");
    await expect(rows.first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("rtu-1440.png"), fullPage: true });
    const cells = page.locator("main table tbody tr").locator("th[scope=row], td:nth-child(3), td:nth-child(8)");
    expect(await cells.count()).toBeGreaterThan(2);
    for (const cell of await linesOf(cells)) {
      expect(cell.lines, `"${cell.text}" wraps`).toBeLessThanOrEqual(1.2);
    }
  });

  for (const [name, url, admin] of [
    ["members", "/setting/id", true],
    ["RTUs", "/setting/rtu", true],
    ["monitoring", "/", false],
  ] as const) {
    test(`the ${name} table leaves no sideways overflow on a 390 px phone`, async ({
      page,
      server,
      signIn,
      loginByCookie,
      fleet,
    }) => {
      expect(fleet).toBeTruthy();
      if (admin) await loginByCookie("admin", ADMIN_PASSWORD);
      else await signIn();
      await page.setViewportSize({ width: 390, height: 844 });
      for (const lang of ["ko", "en"]) {
        await page.context().addCookies([{ name: "lang", value: lang, url: server.baseUrl }]);
        await page.goto(url);
        await expect(page.locator("main table tbody tr").last()).toBeVisible();
        await page.screenshot({
          path: test.info().outputPath(`${name.replace(/\W+/g, "-")}-390-${lang}.png`),
          fullPage: true,
        });
        expect(await pageOverflow(page), `${name} (${lang}) overflows the page sideways`).toBeLessThanOrEqual(0);
        // A table that is wider than the phone stacks into cards or scrolls in a region a keyboard can reach.
        const scrollers = await page.locator("main table").evaluateAll((tables) =>
          tables.flatMap((table) => {
            const box = table.closest(".table-wrap") ?? table.parentElement!;
            if (box.scrollWidth <= box.clientWidth) return [];
            return [
              {
                tabindex: box.getAttribute("tabindex"),
                role: box.getAttribute("role"),
                label: box.getAttribute("aria-label") ?? box.getAttribute("aria-labelledby"),
              },
            ];
          }),
        );
        for (const s of scrollers) {
          expect(s, `${name} (${lang}) scrolls sideways outside a keyboard-reachable region`).toMatchObject({
            tabindex: "0",
            role: "region",
            label: expect.any(String),
          });
        }
      }
    });
  }
});

test.describe("alarm engine messages", () => {
  const ENGINE_ENGLISH = /silent since|not answering|of the reference|plant-wide|^fault 0x/;
  const titles = (page: Page, cells: string) =>
    page.locator(cells).evaluateAll((els) => els.map((el) => el.getAttribute("title") ?? ""));

  for (const [where, url, cells] of [
    ["the alarm screen", "/alarm", "main table tbody td[title]"],
    ["the recent alarms", "/", ".alarm-table tbody td[title]"],
  ] as const) {
    test(`${where} shows the engine's findings in the user's language`, async ({ page, server, signIn }) => {
      await signIn();
      await page.goto(url);
      const ko = await titles(page, cells);
      expect(ko.length).toBeGreaterThan(0);
      for (const title of ko) expect(title, "English engine text in the Korean UI").not.toMatch(ENGINE_ENGLISH);
      expect(ko.join("\n")).toMatch(/RTU \S+: \d{4}-\d\d-\d\d \d\d:\d\d 이후 수신 없음/);

      await page.context().addCookies([{ name: "lang", value: "en", url: server.baseUrl }]);
      await page.goto(url);
      expect((await titles(page, cells)).join("\n")).toMatch(/RTU \S+: nothing received since \d{4}-\d\d-\d\d \d\d:\d\d/);
    });
  }
});
