/**
 * A real cluster for tests and the benchmark: N server processes (server.ts, one process each) on one
 * PostgreSQL database, HAProxy in front with the repository's own deploy/haproxy.cfg, and — for the
 * restart test — a private PostgreSQL instance made with the Debian binaries (initdb into a temporary
 * folder on a free port), so that restarting it disturbs nobody else's database.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { REPO_ROOT, freePort, startServer, type TestServer } from "./server";

export interface ClusterNode {
  id: string;
  port: number;
  dataDir: string;
  server: TestServer | null;
  /** Output of every incarnation of this server, in order. */
  logs: string[];
  starting: Promise<void> | null;
}

export interface Cluster {
  nodes: ClusterNode[];
  /** The balancer's address. */
  url: string;
  databaseUrl: string;
  up(): ClusterNode[];
  /** The servers HAProxy itself counts as UP now (its stats page), so as to kill only when another one serves. */
  balancerUp(): Promise<string[]>;
  kill(node: ClusterNode): Promise<void>;
  /** Starts the node again (resolves when it answers). */
  restart(node: ClusterNode): Promise<void>;
  /** Everything every server printed. */
  log(): string;
  stop(): Promise<void>;
}

export async function startCluster(opts: {
  databaseUrl: string;
  servers?: number;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const n = opts.servers ?? 3;
  // Every start of a server adds an exit listener (tests/helpers/server.ts); twenty restarts are expected here.
  process.setMaxListeners(Math.max(process.getMaxListeners(), 200));
  const env = {
    JWT_SECRET: randomBytes(32).toString("hex"),
    SESSION_SECRET: randomBytes(32).toString("hex"),
    PORTAL_WORKERS: "0",
    ...opts.env,
  };
  const nodes: ClusterNode[] = [];
  // Each server and the load balancer a port of its own: free ports are chosen before any of them listens, so the
  // same free port could otherwise be handed out twice (the second server then found the first on it).
  const chosen = new Set<number>();
  const distinctPort = async (): Promise<number> => {
    for (;;) {
      const port = await freePort();
      if (!chosen.has(port)) return (chosen.add(port), port);
    }
  };
  for (let i = 0; i < n; i++) {
    nodes.push({
      id: `s${i + 1}`,
      port: await distinctPort(),
      dataDir: mkdtempSync(path.join(os.tmpdir(), `portal-cluster-s${i + 1}-`)),
      server: null,
      logs: [],
      starting: null,
    });
  }
  const boot = (node: ClusterNode) =>
    (node.starting = (async () => {
      const server = await startServer({
        store: "postgres",
        port: node.port,
        reuse: { dataDir: node.dataDir, databaseUrl: opts.databaseUrl },
        env: { ...env, SERVER_ID: node.id },
        timeoutMs: 240_000,
      });
      node.server = server;
      node.logs.push("");
    })().finally(() => (node.starting = null)));
  // The first seeds the database; the others start together after it.
  await boot(nodes[0]!);
  await Promise.all(nodes.slice(1).map(boot));

  const lbPort = await distinctPort();
  // The repository's own configuration, with as many `server` lines as there are servers (3 in the file).
  const template = readFileSync(path.join(REPO_ROOT, "deploy/haproxy.cfg"), "utf8").split("\n");
  const serverLine = template.findIndex((l) => /^\s*server s3 /.test(l));
  const config = template
    .flatMap((l, i) =>
      i === serverLine
        ? Array.from({ length: Math.max(0, n - 2) }, (_, k) =>
            l.replaceAll("s3", `s${k + 3}`).replace("SERVER_3", `SERVER_${k + 3}`),
          )
        : [l],
    )
    .filter((l) => !/^\s*server s(\d+) /.test(l) || Number(/^\s*server s(\d+) /.exec(l)![1]) <= n);
  const configFile = path.join(nodes[0]!.dataDir, "haproxy.cfg");
  writeFileSync(configFile, config.join("\n"));
  const haproxy = spawn("haproxy", ["-f", configFile, "-db"], {
    env: {
      ...process.env,
      PORTAL_BIND: `127.0.0.1:${lbPort}`,
      ...Object.fromEntries(nodes.map((nd, i) => [`SERVER_${i + 1}`, `127.0.0.1:${nd.port}`])),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let lbOut = "";
  haproxy.stdout!.on("data", (b: Buffer) => (lbOut += b.toString()));
  haproxy.stderr!.on("data", (b: Buffer) => (lbOut += b.toString()));
  const url = `http://127.0.0.1:${lbPort}`;
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not yet listening
    }
    if (i > 100 || haproxy.exitCode !== null) throw new Error(`haproxy did not start:\n${lbOut}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  const collect = (node: ClusterNode) => {
    if (node.server) node.logs[node.logs.length - 1] = node.server.output();
  };
  return {
    nodes,
    url,
    databaseUrl: opts.databaseUrl,
    up: () => nodes.filter((nd) => nd.server && !nd.starting),
    async balancerUp() {
      const res = await fetch(`${url}/haproxy-stats;csv`, { signal: AbortSignal.timeout(5_000) });
      const lines = (await res.text()).split("\n");
      const header = lines[0]!.replace(/^# /, "").split(",");
      const [px, sv, st] = ["pxname", "svname", "status"].map((c) => header.indexOf(c));
      return lines
        .map((l) => l.split(","))
        .filter((f) => f[px!] === "servers" && f[sv!] !== "BACKEND" && f[st!] === "UP")
        .map((f) => f[sv!]!);
    },
    async kill(node) {
      const server = node.server;
      if (!server) return;
      node.server = null;
      await server.kill("SIGKILL");
      node.logs[node.logs.length - 1] = server.output();
    },
    restart: (node) => node.starting ?? boot(node),
    log() {
      nodes.forEach(collect);
      return (
        nodes.map((nd) => nd.logs.map((l, k) => `--- ${nd.id} #${k + 1}\n${l}`).join("\n")).join("\n") + `\n--- haproxy\n${lbOut}`
      );
    },
    async stop() {
      nodes.forEach(collect);
      haproxy.kill("SIGTERM");
      await Promise.all(
        nodes.map(async (nd) => {
          await nd.starting?.catch(() => undefined);
          await nd.server?.stop({ keepData: true });
          rmSync(nd.dataDir, { recursive: true, force: true });
        }),
      );
    },
  };
}

/** A PostgreSQL instance of this test's own (Debian's binaries), on a free port, in a temporary folder. */
export interface PrivatePostgres {
  port: number;
  adminUrl: string;
  start(): Promise<void>;
  /** Stops at once, as a crash would (the WAL brings committed work back at the next start). */
  stopImmediate(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * The ports of the tests' own database processes (a private PostgreSQL, a Patroni cluster's etcd, nodes and balancer):
 * TEST_DB_PORT_RANGE ("from-to"), else 3500–3599 — apart from the portal servers' TEST_PORT_RANGE.
 */
export function dbPorts(): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(process.env.TEST_DB_PORT_RANGE ?? "");
  return m ? [Number(m[1]), Number(m[2])] : [3500, 3599];
}

export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin/initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0]!, "bin") : null;
}

