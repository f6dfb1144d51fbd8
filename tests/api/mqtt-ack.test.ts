/**
 * MQTT ingest acknowledges a telemetry message (PUBACK) only after its batch is committed: a server that
 * dies with a batch in hand gets the message again from the broker when it comes back (same client id,
 * persistent session), and the batch is stored once. Real Mosquitto (127.0.0.1:1883), real PostgreSQL.
 *
 * The commit is held back by taking the per-RTU ingest lock (the advisory lock the writer takes) from the
 * test; while it is held the bridge's connection is cut, as a SIGKILL would.
 */
import mqtt from "mqtt";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallClock as systemClock } from "../../api/clock";
import { openStore, type Store } from "../../api/store/db";
import { seedFoundation } from "../../api/store/seed";
import { IngestService } from "../../api/telemetry/ingest";
import { MqttBridge } from "../../api/telemetry/mqtt";
import { uniqueId } from "../helpers/fixtures";
import { createPgDatabase } from "../helpers/server";
import { createGatewayFixture, type GatewayFixture } from "../helpers/telemetry";
import { waitFor } from "../helpers/wait";

/** Transactions of this database waiting for the RTU's ingest lock. */
const WAITING = `select count(*)::int as n from pg_locks l where l.locktype = 'advisory' and not l.granted
  and l.database = (select oid from pg_database where datname = current_database()) and l.classid = ${0x525455} and l.objid::int = hashtext($1)`;
const step = (m: string) => process.env.TEST_DEBUG && console.log(new Date().toISOString(), m);
const BROKER = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";

describe("MQTT PUBACK after commit", () => {
  let db: { url: string; drop(): Promise<void> };
  let store: Store;
  let g: GatewayFixture;
  beforeAll(async () => {
    db = await createPgDatabase();
    store = await openStore(db.url);
    await seedFoundation(store, { adminPassword: "admin1234!" });
    g = await createGatewayFixture(store, { inverters: 2 });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it("a batch whose server dies before the commit is delivered again and stored once", async () => {
    const prefix = `test/${uniqueId("ack")}`;
    const clientId = uniqueId("bridge");
    const share = { shareGroup: uniqueId("grp"), sessionExpirySeconds: 120 };
    const ingest = new IngestService(store, systemClock);
    const log = () => undefined;
    const gateway = await mqtt.connectAsync(BROKER, { protocolVersion: 5, clientId: uniqueId("gw") });
    const acks: any[] = [];
    await gateway.subscribeAsync(`${prefix}/${g.rtuUid}/ack`, { qos: 1 });
    gateway.on("message", (_t, payload) => acks.push(JSON.parse(payload.toString())));
    const lock = new pg.Client({ connectionString: db.url });
    await lock.connect();
    const first = new MqttBridge(BROKER, store, ingest, log, clientId, prefix, share);
    let second: MqttBridge | undefined;
    try {
      await first.start();
      step("first started");
      // Hold the RTU's ingest lock: the bridge's transaction will wait for it, uncommitted.
      await lock.query("select pg_advisory_lock($1, hashtext($2))", [0x525455, g.rtuUid]);
      const ts = Date.now() - (Date.now() % 600_000);
      const readings = g.inverters.map((device, i) => ({ device, ts, values: { iw: 1000 + i, today_wh: 10, total_wh: 1e6 } }));
      await gateway.publishAsync(
        `${prefix}/${g.rtuUid}/telemetry`,
        JSON.stringify({ secret: g.secret, batchId: "b1", readings }),
        { qos: 1 },
      );
      step("published");
      // The bridge has the message and waits on the lock.
      await waitFor(
        async () => {
          const r = await lock.query(WAITING, [g.rtuUid]);
          return r.rows[0].n > 0;
        },
        { ms: 10_000 },
      );

      step("first waits");
      // The server dies: its connection to the broker is cut before any PUBACK could be sent.
      const client = (first as unknown as { client: mqtt.MqttClient }).client;
      client.options.reconnectPeriod = 0;
      client.stream.destroy();
      client.end(true);

      // It comes back with the same client id: the broker sends the unacknowledged message again.
      second = new MqttBridge(BROKER, store, ingest, log, clientId, prefix, share);
      // (Its SUBACK is read only after the redelivered message is handled: start() settles after the unlock.)
      const started = second.start();
      await waitFor(
        async () => {
          const r = await lock.query(WAITING, [g.rtuUid]);
          return r.rows[0].n > 1;
        },
        { ms: 10_000, failure: () => "the message was not delivered again: it had been acknowledged before its commit" },
      );

      step("second waits");
      await lock.query("select pg_advisory_unlock($1, hashtext($2))", [0x525455, g.rtuUid]);
      await started;
      // The second delivery is answered (the first server's answer died with its connection).
      await waitFor(() => acks.length >= 1, { ms: 10_000 });
      expect(acks).toHaveLength(1);
      expect(acks[0].batchId).toBe("b1");
      expect(acks[0].accepted + acks[0].duplicates).toBe(2);
      const rows = await store.db
        .selectFrom("m_inverter")
        .select(["device_uid", "ts"])
        .where("device_uid", "in", g.inverters)
        .execute();
      expect(rows).toHaveLength(2);

      // Nothing more is pending for this session: a fresh message is answered once, with no redelivery.
      await gateway.publishAsync(
        `${prefix}/${g.rtuUid}/telemetry`,
        JSON.stringify({
          secret: g.secret,
          batchId: "b2",
          readings: readings.map((r) => ({ ...r, ts: ts + 600_000 - 1_200_000 })),
        }),
        { qos: 1 },
      );
      await waitFor(() => acks.length >= 2, { ms: 10_000 });
      // The server answers in order: a second answer to b1 would have come before b2's (and be acks[1]).
      expect(acks[1]).toMatchObject({ batchId: "b2", accepted: 2, duplicates: 0 });
      expect(acks.filter((a) => a.batchId === "b1")).toHaveLength(1);
    } finally {
      step("cleanup");
      await lock.end().catch(() => undefined);
      await second?.stop().catch(() => undefined);
      await gateway.endAsync();
    }
  }, 60_000);
});
