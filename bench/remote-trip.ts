/**
 * The remote trip of a breaker, measured (issue 29 §1): command → gateway acknowledgement → state shown. Prints figures
 * (record them in bench/README.md by hand).
 *   npx tsx bench/remote-trip.ts               SQLite; BENCH_STORE=postgres for PostgreSQL
 *   BENCH_GATEWAYS (20), BENCH_COMMANDS (200)
 *
 * Against one real server process (build/server.mjs) and the machine's Mosquitto (127.0.0.1:1883): BENCH_GATEWAYS
 * gateways (tests/helpers/telemetry.ts fixtures: inverters, a VCB and an ACB each), each an MQTT client that, on a
 * command for its VCB, answers the result (command/result) and then reports the breaker's new state as a reading
 * (telemetry), as a real RTU does after it has switched. BENCH_COMMANDS commands one after the other on random
 * gateways, alternating open and close, as the admin through POST /api/command/hex; per command:
 *   - acknowledged: POST /api/command/hex answered with the gateway's result (the call waits for it);
 *   - shown: from the POST until GET /api/pvstatus/control shows the VCB in its new state (the state is the newest
 *     reading's, never the command's word), polled every 50 ms.
 * Commands reach a gateway over MQTT (or the simulator's in-process link); an HTTP-only gateway has no command
 * channel, so there is no HTTP-polling figure to give.
 * Not a test: nothing passes or fails.
 */
import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { openStore } from "../api/store/db";
import { ADMIN_PASSWORD, startServer, type StoreKind } from "../tests/helpers/server";
import { createGatewayFixture, type GatewayFixture } from "../tests/helpers/telemetry";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const GATEWAYS = Number(process.env.BENCH_GATEWAYS ?? 20);
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const BROKER = process.env.MQTT_URL ?? "mqtt://127.0.0.1:1883";

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (v: number) => v.toFixed(0);

async function main() {
  const prefix = `bench-${randomBytes(3).toString("hex")}`;
  const server = await startServer({
    store: STORE,
    env: { MQTT_URL: BROKER, MQTT_TOPIC_PREFIX: prefix, PORTAL_WORKERS: "0" },
    timeoutMs: 120_000,
  });
  const store = await openStore(server.databaseUrl);
  const clients: mqtt.MqttClient[] = [];
  try {
    const login = (await (
      await fetch(`${server.baseUrl}/api/member/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "10.9.9.9" },
        body: JSON.stringify({ id: "admin", password: ADMIN_PASSWORD }),
      })
    ).json()) as { accessToken?: string; data?: { accessToken?: string } };
    const token = login.accessToken ?? login.data?.accessToken;
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

    // The gateways: each switches its VCB when told, answers, then reports the new state as a reading.
    const gateways: GatewayFixture[] = [];
    for (let i = 0; i < GATEWAYS; i++) gateways.push(await createGatewayFixture(store));
    let batch = 0;
    for (const g of gateways) {
      const client = await mqtt.connectAsync(BROKER, { clientId: `gw-${randomBytes(4).toString("hex")}` });
      clients.push(client);
      await client.subscribeAsync(`${prefix}/${g.rtuUid}/command`, { qos: 1 });
      client.on("message", (_topic, payload) => {
        const cmd = JSON.parse(payload.toString()) as { seq: number; deviceUid: string; action: "on" | "off" };
        const state = cmd.action === "on" ? 1 : 0;
        void client
          .publishAsync(`${prefix}/${g.rtuUid}/command/result`, JSON.stringify({ seq: cmd.seq, ok: true, state }), { qos: 1 })
          .then(() =>
            client.publishAsync(
              `${prefix}/${g.rtuUid}/telemetry`,
              JSON.stringify({
                secret: g.secret,
                batchId: `b${batch++}`,
                readings: [{ device: cmd.deviceUid, ts: Date.now(), values: { v: 22_900, a: 1, w: 30_000, pf: 0.99, state } }],
              }),
              { qos: 1 },
            ),
          );
      });
    }
    // The portal's MQTT subscription is up once a telemetry message of the first gateway is stored.
    const first = gateways[0]!;
    for (let t = Date.now(); ;) {
      await clients[0]!.publishAsync(
        `${prefix}/${first.rtuUid}/telemetry`,
        JSON.stringify({
          secret: first.secret,
          batchId: `warm${Date.now()}`,
          readings: [{ device: first.vcb, ts: Date.now(), values: { v: 22_900, a: 1, w: 30_000, pf: 0.99, state: 1 } }],
        }),
        { qos: 1 },
      );
      const row = await store.db.selectFrom("device_latest").select("ts").where("device_uid", "=", first.vcb).executeTakeFirst();
      if (row) break;
      if (Date.now() - t > 60_000) throw new Error("the portal did not take telemetry over MQTT within 60 s");
      await new Promise((r) => setTimeout(r, 500));
    }

    const stateShown = async (g: GatewayFixture): Promise<number | null> => {
      const res = await fetch(`${server.baseUrl}/api/pvstatus/control?plant=${g.plantUid}`, { headers: auth });
      const body = (await res.json()) as { plants: Array<{ devices: Array<{ uid: string; state: number | null }> }> };
      return body.plants[0]?.devices.find((d) => d.uid === g.vcb)?.state ?? null;
    };

    const acked: number[] = [];
    const shown: number[] = [];
    let failed = 0;
    const last = new Map<string, number>();
    for (let i = 0; i < COMMANDS; i++) {
      const g = gateways[Math.floor(Math.random() * gateways.length)]!;
      const next = (last.get(g.vcb) ?? 0) === 1 ? 0 : 1;
      const t0 = performance.now();
      const res = await fetch(`${server.baseUrl}/api/command/hex`, {
        method: "POST",
        headers: { ...auth, "idempotency-key": randomBytes(8).toString("hex") },
        body: JSON.stringify({
          deviceType: 7,
          rtuUid: g.rtuUid,
          deviceUid: g.vcb,
          ch: 0,
          ...(next ? { hexOn: "0x0001" } : { hexOff: "0x0000" }),
        }),
      });
      const out = (await res.json()) as { status?: string };
      if (out.status !== "done") {
        failed++;
        continue;
      }
      acked.push(performance.now() - t0);
      for (;;) {
        if ((await stateShown(g)) === next) break;
        if (performance.now() - t0 > 30_000) throw new Error(`state ${next} of ${g.vcb} not shown within 30 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
      shown.push(performance.now() - t0);
      last.set(g.vcb, next);
    }
    acked.sort((a, b) => a - b);
    shown.sort((a, b) => a - b);
    const report = {
      "command → gateway acknowledgement (POST answered), p50 / p99 / max (ms)": `${ms(pct(acked, 50))} / ${ms(pct(acked, 99))} / ${ms(acked.at(-1)!)}`,
      "command → new state shown on the control call, p50 / p99 / max (ms)": `${ms(pct(shown, 50))} / ${ms(pct(shown, 99))} / ${ms(shown.at(-1)!)}`,
      "commands (not done)": `${COMMANDS} (${failed})`,
    };
    console.log(report);
    console.log(`| ${STORE}, MQTT, ${GATEWAYS} gateways | |\n|---|---|`);
    for (const [k, v] of Object.entries(report)) console.log(`| ${k} | ${v} |`);
  } finally {
    for (const c of clients) await c.endAsync().catch(() => undefined);
    await store.close();
    await server.stop();
  }
}

await main();
