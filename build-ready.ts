/**
 * A portal process answers only once the build it serves is complete: every file the server build
 * names under its public path (the browser manifest, route modules, shared chunks, stylesheets) must
 * exist in the assets folder. A page served while `remix build` is still writing would otherwise come
 * back unstyled (its stylesheet a 404).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Files the server build at `buildFile` names under `publicPath` that are not (yet) in `assetsDir`. */
export function missingAssets(buildFile: string, publicPath: string, assetsDir: string): string[] {
  const text = readFileSync(buildFile, "utf8");
  const escaped = publicPath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const names = new Set(
    Array.from(
      text.matchAll(new RegExp(`["'\`]${escaped}([A-Za-z0-9_./-]+\\.(?:js|css|woff2?|svg|png|jpg))["'\`]`, "g")),
      (m) => m[1]!,
    ),
  );
  return [...names].filter((name) => !existsSync(path.join(assetsDir, name)));
}

/** Waits (polling) until nothing is missing; throws with the missing files after `timeoutMs`. */
export async function waitForAssets(buildFile: string, publicPath: string, assetsDir: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const missing = existsSync(buildFile) ? missingAssets(buildFile, publicPath, assetsDir) : [buildFile];
    if (!missing.length) return;
    if (Date.now() > deadline) {
      throw new Error(
        `the build is incomplete (missing ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? " …" : ""}): run \`npx remix build\``,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
