/**
 * Composition root: read config, open the store, run migrations, seed, mount /api,
 * mount the Remix portal, serve static files, start the simulator when asked, shut down cleanly.
 */
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { createApi } from "./api/index";
import { openStore } from "./api/store/db";
import { seedFoundation } from "./api/store/seed";
import { acceleratedClock } from "./api/clock";
import { GatewayEmulator } from "./api/sim/gateway-emulator";
import { seedDemoFleet } from "./api/sim/fleet";
import { ensureMonthlyPartitions } from "./api/store/partitions";
import { MqttBridge } from "./api/telemetry/mqtt";
import { loadConfig } from "./config";
import { GUEST_PASSWORD } from "./domain/guest";

const started = Date.now();
const config = loadConfig();
// The portal's loaders find the API and their secrets through the environment.
process.env.API_URL = config.apiUrl;
process.env.SESSION_SECRET = config.sessionSecret;

const store = await openStore(config.databaseUrl);
const seeded = await seedFoundation(store, { adminPassword: config.adminPassword });

const clock = acceleratedClock(config.simSpeed);
if (store.dialect === "postgres") {
  await ensureMonthlyPartitions(store, clock.now() - 400 * 86_400_000, clock.now() + 62 * 86_400_000);
}
const { router: api, ingest, alarms, commands } = createApi({
  store,
  clock,
  jwtSecret: config.jwtSecret,
  accessTokenTtl: config.accessTokenTtl,
  refreshTokenTtl: config.refreshTokenTtl,
  mapsKey: config.mapsKey,
});

let emulator: GatewayEmulator | undefined;
if (config.simulate) {
  if (await seedDemoFleet(store)) console.log("  Demo fleet created (36 plants, members demo_l0 … demo_l9 / demo1234!)");
  emulator = new GatewayEmulator(store, ingest, clock, { historyDays: config.historyDays, log: (m) => console.log(m) });
  await emulator.load();
  commands.addLink(emulator);
  emulator.onStep(() => alarms.evaluate());
}
let mqttBridge: MqttBridge | undefined;
if (config.mqttUrl) {
  mqttBridge = new MqttBridge(config.mqttUrl, store, ingest, (m, e) => console.error(m, e ?? ""), config.mqttClientId, config.mqttTopicPrefix);
  await mqttBridge.start();
  commands.addLink(mqttBridge);
}

const { portalLoadContext } = await import("./app/auth/load-context.server");
const build = (await import(path.resolve("build/index.js"))) as ServerBuild;

const app = express();
app.disable("x-powered-by");
// Loopback proxies (the portal's own loaders) may name the client address for throttling.
app.set("trust proxy", "loopback");
app.use(compression());
app.use((_req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Frame-Options", "SAMEORIGIN");
  next();
});
if (config.logRequests) {
  app.use((req, res, next) => {
    const t = performance.now();
    res.on("finish", () => console.log(`${req.method} ${req.originalUrl} ${res.statusCode} ${(performance.now() - t).toFixed(1)}ms`));
    next();
  });
}
app.use("/api", api);
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use("/uploads", express.static(path.join(config.dataDir, "uploads"), { maxAge: "1h", index: false, fallthrough: false, setHeaders: (res) => res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox") }));
app.use(express.static("public", { maxAge: "1h" }));
app.all(
  "*",
  createRequestHandler({
    build,
    mode: build.mode,
    getLoadContext: (req, res) => portalLoadContext(req, res),
  }),
);

const server = app.listen(config.port, config.host, () => {
  const url = `http://localhost:${config.port}`;
  const lines = [
    "",
    `  Solar portal ready in ${((Date.now() - started) / 1000).toFixed(1)} s — open ${url}`,
    `  Store: ${config.databaseUrl.startsWith("file:") ? config.databaseUrl : "PostgreSQL"}${seeded.created.length ? ` (created accounts: ${seeded.created.join(", ")})` : ""}`,
    `  Log in as admin / ${config.adminPasswordIsDefault ? config.adminPassword : "(ADMIN_PASSWORD)"}  or  guest / ${GUEST_PASSWORD} (read-only, the guest button)`,
  ];
  if (config.adminPasswordIsDefault) {
    lines.push("  WARNING: the admin password is the documented demo default. Set ADMIN_PASSWORD before real use.");
  }
  console.log(lines.join("\n") + "\n");
  if (emulator) {
    const t = Date.now();
    emulator
      .catchUp()
      .then((n) => {
        console.log(`  Simulator: ${n.toLocaleString("en")} readings of history played in ${((Date.now() - t) / 1000).toFixed(1)} s; live every ${(600 / config.simSpeed).toFixed(0)} s`);
        emulator!.startLive();
        alarms.start(config.alarmIntervalMs);
      })
      .catch((e) => console.error("simulator backfill failed", e));
  } else {
    alarms.start(config.alarmIntervalMs);
  }
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  server.close();
  server.closeAllConnections?.();
  emulator?.stop();
  alarms.stop();
  await mqttBridge?.stop().catch(() => undefined);
  await store.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
