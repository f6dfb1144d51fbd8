/**
 * Starts a REAL portal process for tests, as `npm start` runs it: plain node on `build/server.mjs`, compiled from the
 * current sources once per test process (build-server.mjs), serving the already-built portal in `build/`:
 * a free port in 3400–3499, a fresh data directory, and either a fresh SQLite file or a
 * fresh PostgreSQL database that is dropped again on stop().
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { buildServer } from "../../build-server.mjs";
import type { HealthAnswer } from "../../domain/contract/health";

export type StoreKind = "sqlite" | "postgres";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The PostgreSQL server used to create and drop throwaway databases. */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const ADMIN_PASSWORD = "admin1234!";

let bundle: Promise<string> | undefined;
/** The server compiled from the sources as they are when this process first asks (build/server.mjs). */
export const serverBundle = (): Promise<string> => (bundle ??= buildServer());

export interface TestServer {
  store: StoreKind;
  baseUrl: string;
  port: number;
  dataDir: string;
  /** `file:…/portal.db` or `postgres://…/portal_t_…` — open it with openStore for fixtures. */
  databaseUrl: string;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** Process id of the server (the primary; portal processes are its children). */
  pid: number;
  /** Sends a signal to the process at once (SIGKILL for crash tests) and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Stops the process; drops the database and removes the data directory unless keepData. */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  store?: StoreKind;
  /** A fixed port; otherwise a free one in 3400–3499. */
  port?: number;
  /** Extra environment (e.g. ACCESS_TOKEN_TTL, SIMULATE=1). */
  env?: Record<string, string>;
  /** Reuse the data directory and database of a server stopped with keepData (a restart). */
  reuse?: { dataDir: string; databaseUrl: string };
  timeoutMs?: number;
  /** Extra node options before the script, e.g. --cpu-prof (portal workers inherit them through node:cluster). */
  nodeArgs?: string[];
}

/**
 * Config variables of the portal that must never leak in from the calling shell: the known ones and
 * every key of config.ts's schema (read from its source, so variables added later are covered too).
 */
const CONFIG_KEYS = new Set([
  "PORT",
  "HOST",
  "DATA_DIR",
  "DATABASE_URL",
  "ADMIN_PASSWORD",
  "API_URL",
  "JWT_SECRET",
  "SESSION_SECRET",
  "DEMO",
  "SIMULATE",
  "SIM_SPEED",
  "MQTT_URL",
  "ACCESS_TOKEN_TTL",
  "REFRESH_TOKEN_TTL",
  "LOG_REQUESTS",
  "HISTORY_DAYS",
  "ALARM_INTERVAL_MS",
  "MQTT_CLIENT_ID",
  "MQTT_TOPIC_PREFIX",
  ...Array.from(readFileSync(path.join(REPO_ROOT, "config.ts"), "utf8").matchAll(/^\s+([A-Z][A-Z0-9_]+):\s*z\b/gm), (m) => m[1]!),
]);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** A free port in 3400–3499, starting at a random place so parallel runs rarely collide. */
/** The ports a suite's servers take by default: TEST_PORT_RANGE ("from-to"; the e2e suite sets its own), else 3400–3499. */
function defaultPorts(): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? "");
  return m ? [Number(m[1]), Number(m[2])] : [3400, 3499];
}

export async function freePort(from = defaultPorts()[0], to = defaultPorts()[1]): Promise<number> {
  const span = to - from + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = from + ((start + i) % span);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database; returns its URL and a function dropping it. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_t_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return pgDatabase(withDatabase(TEST_PG_URL, name));
}

function pgDatabase(url: string): { url: string; drop(): Promise<void> } {
  const name = new URL(url).pathname.slice(1);
  if (!/^portal_t_[0-9a-f]+$/.test(name)) throw new Error(`refusing to manage database ${name}`);
  return { url, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Waits for the server's health answer to say ready (GET /api/health: 200 once the API answers, 503 before; the
 * same check a load balancer makes). A try that gets no answer yet is not cut short: a loaded machine's slow
 * answer still counts, and only the start-up deadline ends the wait.
 */
async function waitUntilReady(
  child: ChildProcess,
  baseUrl: string,
  deadline: number,
  fail: (why: string, portTaken?: boolean) => Promise<never>,
): Promise<void> {
  const exited = new Promise<"exited">((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve("exited");
    child.once("exit", () => resolve("exited"));
  });
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return fail(`server did not answer on ${baseUrl} in time`);
    const answer = fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(left) })
      .then(async (res) => {
        const health = (await res.json().catch(() => null)) as HealthAnswer | null;
        // Another server (a suite running beside this one) listens on the port: this one is not the one answering.
        if (health && health.pid !== child.pid) return "another server" as const;
        return res.status === 200 && health?.ready ? ("ready" as const) : ("not yet" as const);
      })
      .catch(() => "not listening" as const);
    const outcome = await Promise.race([answer, exited]);
    if (outcome === "exited") return fail(`server exited early (code ${child.exitCode})`);
    if (outcome === "another server") return fail(`another server answers on ${baseUrl}`, true);
    if (outcome === "ready") return;
    // Not listening yet (connection refused comes back at once) or still starting: ask again shortly.
    await Promise.race([new Promise((r) => setTimeout(r, 100)), exited]);
  }
}

