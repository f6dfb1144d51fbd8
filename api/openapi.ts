import { readdirSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { applyAnswers } from "./openapi-answers";
import { zodComponents } from "./openapi-zod";
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

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

type Operation = {
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, { $ref?: string; content?: unknown; description?: string }>;
};

/** `get /plant/{id}/history` → `getPlantByIdHistory`: unique for every method and path, stable while the path is. */
export function derivedOperationId(method: string, path: string): string {
  const cap = (w: string) => (w ? w[0]!.toUpperCase() + w.slice(1) : "");
  const words = path
    .split("/")
    .filter(Boolean)
    .map((seg) => {
      const param = /^\{(.+)\}$/.exec(seg);
      const parts = (param ? param[1]! : seg).split(/[^A-Za-z0-9]+/).map(cap);
      return (param ? "By" : "") + parts.join("");
    });
  return method + words.join("");
}

/** The answers the server's shared middleware gives, named once in api/openapi.yaml `components.responses`. */
const shared = (name: string) => ({ $ref: `#/components/responses/${name}` });
const ERROR_CONTENT = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

/**
 * What holds for every operation because of the API's shared middleware (api/index.ts), so no part repeats it:
 * - an `operationId` (a part may name it; otherwise derived from method and path), unique;
 * - 400 (`urlProblems` refuses a NUL in any path or query, express.json a malformed body);
 * - with a security requirement: 401 (`authenticate`) and 403 (`password_change_required` of requireSettled,
 *   `outside_detail_scope` of a detail-window token) and 429 (an API token's rate limit, api/routes/api-tokens.ts);
 * - 5XX: `errorHandler`'s 500/503, or a portal process's proxy (502/504) when the API process behind it is gone;
 * - a 4xx/5xx answer a part describes in words only is the one error shape (`errorHandler`).
 */
export function completeOperations(doc: Document): void {
  const seen = new Map<string, string>();
  const globalSecurity = (doc.security as unknown[] | undefined) ?? [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      op.operationId ??= derivedOperationId(method, path);
      const other = seen.get(op.operationId);
      if (other) throw new Error(`openapi: operationId ${op.operationId} of ${method} ${path} is also ${other}'s`);
      seen.set(op.operationId, `${method} ${path}`);
      const responses = (op.responses ??= {});
      responses["400"] ??= shared("BadRequest");
      responses["5XX"] ??= shared("ServerError");
      if ((op.security ?? globalSecurity).length > 0) {
        responses["401"] ??= shared("Unauthorized");
        responses["403"] ??= shared("Forbidden");
        responses["429"] ??= shared("RateLimited");
      }
      for (const [status, answer] of Object.entries(responses)) {
        if (/^[45]/.test(status) && !answer.$ref && !answer.content) answer.content = ERROR_CONTENT;
      }
    }
  }
}

/**
 * Every payload schema of domain/contract is generated; the ones no operation or other component refers to (a value
 * list used inline, a payload of a call answered in words) are left out of the served description.
 */
function dropUnreferenced(doc: Document, generated: string[]): void {
  const schemas = doc.components?.schemas ?? {};
  for (;;) {
    const { schemas: _, ...rest } = doc.components ?? {};
    const text = JSON.stringify([doc.paths, rest, Object.values(schemas)]);
    const unused = generated.filter((name) => name in schemas && !text.includes(`"#/components/schemas/${name}"`));
    if (!unused.length) return;
    for (const name of unused) delete schemas[name];
  }
}

let cached: Document | undefined;
/**
 * The contract, written as api/openapi.yaml (info, shared components, the first calls) plus one part
 * per resource family in api/openapi/*.yaml, with the request-body schemas generated from zod (api/openapi-zod.ts)
 * and what the shared middleware adds to every operation (completeOperations), served as JSON at /api/openapi.json.
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
  const generated = zodComponents();
  mergeContractPart(doc, { components: { schemas: generated } }, "api/openapi-zod.ts");
  applyAnswers(doc);
  dropUnreferenced(doc, Object.keys(generated));
  completeOperations(doc);
  return (cached = doc);
}
