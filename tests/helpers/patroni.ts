/**
 * A Patroni cluster of the test's own, made with the Debian packages and the repository's own deploy/ files:
 * one etcd, two PostgreSQL nodes each run by Patroni (deploy/patroni.yml, per-node settings in the environment as
 * its header says) and HAProxy routing to the leader by Patroni's REST check (deploy/haproxy-postgres.cfg). All
 * in a temporary folder, on free ports of TEST_DB_PORT_RANGE (default 3500–3599), never the machine's PostgreSQL or
 * etcd. Readiness is waited for on the services themselves (etcd's /health, Patroni's /cluster, a query through
 * the balancer); stop() ends only the processes started here.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { parse, stringify } from "yaml";
import { dbPorts, postgresBinDir } from "./cluster";
import { REPO_ROOT, freePort } from "./server";
import { waitFor } from "./wait";

export interface PatroniNode {
  name: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
  process: ChildProcess;
}

/** One member as Patroni's GET /cluster lists it. */
export interface PatroniMember {
  name: string;
  role: "leader" | "sync_standby" | "replica" | string;
  state: string;
  lag?: number | string;
  timeline?: number;
}

export interface PatroniCluster {
  nodes: PatroniNode[];
  /** `postgres://postgres:…@balancer/postgres`: the leader, whichever node it is. */
  adminUrl: string;
  /** The same database as `url` (a database URL through the balancer's primary port), on the replica port. */
  replicaUrl(url: string): string;
  members(): Promise<PatroniMember[]>;
  /** The node that holds the leader key now. */
  leader(): Promise<PatroniNode>;
  /** Waits until one node leads and the other streams as its synchronous standby. */
  synchronous(ms?: number): Promise<{ leader: PatroniNode; standby: PatroniNode }>;
  /** The PID of a node's postmaster (its postmaster.pid), or null when it is not running. */
  postmasterPid(node: PatroniNode): number | null;
  /** Everything etcd, Patroni and HAProxy printed. */
  log(): string;
  stop(): Promise<void>;
}

/** Why a Patroni cluster cannot be made on this machine, or null when it can. */
export function patroniMissing(): string | null {
  for (const [cmd, pkg] of [
    ["patroni", "patroni"],
    ["etcd", "etcd-server"],
    ["haproxy", "haproxy"],
  ] as const) {
    if (spawnSync(cmd, ["--version"]).error && spawnSync(cmd, ["-v"]).error)
      return `${cmd} is not installed (apt-get install ${pkg})`;
  }
  if (!postgresBinDir()) return "no PostgreSQL binaries under /usr/lib/postgresql/*/bin";
  if (process.getuid?.() === 0 && spawnSync("id", ["-u", "postgres"]).status !== 0)
    return "running as root without a postgres user to run PostgreSQL as";
  return null;
}

async function getJson<T>(url: string): Promise<T | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? ((await res.json()) as T) : null;
  } catch {
    return null;
  }
}