/** The port was taken by another process between choosing it and the server's listen (suites run side by side). */
class PortTaken extends Error {}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  // A port chosen here can be taken by a server of a suite running beside this one before ours listens: ours then
  // exits (EADDRINUSE) or the other answers the health check. Choose again, unless the caller named the port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(opts);
    } catch (e) {
      if (!(e instanceof PortTaken) || opts.port !== undefined || attempt >= 5) throw e;
    }
  }
}

async function startServerOnce(opts: StartOptions): Promise<TestServer> {
  const store = opts.store ?? "sqlite";
  if (!existsSync(path.join(REPO_ROOT, "build/index.js"))) {
    throw new Error("build/index.js is missing: run `npx remix build` first (tests/run-all.sh does)");
  }
  const port = opts.port ?? (await freePort());
  const dataDir = opts.reuse?.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `portal-test-${store}-`));
  const pgDb = store !== "postgres" ? null : opts.reuse ? pgDatabase(opts.reuse.databaseUrl) : await createPgDatabase();
  const databaseUrl = pgDb ? pgDb.url : `file:${path.join(dataDir, "portal.db")}`;

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of CONFIG_KEYS) delete env[key];
  Object.assign(env, {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    SIMULATE: "0",
    // Answers the portal shares between requests are frozen, so a change to one fails loudly (app/models/api.server.ts).
    FREEZE_SHARED: "1",
    // The tests stand in for a proxy on loopback: each client names its own address (apiClient), so
    // throttle counters are not shared between tests. TRUST_PROXY: "none" in `env` turns it off.
    TRUST_PROXY: "loopback",
    // A name of its own (the same across a restart with `reuse`): test servers running side by side on one machine
    // must not share an MQTT client id, or the broker drops one connection each time the other connects.
    SERVER_ID: `test-${path.basename(dataDir)}`,
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...opts.env,
  });

  let out = "";
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), "--enable-source-maps", await serverBundle()], {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (out += b.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  let stopped = false;
  // If the test process dies without stop(), take the server along instead of leaving it listening.
  const orphanGuard = () => {
    child.kill("SIGTERM");
  };
  process.once("exit", orphanGuard);
  const stop = async (stopOpts: { keepData?: boolean } = {}) => {
    if (stopped) return;
    stopped = true;
    process.off("exit", orphanGuard);
    child.kill("SIGTERM");
    if (!(await waitForExit(child, 8_000))) {
      child.kill("SIGKILL");
      await waitForExit(child, 2_000);
    }
    if (stopOpts.keepData) return;
    if (pgDb) await pgDb.drop().catch((e) => console.error("could not drop test database:", e));
    rmSync(dataDir, { recursive: true, force: true });
  };

  // TEST_SERVER_START_MS gives a loaded machine longer (keep it under the API project's hookTimeout).
  const deadline = Date.now() + (opts.timeoutMs ?? Number(process.env.TEST_SERVER_START_MS ?? 60_000));
  await waitUntilReady(child, baseUrl, deadline, async (why, portTaken) => {
    // A server started again on the data of an earlier one keeps that data whatever happens to this start.
    await stop({ keepData: !!opts.reuse });
    if (portTaken || /already in use/.test(out)) throw new PortTaken(`${why}:\n${out}`);
    throw new Error(`${why}:\n${out}`);
  });

  const kill = async (signal: NodeJS.Signals) => {
    child.kill(signal);
    await waitForExit(child, 5_000);
  };
  return { store, baseUrl, port, dataDir, databaseUrl, output: () => out, pid: child.pid!, stop, kill };
}
