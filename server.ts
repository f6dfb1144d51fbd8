/**
 * Composition root. One process (the primary) owns the store and the data plane: config, migrations,
 * seed, the /api service, ingest (HTTP and MQTT), alarms and the simulator. Page rendering runs in
 * PORTAL_WORKERS portal processes (default: one per core) that share the public port through
 * node:cluster, serve the static files and the Remix portal, and pass /api on to the primary. The
 * portal talks to the API only over HTTP, so this split changes nothing in either; it only lets
 * server-side rendering use every core. PORTAL_WORKERS=0 runs everything in one process.
 *
 *   browser / gateway ──► portal worker (public port) ──► /api ──► primary (127.0.0.1, private port)
 *                               └─ Remix loaders ───────────────┘
 */
import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express, { type RequestHandler } from "express";
import { waitForAssets } from "./build-ready";
import { loadConfig, type Config } from "./config";
import { publicOrigins } from "./app/utils/env.server";
import { GUEST_PASSWORD } from "./domain/guest";
import type { GatewayLink } from "./api/telemetry/commands";

/** Portal processes that end before listening this many times in a row stop the server. */
const MAX_FAILED_PORTAL_STARTS = 5;
/** Exit code of a portal process that cannot take the public port: the primary stops instead of retrying. */
const EXIT_PORT_UNAVAILABLE = 78;

const started = Date.now();
const config = loadConfig();
// The portal's loaders find their secrets through the environment.
process.env.SESSION_SECRET = config.sessionSecret;
// React and Express pick their production paths from NODE_ENV when first loaded (the build is imported
// below): without it a plain `npm start` would render every page with React's development build.
process.env.NODE_ENV = config.nodeEnv;

/**
 * Headers and request log shared by both roles. `trustProxy` decides whose X-Forwarded-For names the
 * client (req.ip, used by the login throttle): on the public port only the configured proxies
 * (TRUST_PROXY, default none); on the private API port the portal's own processes on loopback, which
 * pass on the address they worked out themselves.
 */
function baseApp(trustProxy: Config["trustProxy"] | "loopback"): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy);
  app.use((_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    next();
  });
  if (config.logRequests) {
    app.use((req, res, next) => {
      const t = performance.now();
      res.on("finish", () =>
        console.log(`${req.method} ${req.originalUrl} ${res.statusCode} ${(performance.now() - t).toFixed(1)}ms`),
      );
      next();
    });
  }
  return app;
}

/** The public side: /api (in-process or passed on to the primary), static files, the Remix portal. */
async function portalApp(api: RequestHandler, health?: RequestHandler): Promise<express.Express> {
  const { portalLoadContext } = await import("./app/auth/load-context.server");
  const { oneRequest } = await import("./app/models/api.server");
  // Answer nothing before the build this process serves is complete (a page without its stylesheet).
  await waitForAssets("build/index.js", "/build/", "public/build");
  const build = (await import(path.resolve("build/index.js"))) as ServerBuild;
  const app = baseApp(config.trustProxy);
  if (health) app.get("/api/health", health);
  app.use("/api", api);
  // The browser build: fingerprinted files, kept by browsers for a year, sent as the .br or .gz compress-assets.mjs
  // made at build (by Accept-Encoding; Vary says so), never compressed per request. A missing asset is a plain 404,
  // never a page rendered in its place.
  app.use(
    "/build",
    expressStaticGzip("public/build", {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", fallthrough: false },
    }),
  );
  app.use(compression());
  app.use(
    "/uploads",
    express.static(path.join(config.dataDir, "uploads"), {
      maxAge: "1h",
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox"),
    }),
  );
  // The other files at the top of public/ (the favicon), by name, listed once at start: a page request
  // costs no file lookup. Folders other than build/ are not served.
  const publicFiles = new Set(
    existsSync("public")
      ? readdirSync("public", { withFileTypes: true })
          .filter((f) => f.isFile() || f.isSymbolicLink())
          .map((f) => `/${encodeURIComponent(f.name)}`)
      : [],
  );
  // A missing file under /build or /uploads is a plain 404: no page in its place, no stack in the log.
  app.use(
    (
      error: { status?: number; statusCode?: number },
      _req: express.Request,
      res: express.Response,
      next: express.NextFunction,
    ) => {
      const status = error?.status ?? error?.statusCode;
      if (status === 404 || status === 403)
        res
          .status(status)
          .type("text/plain")
          .send(status === 404 ? "Not found" : "Forbidden");
      else next(error);
    },
  );
  const servePublic = express.static("public", { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
  // Loaded here, not at the top: the primary serves the portal only without portal processes, and every module a
  // process does not use is memory it keeps (the primary holds the API and its caches).
  const { createRequestHandler } = await import("@remix-run/express");
  const remix = createRequestHandler({ build, mode: build.mode, getLoadContext: (req, res) => portalLoadContext(req, res) });
  // Each request's loaders share their identical API calls (app/models/api.server.ts oneRequest).
  app.all("*", (req, res, next) => oneRequest(() => remix(req, res, next)));
  return app;
}

function listen(app: express.Express, port: number, host: string): Promise<import("node:http").Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, () => resolve(server));
    server.once("error", reject);
  });
}

