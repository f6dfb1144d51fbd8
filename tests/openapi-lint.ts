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
writeFileSync(out, JSON.stringify(openapiDocument(), null, 1));
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
