/**
 * `npm test` stage "openapi lint" (issue 27): Redocly's recommended rules over the description the API serves at
 * /api/openapi.json — the YAML parts with the zod-generated components and the shared answers, as api/openapi.ts
 * assembles them — written to tests/.artifacts/openapi.json and linted with the project's redocly.yaml.
 * Errors fail the stage; warnings are printed. Runs offline (no telemetry, no update check).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openapiDocument } from "../api/openapi";
import { projectFile } from "../api/project-files";

const out = projectFile("tests", ".artifacts", "openapi.json");
mkdirSync(path.dirname(out), { recursive: true });
const doc = openapiDocument();
writeFileSync(out, JSON.stringify(doc, null, 1));

// Issue 27 point 1: how many operations say what their success answer is (a schema for every 2xx content, or a 204).
const responseOf = (r: { $ref?: string; content?: Record<string, { schema?: unknown }> }) =>
  r.$ref ? (doc.components?.responses?.[r.$ref.split("/").pop()!] as typeof r) : r;
let operations = 0;
const withoutSchema: string[] = [];
for (const [p, item] of Object.entries(doc.paths ?? {})) {
  for (const [method, op] of Object.entries(item as Record<string, { responses?: Record<string, never> }>)) {
    if (!["get", "put", "post", "delete", "patch"].includes(method)) continue;
    operations++;
    const ok = Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith("2"));
    const described = ok.every(([status, r]) => {
      const content = responseOf(r)?.content;
      return status === "204" || (content && Object.values(content).every((c) => c.schema));
    });
    if (!ok.length || !described) withoutSchema.push(`${method.toUpperCase()} ${p}`);
  }
}
console.log(`operations with success schema: ${operations - withoutSchema.length}/${operations}`);
if (withoutSchema.length) console.log(`  without: ${withoutSchema.join(", ")}`);
const run = spawnSync(
  projectFile("node_modules", ".bin", "redocly"),
  ["lint", out, "--config", projectFile("redocly.yaml"), "--format", "stylish", "--max-problems", "500"],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_NOTIFICATIONS: "true",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    },
  },
);
process.exit(run.status ?? 1);