/** One line for an operator when the public port cannot be taken; undefined for other errors. */
function portProblem(error: unknown, port: number, host: string): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE")
    return `Port ${port} on ${host} is already in use: stop the other server or set PORT to a free port.`;
  if (code === "EACCES") return `Port ${port} on ${host} needs more privileges: set PORT to a port above 1023.`;
  if (code === "EADDRNOTAVAIL") return `HOST ${host} is not an address of this machine: set HOST (default 0.0.0.0).`;
  return undefined;
}

/** Listens on the public port, or prints one line naming the problem and exits. */
async function listenPublic(app: express.Express, cfg: Config, exitCode: number): Promise<import("node:http").Server> {
  try {
    return await listen(app, cfg.port, cfg.host);
  } catch (error) {
    const line = portProblem(error, cfg.port, cfg.host);
    if (!line) throw error;
    console.error(line);
    process.exit(exitCode);
  }
}

if (cluster.isWorker) await runPortalWorker(config);
else await runPrimary(config);

async function runPortalWorker(cfg: Config) {
  const target = process.env.API_URL!;
  // Gateways, the detail window and other API clients reach /api through here; the body streams on.
  // The client address passed on is the one this process worked out (req.ip under TRUST_PROXY), not
  // whatever X-Forwarded-For the client sent.
  const { createProxyMiddleware } = await import("http-proxy-middleware");
  const { eventLoopMonitor } = await import("./api/cluster/event-loop");
  eventLoopMonitor({ name: "portal process", log: (m) => console.log(`  ${m}`) });
  const proxy = createProxyMiddleware({
    target: `${target}/api`,
    proxyTimeout: 120_000,
    on: {
      proxyReq: (proxyReq, req) => proxyReq.setHeader("x-forwarded-for", (req as express.Request).ip ?? ""),
      // The API process is gone or did not answer: the API's one error shape (api/openapi.yaml ServerError), not the
      // proxy's default plain text without a content type. 504 when it could not be reached, 502 otherwise.
      error: (err, _req, res) => {
        if (!("writeHead" in res)) return void res.destroy();
        if (res.headersSent) return void res.end();
        const code = (err as NodeJS.ErrnoException).code ?? "";
        const unreachable = ["ECONNRESET", "ENOTFOUND", "ECONNREFUSED", "ETIMEDOUT"].includes(code);
        res.writeHead(unreachable ? 504 : 502, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ message: "api_unavailable" }));
      },
    },
  });
  const server = await listenPublic(await portalApp(proxy), cfg, EXIT_PORT_UNAVAILABLE);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", () => undefined); // the primary decides; Ctrl-C reaches every process of the group
}

/** Whether the public port can be taken now (checked before the store is opened, to fail fast). */
function probePort(cfg: Config): Promise<void> {
  return new Promise((resolve) => {
    const probe = express().listen(cfg.port, cfg.host, () => probe.close(() => resolve()));
    probe.once("error", (error) => {
      console.error(
        portProblem(error, cfg.port, cfg.host) ?? `Cannot listen on ${cfg.host}:${cfg.port}: ${(error as Error).message}`,
      );
      process.exit(1);
    });
  });
}

