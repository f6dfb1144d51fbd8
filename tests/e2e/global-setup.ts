/**
 * Starts one real portal for the whole e2e run: fresh SQLite file, simulator off, and an
 * access-token TTL of 8 s so that token renewal really happens during the run.
 * Workers find it through E2E_* environment variables (inherited from this process).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT, startServer } from "../helpers/server";

export const E2E_ACCESS_TOKEN_TTL = 8;

export default async function globalSetup() {
  // A shared, loaded machine can take minutes to start a server; CI is quicker.
  // Commands reach gateways over MQTT (the Mosquitto broker of this machine); a topic prefix of this run's own.
  const mqttPrefix = `e2e-${randomBytes(4).toString("hex")}`;
  // The API suite runs beside this one (tests/run-all.sh): its servers take ports of 3400–3499, these of their own.
  process.env.TEST_PORT_RANGE ??= "4400-4499";
  const server = await startServer({
    store: "sqlite",
    env: {
      ACCESS_TOKEN_TTL: String(E2E_ACCESS_TOKEN_TTL),
      MQTT_URL: process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883",
      MQTT_TOPIC_PREFIX: mqttPrefix,
      // The cameras of the specs are on loopback (test patterns, and a registered camera nobody plays): refused by the
      // outbound-address rule unless the operator lists them (README: CCTV_ALLOWED_NETS). No test reaches another address.
      CCTV_ALLOWED_NETS: "127.0.0.0/8",
    },
    timeoutMs: 180_000,
  });
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_DATABASE_URL = server.databaseUrl;
  process.env.E2E_ACCESS_TOKEN_TTL = String(E2E_ACCESS_TOKEN_TTL);
  process.env.E2E_MQTT_URL = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";
  process.env.E2E_MQTT_PREFIX = mqttPrefix;
  return async () => {
    const artifacts = path.join(REPO_ROOT, "tests/.artifacts");
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(path.join(artifacts, "e2e-server.log"), server.output());
    await server.stop();
  };
}