export async function startPatroniCluster(): Promise<PatroniCluster> {
  const bin = postgresBinDir()!;
  const dir = mkdtempSync(path.join(os.tmpdir(), "portal-patroni-"));
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot
    ? {
        uid: Number(spawnSync("id", ["-u", "postgres"]).stdout.toString().trim()),
        gid: Number(spawnSync("id", ["-g", "postgres"]).stdout.toString().trim()),
      }
    : null;
  // PostgreSQL refuses to run as root: Patroni (and so PostgreSQL) runs as the postgres user that Debian's package made.
  const own = (p: string) => ids && chownSync(p, ids.uid, ids.gid);
  own(dir);
  chmodSync(dir, 0o755);
  const chosen = new Set<number>();
  const port = async () => {
    for (;;) {
      const p = await freePort(...dbPorts());
      if (!chosen.has(p)) return (chosen.add(p), p);
    }
  };
  const output: Record<string, string> = {};
  const processes: Array<{ name: string; child: ChildProcess }> = [];
  const launch = (name: string, cmd: string, args: string[], env: Record<string, string>, asPostgres: boolean) => {
    const argv =
      asPostgres && ids ? ["setpriv", `--reuid=${ids.uid}`, `--regid=${ids.gid}`, "--init-groups", cmd, ...args] : [cmd, ...args];
    // setpriv replaces itself with the command: the PID is the command's own.
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: dir,
      env: { ...process.env, HOME: dir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    output[name] = "";
    const keep = (b: Buffer) => (output[name] = (output[name]! + b.toString()).slice(-200_000));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    processes.push({ name, child });
    return child;
  };
  const log = () =>
    Object.entries(output)
      .map(([name, text]) => `--- ${name}\n${text}`)
      .join("\n");
  const stop = async () => {
    const exited = (c: ChildProcess) =>
      c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once("exit", () => r()));
    // Patroni first (it stops its PostgreSQL), then the balancer and etcd.
    const patronis = processes.filter((p) => p.name.startsWith("patroni")).map((p) => p.child);
    const others = processes.filter((p) => !p.name.startsWith("patroni")).map((p) => p.child);
    await Promise.all(
      patronis.map(async (c) => {
        c.kill("SIGTERM");
        const timer = setTimeout(() => c.kill("SIGKILL"), 20_000);
        await exited(c);
        clearTimeout(timer);
      }),
    );
    // A postmaster Patroni left behind (it was killed before it could stop it): ended by its own PID file.
    for (const node of nodes) {
      const pid = postmasterPid(node);
      if (pid) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
    }
    for (const c of others) c.kill("SIGTERM");
    await Promise.all(others.map(exited));
    rmSync(dir, { recursive: true, force: true });
  };
  const nodes: PatroniNode[] = [];
  const postmasterPid = (node: PatroniNode): number | null => {
    const file = path.join(node.dataDir, "postmaster.pid");
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
    if (!pid) return null;
    // Only a live postmaster of this node's data directory (a stale file's PID may belong to anyone now).
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(node.dataDir) ? pid : null;
    } catch {
      return null;
    }
  };

  try {
    // etcd, one member (production runs three: README).
    const [etcdClient, etcdPeer] = [await port(), await port()];
    const etcdDir = path.join(dir, "etcd");
    launch(
      "etcd",
      "etcd",
      [
        "--name=e1",
        `--data-dir=${etcdDir}`,
        `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
        `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
        `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
        `--initial-cluster=e1=http://127.0.0.1:${etcdPeer}`,
        "--initial-cluster-state=new",
      ],
      {},
      false,
    );
    await waitFor(async () => (await getJson<{ health: string }>(`http://127.0.0.1:${etcdClient}/health`))?.health === "true", {
      ms: 30_000,
      every: 100,
      failure: () => `etcd did not become healthy:\n${log()}`,
    });

    // The repository's Patroni file; what a test needs besides (its own socket folder) is set on a copy.
    const config = parse(readFileSync(path.join(REPO_ROOT, "deploy/patroni.yml"), "utf8")) as {
      postgresql: { parameters: Record<string, unknown> };
    };
    config.postgresql.parameters.unix_socket_directories = dir;
    const configFile = path.join(dir, "patroni.yml");
    writeFileSync(configFile, stringify(config));
    const superPassword = randomBytes(12).toString("hex");
    for (const name of ["pg1", "pg2"]) {
      const [pgPort, apiPort] = [await port(), await port()];
      const dataDir = path.join(dir, name);
      const env = {
        PATRONI_NAME: name,
        PATRONI_RESTAPI_LISTEN: `127.0.0.1:${apiPort}`,
        PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${apiPort}`,
        PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${pgPort}`,
        PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${pgPort}`,
        PATRONI_POSTGRESQL_DATA_DIR: dataDir,
        PATRONI_POSTGRESQL_BIN_DIR: bin,
        PATRONI_POSTGRESQL_PGPASS: path.join(dir, `pgpass-${name}`),
        PATRONI_ETCD3_HOSTS: `'127.0.0.1:${etcdClient}'`,
        PATRONI_SUPERUSER_USERNAME: "postgres",
        PATRONI_SUPERUSER_PASSWORD: superPassword,
        PATRONI_REWIND_USERNAME: "postgres",
        PATRONI_REWIND_PASSWORD: superPassword,
        PATRONI_REPLICATION_USERNAME: "replicator",
        PATRONI_REPLICATION_PASSWORD: randomBytes(12).toString("hex"),
      };
      const child = launch(`patroni ${name}`, "patroni", [configFile], env, true);
      nodes.push({ name, pgPort, apiPort, dataDir, process: child });
      // The first bootstraps (initdb) before the second starts, so that the second is its replica.
      if (name === "pg1")
        await waitFor(
          async () => (await getJson<{ role?: string; state?: string }>(`http://127.0.0.1:${apiPort}/primary`)) !== null,
          {
            ms: 60_000,
            every: 200,
            failure: () => `the first Patroni node did not become primary:\n${log()}`,
          },
        );
    }

    const [primaryPort, replicaPort] = [await port(), await port()];
    launch(
      "haproxy",
      "haproxy",
      ["-f", path.join(REPO_ROOT, "deploy/haproxy-postgres.cfg"), "-db"],
      {
        PG_PRIMARY_BIND: `127.0.0.1:${primaryPort}`,
        PG_REPLICA_BIND: `127.0.0.1:${replicaPort}`,
        ...Object.fromEntries(
          nodes.flatMap((n, i) => [
            [`PG_NODE_${i + 1}`, `127.0.0.1:${n.pgPort}`],
            [`PG_NODE_${i + 1}_API`, String(n.apiPort)],
          ]),
        ),
      },
      false,
    );
    const adminUrl = `postgres://postgres:${superPassword}@127.0.0.1:${primaryPort}/postgres`;

    const members = async (): Promise<PatroniMember[]> => {
      for (const n of nodes) {
        const c = await getJson<{ members: PatroniMember[] }>(`http://127.0.0.1:${n.apiPort}/cluster`);
        if (c) return c.members;
      }
      return [];
    };
    const byName = (name: string) => nodes.find((n) => n.name === name)!;
    const cluster: PatroniCluster = {
      nodes,
      adminUrl,
      replicaUrl: (url) => {
        const u = new URL(url);
        u.port = String(replicaPort);
        return u.toString();
      },
      members,
      async leader() {
        const m = await waitFor(async () => (await members()).find((x) => x.role === "leader" && x.state === "running"), {
          ms: 60_000,
          every: 200,
          failure: () => `no running leader:\n${log().slice(-6_000)}`,
        });
        return byName(m.name);
      },
      async synchronous(ms = 90_000) {
        const pair = await waitFor(
          async () => {
            const list = await members();
            const leader = list.find((x) => x.role === "leader" && x.state === "running");
            const standby = list.find((x) => x.role === "sync_standby" && (x.state === "streaming" || x.state === "running"));
            return leader && standby ? { leader: byName(leader.name), standby: byName(standby.name) } : null;
          },
          { ms, every: 200, failure: () => `no leader with a synchronous standby:\n${log().slice(-8_000)}` },
        );
        return pair;
      },
      postmasterPid,
      log,
      stop,
    };
    await cluster.synchronous();
    // Through the balancer, to the leader.
    await waitFor(
      async () => {
        const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
        try {
          await client.connect();
          const r = await client.query<{ ro: boolean }>("select pg_is_in_recovery() as ro");
          return r.rows[0]?.ro === false;
        } catch {
          return false;
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      { ms: 30_000, every: 200, failure: () => `the balancer does not reach the leader:\n${log().slice(-6_000)}` },
    );
    return cluster;
  } catch (error) {
    const text = log();
    await stop();
    throw new Error(`${(error as Error).message}\n${text.slice(-4_000)}`, { cause: error });
  }
}
