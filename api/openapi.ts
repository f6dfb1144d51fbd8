import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

let cached: unknown;
/** The contract, written as api/openapi.yaml and served as JSON at /api/openapi.json. */
export function openapiDocument(): unknown {
  cached ??= parse(readFileSync(fileURLToPath(new URL("./openapi.yaml", import.meta.url)), "utf8"));
  return cached;
}
