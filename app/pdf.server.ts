/**
 * PDF of a printed report page, rendered by Chromium (playwright-core) when one is on the machine:
 * `CHROMIUM_PATH`, else Debian's /usr/bin/chromium. Without it the page says how to print to PDF instead.
 */
import { existsSync } from "node:fs";

export function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : null;
}

export const pdfAvailable = () => chromiumPath() !== null;

/**
 * Prints the page at `url` to an A4 PDF. The page is fetched first, here, with the member's cookies (at once,
 * while the access token is fresh), then laid out by a headless Chromium without script, as print media, its
 * stylesheets loaded from the same origin; the print stylesheet draws the header and the page numbers.
 */
export async function renderPdf(url: string, cookies: Array<{ name: string; value: string }>): Promise<Buffer> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("no Chromium: set CHROMIUM_PATH");
  const res = await fetch(url, {
    headers: { cookie: cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join("; ") },
    redirect: "manual",
  });
  const html = await res.text();
  if (res.status !== 200) throw new Response(html.slice(0, 200), { status: res.status === 404 ? 404 : 400 });
  const origin = new URL(url).origin;
  const page = html.replace(/<head>/i, `<head><base href="${origin}/">`);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const tab = await context.newPage();
    await tab.emulateMedia({ media: "print" });
    await tab.setContent(page, { waitUntil: "load", timeout: 60_000 });
    return await tab.pdf({ format: "A4", printBackground: true, preferCSSPageSize: true });
  } finally {
    await browser.close();
  }
}
