import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's folder: the nearest folder above this module that holds `package.json`. The same answer whether
 * the server runs from its TypeScript sources (this file in `api/`) or from the bundle `npm run build` writes to
 * `build/server.mjs`, where every module shares the bundle's URL.
 */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

const ROOT = projectRoot();

/** A file or folder of the project read at run time (the contract's YAML, help articles), by its path in the project. */
export const projectFile = (...parts: string[]): string => path.join(ROOT, ...parts);