export async function privatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("no PostgreSQL binaries under /usr/lib/postgresql/*/bin");
  const dir = mkdtempSync(path.join(os.tmpdir(), "portal-pg-"));
  const data = path.join(dir, "data");
  mkdirSync(data);
  // PostgreSQL refuses to run as root: then it runs as the postgres user that Debian's package made.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(spawnSync("id", ["-u", "postgres"]).stdout.toString().trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"]).stdout.toString().trim());
    chownSync(dir, uid, gid);
    chownSync(data, uid, gid);
  }
  chmodSync(data, 0o700);
  const run = (args: string[]) => {
    const [cmd, ...rest] = asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args;
    const r = spawnSync(cmd!, rest, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stdout}\n${r.stderr}`);
  };
  run([path.join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-instructions"]);
  const port = await freePort(...dbPorts());
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=32MB`;
  const pgctl = (...args: string[]) => run([path.join(bin, "pg_ctl"), "-D", data, "-l", path.join(dir, "log"), ...args]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const instance: PrivatePostgres = {
    port,
    adminUrl,
    async start() {
      pgctl("-o", options, "-w", "start");
    },
    async stopImmediate() {
      pgctl("-m", "immediate", "-w", "stop");
    },
    async destroy() {
      try {
        pgctl("-m", "immediate", "-w", "stop");
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await instance.start();
  return instance;
}

/** A fresh database on the given server (named like the test helpers' throwaway databases). */
export async function createDatabaseOn(adminUrl: string): Promise<string> {
  const name = `portal_t_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export type { ChildProcess };
