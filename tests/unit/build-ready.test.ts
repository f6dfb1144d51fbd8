import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { missingAssets, waitForAssets } from "../../build-ready";

let dir = "";
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

function fixture() {
  dir = mkdtempSync(path.join(os.tmpdir(), "build-ready-"));
  const assets = path.join(dir, "public/build");
  mkdirSync(path.join(assets, "_assets"), { recursive: true });
  const buildFile = path.join(dir, "index.js");
  writeFileSync(
    buildFile,
    `var a = "/build/_assets/app-X.css"; var m = { url: "/build/manifest-1.js", r: '/build/routes/a-2.js' };`,
  );
  return { assets, buildFile };
}

describe("the portal serves only a complete build", () => {
  it("names every asset the server build links that is not on disk", () => {
    const { assets, buildFile } = fixture();
    expect(missingAssets(buildFile, "/build/", assets).sort()).toEqual(["_assets/app-X.css", "manifest-1.js", "routes/a-2.js"]);
    writeFileSync(path.join(assets, "_assets/app-X.css"), "");
    writeFileSync(path.join(assets, "manifest-1.js"), "");
    expect(missingAssets(buildFile, "/build/", assets)).toEqual(["routes/a-2.js"]);
  });

  it("waits until the build is written, and gives up with a message naming what is missing", async () => {
    const { assets, buildFile } = fixture();
    await expect(waitForAssets(buildFile, "/build/", assets, 300)).rejects.toThrow(/build is incomplete \(missing .*app-X\.css/);
    const waiting = waitForAssets(buildFile, "/build/", assets, 10_000);
    mkdirSync(path.join(assets, "routes"));
    for (const f of ["_assets/app-X.css", "manifest-1.js", "routes/a-2.js"]) writeFileSync(path.join(assets, f), "");
    await expect(waiting).resolves.toBeUndefined();
  });

  it("finds the real build complete", () => {
    expect(missingAssets("build/index.js", "/build/", "public/build")).toEqual([]);
  });
});
