import { chromium } from "@playwright/test";
const base = process.env.BASE ?? "http://127.0.0.1:3601";
const pages = (process.env.PAGES ?? "/setting/plant").split(",");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
for (const theme of (process.env.THEMES ?? "default,dark").split(",")) {
  for (const width of (process.env.WIDTHS ?? "1280,390").split(",").map(Number)) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 } });
    await ctx.addCookies([{ name: "onThemeValue", value: theme, url: base }, { name: "NewAppOpenPop", value: "1", url: base }, { name: "onWeekCloseModal", value: "1", url: base }]);
    const page = await ctx.newPage();
    await page.goto(base + "/login");
    await page.fill('input[name="id"]', "admin");
    await page.fill('input[name="password"]', "admin1234!");
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/login")), page.click('button[type="submit"]')]);
    for (const p of pages) {
      await page.goto(base + p);
      const name = `${p.replace(/[^a-z0-9]+/gi, "_")}_${width}_${theme}.png`;
      await page.screenshot({ path: `/tmp/shots/${name}`, fullPage: true });
      console.log(name);
    }
    await ctx.close();
  }
}
await browser.close();
