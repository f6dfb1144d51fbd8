/**
 * Foundation figures: cold `npm start` time to first page, login p50, gzipped client JS of /login.
 *   npx tsx bench/foundation.ts
 * Prints figures and records them in bench/README.md. Not a test: nothing passes or fails.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { REPO_ROOT, freePort } from "../tests/helpers/server";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function coldStart(): Promise<{ toPageMs: number; url: string; stop: () => void; dataDir: string }> {
  const port = await freePort(3950, 3999);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-cold-"));
  const t = performance.now();
  // Exactly what a new user runs after `npm install`: `npm start` (remix build, then the server; demo fleet on).
  const child = spawn("npm", ["start"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir },
    stdio: "ignore",
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      const res = await fetch(`${url}/login`);
      await res.text();
      if (res.status === 200) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { toPageMs: performance.now() - t, url, dataDir, stop: () => process.kill(-child.pid!, "SIGTERM") };
}

async function loginTimes(url: string, n: number): Promise<number[]> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(`${url}/api/member/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `2001:db8::${i}` },
      body: JSON.stringify({ id: "admin", password: "admin1234!" }),
    });
    await res.text();
    if (res.status !== 200) throw new Error(`login ${res.status}`);
    xs.push(performance.now() - t);
  }
  return xs;
}

async function loginJs(url: string): Promise<{ files: number; rawKb: number; gzKb: number }> {
  const html = await (await fetch(`${url}/login`)).text();
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/build\/[^"]+\.js)"/g)) srcs.add(m[1]!);
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?["'](\/build\/[^"']+\.js)["']/g)) srcs.add(m[1]!);
  let raw = 0;
  let gz = 0;
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(`${url}${src}`)).arrayBuffer());
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  return { files: srcs.size, rawKb: raw / 1024, gzKb: gz / 1024 };
}

const cold = await coldStart();
try {
  const logins = await loginTimes(cold.url, 40);
  const js = await loginJs(cold.url);
  const rows = [
    [
      "Cold `npm start` (remix build + server, fresh data dir, demo on) to first /login page",
      `${(cold.toPageMs / 1000).toFixed(1)} s`,
    ],
    [
      "Login `POST /api/member/login` (argon2id 19 MiB, t=2), 40 sequential",
      `p50 ${median(logins).toFixed(0)} ms, p90 ${pct(logins, 0.9).toFixed(0)} ms`,
    ],
    [
      "Client JS of /login (all scripts the page loads)",
      `${js.files} files, ${js.rawKb.toFixed(0)} KB raw, ${js.gzKb.toFixed(1)} KB gzipped`,
    ],
  ];
  const table = ["| measure | figure |", "|---|---|", ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join("\n");
  console.log(table);
  const file = path.join(REPO_ROOT, "bench/README.md");
  const section = `<!-- foundation -->\n## Foundation (\`npx tsx bench/foundation.ts\`, ${new Date().toISOString().slice(0, 10)})\n\n${table}\n<!-- /foundation -->`;
  let readme = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  readme = /<!-- foundation -->[\s\S]*<!-- \/foundation -->/.test(readme)
    ? readme.replace(/<!-- foundation -->[\s\S]*<!-- \/foundation -->/, section)
    : `${readme.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, readme);
} finally {
  cold.stop();
  await new Promise((r) => setTimeout(r, 1000));
  rmSync(cold.dataDir, { recursive: true, force: true });
}
process.exit(0);
