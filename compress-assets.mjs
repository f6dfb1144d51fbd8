/**
 * Precompresses the browser build once, after `remix build` (part of `npm run build` and of tests/run-all.sh's build
 * stage): every script, stylesheet and source map under public/build gets a `.br` (brotli at its highest quality,
 * 11) and a `.gz` (gzip at level 9) beside it, written only where smaller than the file. server.ts serves them as
 * files (express-static-gzip picks one by Accept-Encoding), so no asset is compressed per request.
 *   node compress-assets.mjs [dir=public/build]
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(js|css|map|json|svg|txt)$/;

/** Files under `dir` (recursively) that are worth compressing. */
function assets(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return assets(file);
    return entry.isFile() && COMPRESSIBLE.test(entry.name) ? [file] : [];
  });
}

/** Writes `file`.br and `file`.gz where each is smaller than `file`; answers the byte counts. */
export function compressAsset(file) {
  const raw = readFileSync(file);
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: file.endsWith(".map") ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
  if (br.length < raw.length) writeFileSync(`${file}.br`, br);
  if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
  return { raw: raw.length, br: Math.min(br.length, raw.length), gz: Math.min(gz.length, raw.length) };
}

export function compressAssets(dir = "public/build") {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${dir} is missing: run \`remix build\` first`);
  const total = { files: 0, raw: 0, br: 0, gz: 0 };
  for (const file of assets(dir)) {
    const sizes = compressAsset(file);
    total.files++;
    total.raw += sizes.raw;
    total.br += sizes.br;
    total.gz += sizes.gz;
  }
  return total;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const t = compressAssets(process.argv[2]);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`compressed ${t.files} assets in ${Date.now() - started} ms: ${kb(t.raw)} → brotli ${kb(t.br)}, gzip ${kb(t.gz)}`);
}
