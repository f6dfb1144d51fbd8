/**
 * The description for people (issue 27 point 3): /api/docs is a page that renders /api/openapi.json with Redoc's
 * standalone bundle served by the portal itself (no CDN), under a CSP that allows only the portal's own scripts; the
 * served description names every operation once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";

describe("the API reference page", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ store: "sqlite" });
  }, 120_000);
  afterAll(async () => server?.stop());

  it("serves the page, Redoc from the portal and the description, without a sign-in", async () => {
    const page = await fetch(`${server.baseUrl}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    const html = await page.text();
    expect(html).toContain('href="/api/openapi.json"'); // the noscript fallback
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual([expect.stringMatching(/^\/api\/docs\/redoc\.[0-9a-f]{12}\.js$/), "/api/docs/init.js"]);

    const bundle = await fetch(`${server.baseUrl}${scripts[0]}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
    expect(bundle.headers.get("cache-control")).toContain("immutable");
    expect((await bundle.text()).length).toBeGreaterThan(500_000);
    const init = await (await fetch(`${server.baseUrl}${scripts[1]}`)).text();
    expect(init).toContain('Redoc.init("/api/openapi.json"');
    expect((await fetch(`${server.baseUrl}/api/docs/redoc.000000000000.js`)).status).toBe(404);

    const doc = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([k]) => k !== "parameters")
        .map(([, op]) => op.operationId),
    );
    expect(ids.length).toBeGreaterThan(150);
    expect(ids.every((id) => typeof id === "string")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
