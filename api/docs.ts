/**
 * /api/docs: the OpenAPI description (/api/openapi.json) for people, rendered in the browser by Redoc's standalone
 * bundle served from node_modules (redoc 2, packaged with the portal: no CDN, works offline). Public like the
 * description itself. The page needs JavaScript; without it, it links the description.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Router } from "express";

const BUNDLE = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");

/** The page: Korean first, English second (the portal's order). */
function page(scriptUrl: string): string {
  return `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API 설명서 · API reference — Solar plant portal</title>
<style>body{margin:0}noscript p{font:16px/1.5 system-ui,sans-serif;margin:2rem}</style>
</head>
<body>
<noscript><p>이 설명서는 JavaScript로 그립니다. 설명서 원문: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).<br>
<span lang="en">This reference needs JavaScript. The description itself: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</span></p></noscript>
<main id="redoc" aria-label="API 설명서 · API reference"></main>
<script src="${scriptUrl}"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>`;
}

const INIT = `Redoc.init("/api/openapi.json", { hideDownloadButton: false, expandResponses: "200,201", jsonSampleExpandLevel: 2 }, document.getElementById("redoc"));\n`;

/** Only this page's own scripts; Redoc's styles are injected inline and its search runs in a blob worker. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function docsRoutes(): Router {
  const r = Router();
  let bundle: { body: Buffer; version: string } | undefined;
  const load = () => {
    if (!bundle) {
      const body = readFileSync(BUNDLE);
      bundle = { body, version: createHash("sha1").update(body).digest("hex").slice(0, 12) };
    }
    return bundle;
  };
  r.get("/docs", (_req, res) => {
    res.setHeader("Content-Security-Policy", CSP);
    res.type("html").send(page(`/api/docs/redoc.${load().version}.js`));
  });
  r.get("/docs/init.js", (_req, res) => {
    res.type("js").send(INIT);
  });
  // Named by its content, so it can be kept for a year.
  r.get(/^\/docs\/redoc\.[0-9a-f]{12}\.js$/, (req, res) => {
    const b = load();
    if (!req.path.endsWith(`.${b.version}.js`)) return void res.status(404).json({ message: "not_found" });
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.type("js").send(b.body);
  });
  return r;
}
