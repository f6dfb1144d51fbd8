/**
 * Compiles the server (server.ts with the API, the data plane and the portal's server modules) into one ES module,
 * `build/server.mjs`, that plain `node` runs: `npm run build` calls it after `remix build`, `npm start` runs its
 * output, and the test and bench helper (tests/helpers/server.ts) compiles the current sources before it starts a
 * server. Packages stay imports of node_modules (`packages: "external"`); only the project's own TypeScript is
 * bundled. Running the server through tsx instead cost every process ~90 MB (tsx's hooks keep a second V8 isolate
 * and the transformed sources: 211 MB against 121 MB at rest for the same server, session 10).
 * The file is written under a temporary name and renamed, so a server started meanwhile reads a whole file.
 */
import { build } from "esbuild";
import { renameSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
export const SERVER_BUNDLE = path.join(ROOT, "build", "server.mjs");

export async function buildServer(outfile = SERVER_BUNDLE) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ["server.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile,
    sourcemap: "linked",
    write: false,
    logLevel: "warning",
  });
  mkdirSync(path.dirname(outfile), { recursive: true });
  // The map first: a server started between the two renames finds the code it maps.
  for (const file of [...result.outputFiles].sort((a) => (a.path.endsWith(".map") ? -1 : 1))) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