async function runPrimary(cfg: Config) {
  await probePort(cfg);
  const { createApi } = await import("./api/index");
  const { openStore } = await import("./api/store/db");
  const { seedFoundation } = await import("./api/store/seed");
  const { acceleratedClock } = await import("./api/clock");
  const { GatewayEmulator } = await import("./api/sim/gateway-emulator");
  const { seedDemoFleet } = await import("./api/sim/fleet");
  const { ensureMonthlyPartitions, partitionMaintenance, describePartitioning } = await import("./api/store/partitions");
  const { Singletons } = await import("./api/cluster/singletons");
  const { rollupMaintenance } = await import("./api/telemetry/rollup-maintenance");
  const { healthHandler } = await import("./api/cluster/health");
  const { eventLoopMonitor } = await import("./api/cluster/event-loop");
  const { ClusterSignals } = await import("./api/cluster/signals");
  const { commandRelay } = await import("./api/cluster/command-relay");
  const { SIMULATED_RTU_KIND } = await import("./api/sim/fleet");
  const { reportScheduler } = await import("./api/statistics/scheduler");

  // A database that is not there yet (starting together with this server, restarting) is waited for.
  let store: Awaited<ReturnType<typeof openStore>>;
  for (let attempt = 1; ; attempt++) {
    try {
      store = await openStore(cfg.databaseUrl);
      break;
    } catch (error) {
      if (cfg.databaseUrl.startsWith("file:") || attempt >= 60) throw error;
      console.error(`database not reachable (${(error as Error).message}); retrying in 2 s`);
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
  const log = (m: string, e?: unknown) => (e === undefined ? console.log(m) : console.error(m, e));
  // Singleton work (alarm engine, maintenance, simulator, …) runs on one server at a time (api/cluster).
  const singletons = new Singletons(store, {
    serverId: cfg.serverId,
    databaseUrl: store.dialect === "postgres" ? cfg.databaseUrl : undefined,
    log: (m) => console.log(m),
  });

  const signals = new ClusterSignals(store, { serverId: cfg.serverId, databaseUrl: cfg.databaseUrl });
  const clock = acceleratedClock(cfg.simSpeed);
  // Servers starting together seed one after the other.
  const seeded = await singletons.exclusive(async () => {
    const result = await seedFoundation(store, { adminPassword: cfg.adminPassword });
    if (store.dialect === "postgres") {
      await ensureMonthlyPartitions(store, clock.now() - 400 * 86_400_000, clock.now() + 62 * 86_400_000);
    }
    if (cfg.simulate && (await seedDemoFleet(store)))
      console.log("  Demo fleet created (36 plants, members demo_l0 … demo_l9 / demo1234!)");
    return result;
  });
  // The demo fleet's camera (assigned below, once the API is there).
  let demoCamera: { url: string; close(): Promise<void> } | null = null;
  const {
    router: api,
    ingest,
    alarms,
    commands,
    outbox,
    cameras,
  } = createApi({
    store,
    clock,
    jwtSecret: cfg.jwtSecret,
    accessTokenTtl: cfg.accessTokenTtl,
    refreshTokenTtl: cfg.refreshTokenTtl,
    mapsKey: cfg.mapsKey,
    notify: {
      smtpUrl: cfg.smtpUrl,
      mailFrom: cfg.mailFrom,
      retryBaseMs: cfg.outboxRetryMs,
      portalUrl: publicOrigins({ PUBLIC_URL: process.env.PUBLIC_URL, PORT: String(cfg.port) })[0],
    },
    commandTimeoutMs: cfg.commandTimeoutMs,
    alarmsOwned: () => alarms.judgesAny,
    clusterNotices: store.dialect === "postgres" ? signals : undefined,
    cctv: {
      ffmpegPath: cfg.ffmpegPath,
      idleMs: cfg.cctvIdleMs,
      allowedNets: cfg.cctvAllowedNets,
      // The demo camera's test pattern is this server's own loopback listener, started below.
      trusted: (url) => !!demoCamera && url === demoCamera.url,
    },
  });
  // Readings committed here are announced to the other servers with their plants, and theirs to us: the alarm
  // engine's owner judges those plants (status rows are kept per plant through their own cache's notices).
  ingest.onIngest(({ plants }) => signals.changed(plants));
  signals.onRemoteChange((plants) => {
    if (!alarms.judgesAny) return;
    if (plants === null) return alarms.evaluateFleetSoon();
    alarms.notePlants(plants);
    alarms.evaluateSoon();
  });
  await signals.start();
  if (!cfg.smtpUrl)
    console.log("  Mail: SMTP_URL is not set; alert mails are kept in the outbox (delivery log on /setting/config/delivery)");

  // The simulator's history is played in before the alarm engine judges "now" (when both run here).
  let backfill: Promise<unknown> = Promise.resolve();
  // Whether the history is in (or played by another server of a cluster): until then the health answer says how far.
  let historyIn = !cfg.simulate;
  let emulator: InstanceType<typeof GatewayEmulator> | undefined;
  // The demo fleet's camera: a test pattern on loopback when ffmpeg is there (embedded store only).
  demoCamera =
    cfg.simulate && store.dialect === "sqlite"
      ? await (
          await import("./api/sim/demo-camera")
        )
          .startDemoCamera(store, cfg.ffmpegPath)
          .catch((e: Error) => (console.error(`  demo camera: ${e.message}`), null))
      : null;
  if (cfg.simulate) {
    // Commands to simulated RTUs reach the simulator of the server that runs it, from any server.
    const simulatorLink: GatewayLink = { reaches: (rtu) => !!emulator?.reaches(rtu), deliver: (c) => emulator!.deliver(c) };
    commands.addLink(simulatorLink);
    if (store.dialect === "postgres") {
      const simulated = new Set(
        (await store.db.selectFrom("rtu").select("uid").where("kind", "=", SIMULATED_RTU_KIND).execute()).map((r) => r.uid),
      );
      commands.addLink(commandRelay(store, signals, simulatorLink, { relayed: (rtu) => simulated.has(rtu), log }));
    }
    singletons.register({
      name: "simulator",
      async start() {
        const sim = new GatewayEmulator(store, ingest, clock, { historyDays: cfg.historyDays, log: (m) => console.log(m) });
        await sim.load();
        sim.onStep(async () => (alarms.judgesAny ? alarms.evaluate() : undefined));
        emulator = sim;
        const t = Date.now();
        backfill = sim
          .catchUp()
          .then((n) => {
            if (emulator !== sim) return;
            console.log(
              `  Simulator: ${n.toLocaleString("en")} readings of history played in ${((Date.now() - t) / 1000).toFixed(1)} s; live every ${(600 / cfg.simSpeed).toFixed(0)} s`,
            );
            sim.startLive();
          })
          .catch((e) => console.error("simulator backfill failed", e))
          .finally(() => (historyIn = true));
      },
      stop() {
        emulator?.stop();
        emulator = undefined;
      },
    });
  }
  // The alarm engine's work is split into shards by plant (domain/shard.ts), one lease each: the servers of a cluster
  // share them evenly and take a dead server's over within a poll; one server (SQLite) holds the one shard.
  const shardCount = store.dialect === "postgres" ? cfg.alarmShards : 1;
  alarms.shardInto(shardCount);
  const shardsOn = new Set<number>();
  for (let k = 0; k < shardCount; k++) {
    singletons.register({
      name: `alarm-engine/${k}`,
      group: "alarm-engine",
      start() {
        shardsOn.add(k);
        void backfill.then(() => {
          if (!shardsOn.has(k)) return;
          const first = !alarms.judgesAny;
          // Taken over (or started): the next pass judges the shard's every plant, batches heard by the last owner included.
          alarms.take(k);
          if (first) alarms.start(cfg.alarmIntervalMs);
        });
      },
      stop() {
        shardsOn.delete(k);
        alarms.give(k);
        if (!alarms.judgesAny) alarms.stop();
      },
    });
  }
  // The outbox worker is safe with two running (atomic claims), but one is enough.
  singletons.register({ name: "outbox", start: () => outbox.start(), stop: () => outbox.stop() });
  // Scheduled statistics reports: queued into the outbox once per period, on one server.
  singletons.register(reportScheduler(store, clock, { intervalMs: cfg.reportScheduleMs, log }));
  singletons.register(
    rollupMaintenance(store, clock, { intervalMs: Math.max(1_000, Math.min(60_000, 600_000 / cfg.simSpeed)), log }),
  );
  singletons.register(
    partitionMaintenance(store, clock, { retentionDays: cfg.rawRetentionDays, intervalMs: 6 * 3_600_000, log }),
  );

  let mqttBridge: import("./api/telemetry/mqtt").MqttBridge | undefined;
  if (cfg.mqttUrl) {
    // The MQTT client library is loaded only when a broker is configured.
    const { MqttBridge } = await import("./api/telemetry/mqtt");
    mqttBridge = new MqttBridge(
      cfg.mqttUrl,
      store,
      ingest,
      (m, e) => console.error(m, e ?? ""),
      `${cfg.mqttClientId}-${cfg.serverId}`,
      cfg.mqttTopicPrefix,
      {
        shareGroup: cfg.mqttShareGroup,
        sessionExpirySeconds: cfg.mqttSessionExpiry,
      },
    );
    await mqttBridge.start();
    commands.addLink(mqttBridge);
  }
  // Ready once the API answers (the line below); the simulator's history replay runs behind it.
  let ready = false;
  const health = healthHandler(store, singletons, {
    ready: () => ready && !stopping,
    eventLoop: eventLoopMonitor({ name: "primary", log: (m) => console.log(`  ${m}`) }),
    // From start until the history is in: what the portal's banner shows ("generating demo history 45 %").
    replay: () => (historyIn ? null : (emulator?.replayProgress() ?? { percent: 0 })),
    // Shown while this server holds an alarm shard's lease (its engine starts judging once the history is in).
    alarmEngine: () =>
      shardsOn.size > 0
        ? { passes: alarms.passes, batchesIn: alarms.batchesIn, batchesJudged: alarms.batchesJudged, shards: alarms.heldShards }
        : null,
  });

  let servers: Array<import("node:http").Server>;
  let stopping = false;
  // The API also listens on a private loopback port: the portal's loaders and processes call it there
  // and are the only callers whose X-Forwarded-For is trusted.
  const apiApp = baseApp("loopback");
  apiApp.use(compression());
  apiApp.get("/api/health", health);
  apiApp.use("/api", api);
  const apiServer = await listen(apiApp, 0, "127.0.0.1");
  const apiUrl = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
  if (cfg.portalWorkers === 0) {
    process.env.API_URL = cfg.apiUrl ?? apiUrl;
    servers = [apiServer, await listenPublic(await portalApp(api, health), cfg, 1)];
  } else {
    servers = [apiServer];
    const env = { API_URL: cfg.apiUrl ?? apiUrl };
    // A portal process that dies, while starting or later, is replaced; the store and the data plane live
    // on here. Portal processes that cannot start at all (a broken build, say) end the server instead of
    // being forked forever.
    let failedStarts = 0;
    const startPortal = (): Promise<void> =>
      new Promise((resolve) => {
        let listening = false;
        const worker = cluster.fork(env);
        worker.once("listening", () => {
          listening = true;
          failedStarts = 0;
          resolve();
        });
        worker.once("exit", (code, signal) => {
          if (stopping) return resolve();
          if (code === EXIT_PORT_UNAVAILABLE) {
            void shutdown("", 1);
            return resolve();
          }
          console.error(`portal process ${worker.process.pid} ended (${signal ?? code}); starting another`);
          if (!listening && ++failedStarts >= MAX_FAILED_PORTAL_STARTS) {
            console.error(`portal processes ended while starting ${failedStarts} times in a row; stopping`);
            void shutdown("portal processes cannot start", 1);
            return resolve();
          }
          // Whoever waits for this start (the server's own start) waits for the replacement.
          void startPortal().then(resolve);
        });
      });
    await Promise.all(Array.from({ length: cfg.portalWorkers }, startPortal));
  }

  const url = `http://localhost:${cfg.port}`;
  ready = true;
  const lines = [
    "",
    `  Solar portal ready in ${((Date.now() - started) / 1000).toFixed(1)} s — open ${url}` +
      (cfg.portalWorkers ? ` (${cfg.portalWorkers} portal process${cfg.portalWorkers > 1 ? "es" : ""})` : ""),
    `  Store: ${cfg.databaseUrl.startsWith("file:") ? cfg.databaseUrl : "PostgreSQL"}${seeded.created.length ? ` (created accounts: ${seeded.created.join(", ")})` : ""}`,
    `  Log in as admin / ${cfg.adminPasswordIsDefault ? cfg.adminPassword : "(ADMIN_PASSWORD)"}  or  guest / ${GUEST_PASSWORD} (read-only, the guest button)`,
  ];
  if (cfg.adminPasswordIsDefault) {
    lines.push("  WARNING: the admin password is the documented demo default. Set ADMIN_PASSWORD before real use.");
  }
  console.log(lines.join("\n") + "\n");
  console.log(
    `  Server ${cfg.serverId}: ${await describePartitioning(store).catch((e) => `partitions: unknown (${(e as Error).message})`)}`,
  );
  await singletons.start();
  // Another server of the cluster plays the history in: this one has no progress to tell.
  if (!singletons.owns("simulator")) historyIn = true;

  async function shutdown(signal: string, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    if (signal) console.log(`${signal}: shutting down`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    for (const s of servers) {
      s.close();
      s.closeAllConnections?.();
    }
    await mqttBridge?.stop().catch(() => undefined);
    cameras.stopAll();
    await demoCamera?.close();
    // Gives the leases up: another server takes the singleton work over at once.
    await singletons.stop();
    await signals.stop();
    await store.close();
    process.exit(exitCode);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
