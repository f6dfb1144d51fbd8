/**
 * Lighthouse scores (issue 13's quality bar): performance, accessibility and best practices of /login, / and
 * /pvstatus, mobile and desktop, in Debian's Chromium, against a fresh server with the simulated demo fleet.
 *   npx tsx bench/lighthouse.ts            (needs `npx remix build` first)
 * Lighthouse is not a dependency of the project (its install pulled third-party-web@latest, so the lock file
 * went stale by itself and `npm ci` refused it): the script runs the pinned CLI through
 * `npx --yes lighthouse@<LIGHTHOUSE_VERSION>`, which npm fetches once into its cache. CHROMIUM_PATH overrides
 * /usr/bin/chromium. Prints the scores and records them in bench/README.md. Not a test: nothing passes or fails
 * (goal: ≥ 95 each).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ADMIN_PASSWORD, REPO_ROOT, startServer } from "../tests/helpers/server";

const LIGHTHOUSE_VERSION = process.env.LIGHTHOUSE_VERSION ?? "12.8.2";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PAGES = ["/login", "/", "/pvstatus"] as const;
const FORM_FACTORS = ["mobile", "desktop"] as const;
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;

type Scores = Record<(typeof CATEGORIES)[number], number | null>;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
  });
}

async function lighthouse(
  url: string,
  formFactor: (typeof FORM_FACTORS)[number],
  cookie: string | null,
  outDir: string,
): Promise<Scores> {
  const report = path.join(outDir, `lh-${formFactor}-${Math.random().toString(36).slice(2)}.json`);
  const args = [
    "--yes",
    `lighthouse@${LIGHTHOUSE_VERSION}`,
    url,
    "--quiet",
    "--output=json",
    `--output-path=${report}`,
    `--only-categories=${CATEGORIES.join(",")}`,
    "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run",
    ...(formFactor === "desktop" ? ["--preset=desktop"] : []),
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  const { code, out } = await run("npx", args, { ...process.env, CHROME_PATH: CHROMIUM });
  if (code !== 0 || !existsSync(report))
    throw new Error(`lighthouse ${url} (${formFactor}) exited ${code}:\n${out.slice(-2000)}`);
  const lhr = JSON.parse(readFileSync(report, "utf8")) as { categories: Record<string, { score: number | null }> };
  return Object.fromEntries(
    CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c]!.score! * 100)]),
  ) as Scores;
}

const server = await startServer({
  store: "sqlite",
  env: { ACCESS_TOKEN_TTL: "7200", SIMULATE: "1", HISTORY_DAYS: "2" },
  timeoutMs: 300_000,
});
const outDir = mkdtempSync(path.join(os.tmpdir(), "bench-lighthouse-"));
try {
  const login = await fetch(`${server.baseUrl}/api/member/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "admin", password: ADMIN_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const tokens = (await login.json()) as { accessToken: string; refreshToken: string; sessionId: string };
  // The app pop-up cookie keeps the promotion dialog away, as for a returning visitor.
  const cookie = `accessToken=${tokens.accessToken}; refreshToken=${tokens.refreshToken}; sessionId=${tokens.sessionId}; NewAppOpenPop=Y`;

  const rows: string[] = [];
  for (const page of PAGES) {
    for (const ff of FORM_FACTORS) {
      const scores = await lighthouse(`${server.baseUrl}${page}`, ff, page === "/login" ? null : cookie, outDir);
      const row = `| ${page} | ${ff} | ${CATEGORIES.map((c) => scores[c] ?? "–").join(" | ")} |`;
      console.log(row);
      rows.push(row);
    }
  }
  const table = ["| page | form factor | performance | accessibility | best practices |", "|---|---|---|---|---|", ...rows].join(
    "\n",
  );
  // Debian's chromium wrapper may print a shell warning before the version line.
  const chromium = (await run(CHROMIUM, ["--version"], process.env)).out
    .split("\n")
    .find((l) => /chromium/i.test(l) && /\d+\.\d+/.test(l))
    ?.trim();
  const section = [
    "<!-- lighthouse -->",
    `## Lighthouse (\`npx tsx bench/lighthouse.ts\`, ${new Date().toISOString().slice(0, 10)}, lighthouse ${LIGHTHOUSE_VERSION}, ${chromium || "Chromium"})`,
    "",
    table,
    "",
    "Goal: ≥ 95 in each column. Signed in as admin on a fresh SQLite store with the simulated demo fleet; the",
    "machine is shared, so performance scores move from run to run.",
    "<!-- /lighthouse -->",
  ].join("\n");
  const file = path.join(REPO_ROOT, "bench/README.md");
  let readme = readFileSync(file, "utf8");
  readme = /<!-- lighthouse -->[\s\S]*<!-- \/lighthouse -->/.test(readme)
    ? readme.replace(/<!-- lighthouse -->[\s\S]*<!-- \/lighthouse -->/, section)
    : `${readme.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, readme);
} finally {
  await server.stop();
  rmSync(outDir, { recursive: true, force: true });
}
process.exit(0);
