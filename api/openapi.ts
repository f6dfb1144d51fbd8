import { readdirSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { projectFile } from "./project-files";

interface Document {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  tags?: unknown[];
  [key: string]: unknown;
}

const here = (p: string) => projectFile("api", p);

/**
 * Adds one resource family's part of the contract (`api/openapi/<family>.yaml`: `paths`, `components`,
 * `tags`) to the document. A path or component named twice is a mistake in the contract, not a merge.
 */
export function mergeContractPart(doc: Document, part: Document, partName: string): void {
  for (const [path, item] of Object.entries(part.paths ?? {})) {
    const existing = (doc.paths ??= {})[path];
    if (!existing) {
      doc.paths[path] = item;
      continue;
    }
    for (const [method, op] of Object.entries(item)) {
      if (method in existing) throw new Error(`openapi: ${partName} repeats ${method.toUpperCase()} ${path}`);
      existing[method] = op;
    }
  }
  for (const [section, entries] of Object.entries(part.components ?? {})) {
    const target = ((doc.components ??= {})[section] ??= {});
    for (const [name, value] of Object.entries(entries)) {
      if (name in target) throw new Error(`openapi: ${partName} repeats components.${section}.${name}`);
      target[name] = value;
    }
  }
  if (part.tags) doc.tags = [...(doc.tags ?? []), ...part.tags];
}

let cached: Document | undefined;
/**
 * The contract, written as api/openapi.yaml (info, shared components, the first calls) plus one part
 * per resource family in api/openapi/*.yaml, served as JSON at /api/openapi.json.
 */
export function openapiDocument(): Document {
  if (cached) return cached;
  const doc = parse(readFileSync(here("./openapi.yaml"), "utf8"), { merge: true }) as Document;
  const dir = here("./openapi/");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()) {
    mergeContractPart(doc, parse(readFileSync(dir + file, "utf8"), { merge: true }) as Document, file);
  }
  return (cached = doc);
}
