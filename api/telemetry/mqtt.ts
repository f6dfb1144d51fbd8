/**
 * MQTT bridge (when MQTT_URL is set). Topic layout, all QoS 1:
 *   solar/gw/{rtuUid}/telemetry        gateway → portal  {secret, batchId?, readings[]}  (same readings as POST /api/ingest)
 *   solar/gw/{rtuUid}/ack              portal → gateway  {batchId, accepted, duplicates, rejected[]} or {batchId, error}
 *   solar/gw/{rtuUid}/command          portal → gateway  {seq, deviceUid, deviceType, ch, action, hex}
 *   solar/gw/{rtuUid}/command/result   gateway → portal  {seq, ok, state?, message?}
 * The broker's PUBACK for a telemetry message is sent only after the batch is committed, and the
 * session is persistent (clean: false), so a message that was not committed is delivered again.
 *
 * Several servers: each connects with its own client id (MQTT_CLIENT_ID + "-" + SERVER_ID) over MQTT v5
 * and reads telemetry through the shared subscription `$share/{group}/{prefix}/+/telemetry`, so the broker
 * hands each message to one of them. Mosquitto keeps a message it sent to a server that died before the
 * PUBACK in that server's session and sends it again when the server (same SERVER_ID) reconnects; it does
 * not pass it to another member of the group. The client id must therefore be stable across restarts,
 * and the session outlives a restart (session expiry MQTT_SESSION_EXPIRY). Command results are read by
 * every server (a plain subscription): the one whose member sent the command is waiting for it.
 */
import type { IPublishPacket, MqttClient } from "mqtt";
import { authenticateGateway } from "../auth/gateway-credential";
import type { Store } from "../store/db";
import type { CommandMessage, CommandOutcome, GatewayLink } from "./commands";
import type { IngestService } from "./ingest";
import { jsonTooDeep } from "../strict-input";

export const DEFAULT_TOPIC_PREFIX = "solar/gw";
/** How long a start waits for its first subscription: a loaded machine may drop a connection or two before it. */
const START_DEADLINE_MS = 60_000;
/** A broker URL without its password, for messages. */
const redact = (url: string) => url.replace(/\/\/[^@/]*@/, "//");
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class MqttBridge implements GatewayLink {
  private client: MqttClient | undefined;
  private pending = new Map<number, (o: CommandOutcome) => void>();
  private closed = false;
  private inFlight: Promise<unknown> = Promise.resolve();
  private telemetryTopic: RegExp;
  private resultTopic: RegExp;

  constructor(
    private url: string,
    private store: Store,
    private ingest: IngestService,
    private log: (m: string, e?: unknown) => void,
    private clientId = "solar-portal-ingest",
    private prefix = DEFAULT_TOPIC_PREFIX,
    private cluster: { shareGroup?: string; sessionExpirySeconds?: number } = {},
  ) {
    this.telemetryTopic = new RegExp(`^${escape(prefix)}/([^/]+)/telemetry$`);
    this.resultTopic = new RegExp(`^${escape(prefix)}/([^/]+)/command/result$`);
  }

  /** Connects and subscribes; resolves once the subscription is in place. */
  async start(): Promise<void> {
    // The client library is loaded when a bridge starts (a server without a broker never loads it).
    const { default: mqtt } = await import("mqtt");
    const client = mqtt.connect(this.url, {
      clientId: this.clientId,
      clean: false,
      reconnectPeriod: 2_000,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: this.cluster.sessionExpirySeconds ?? 7 * 86_400 },
    });
    this.client = client;
    // mqtt.js sends the PUBACK of a QoS 1 message when `done` is called, and reads no further packet
    // before: the acknowledgement waits for the commit.
    client.handleMessage = (packet, done) => {
      const work = this.onMessage(packet);
      this.inFlight = work.catch(() => undefined);
      work
        .then(() => done())
        .catch((error) => {
          // Not committed: no PUBACK. Drop the connection so the broker delivers it again.
          this.log("mqtt message not committed; reconnecting for redelivery", error);
          client.stream.destroy();
        });
    };
    client.on("error", (e) => this.log("mqtt error", e));
    // Subscribed at every connection (a reconnect of a persistent session keeps it; asking again is harmless). A
    // connection that drops before the broker answered (a keepalive missed on a loaded machine) is not a failure of
    // the start: the client reconnects and the next connection subscribes. Only a broker that never answers is.
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => {
        client.end(true);
        reject(new Error(`MQTT broker ${redact(this.url)} not subscribed within ${START_DEADLINE_MS / 1000} s`));
      }, START_DEADLINE_MS);
      client.on("connect", () => {
        client.subscribe([this.telemetrySubscription(), `${this.prefix}/+/command/result`], { qos: 1 }, (err) => {
          if (err) return this.log("mqtt subscribe failed; asked again at the next connection", err);
          clearTimeout(deadline);
          resolve();
        });
      });
    });
  }

  /** The telemetry subscription: shared by the servers of one group when a group is set. */
  telemetrySubscription(): string {
    const topic = `${this.prefix}/+/telemetry`;
    return this.cluster.shareGroup ? `$share/${this.cluster.shareGroup}/${topic}` : topic;
  }

  /**
   * Stops taking telemetry (the broker gives the group's next messages to the other servers), finishes
   * the batch in hand so that it is acknowledged, then disconnects.
   */
  async stop(): Promise<void> {
    this.closed = true;
    const client = this.client;
    if (!client) return;
    if (client.connected) await client.unsubscribeAsync(this.telemetrySubscription()).catch(() => undefined);
    // Messages already queued for this session still arrive on this connection: let them drain.
    for (let quiet = 0; quiet < 3;) {
      const before = this.inFlight;
      await Promise.race([before, new Promise((r) => setTimeout(r, 100))]);
      quiet = before === this.inFlight ? quiet + 1 : 0;
    }
    await this.inFlight;
    await client.endAsync();
  }

  reaches(): boolean {
    return !!this.client?.connected && !this.closed;
  }

  deliver(command: CommandMessage): Promise<CommandOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.set(command.seq, resolve);
      this.client!.publish(`${this.prefix}/${command.rtuUid}/command`, JSON.stringify(command), { qos: 1 }, (err) => {
        if (err) {
          this.pending.delete(command.seq);
          reject(err);
        }
      });
    });
  }

  private async onMessage(packet: IPublishPacket): Promise<void> {
    const topic = packet.topic;
    const result = this.resultTopic.exec(topic);
    if (result) {
      const body = safeJson(packet.payload);
      const seq = Number(body?.seq);
      const resolve = this.pending.get(seq);
      if (resolve) {
        this.pending.delete(seq);
        resolve({
          ok: body?.ok === true,
          state: typeof body?.state === "number" ? body.state : undefined,
          message: body?.message,
        });
      }
      return;
    }
    const m = this.telemetryTopic.exec(topic);
    if (!m) return;
    const rtuUid = m[1]!;
    const body = safeJson(packet.payload);
    const batchId = typeof body?.batchId === "string" ? body.batchId : null;
    // Not awaited: mqtt.js handles no incoming packet (our own PUBACK included) until this handler is done.
    const reply = (payload: unknown) =>
      void this.client!.publishAsync(`${this.prefix}/${rtuUid}/ack`, JSON.stringify(payload), { qos: 1 }).catch((e) =>
        this.log("mqtt ack publish failed", e),
      );
    // A malformed or unauthenticated message is answered and acknowledged: sending it again would not help.
    if (!body || typeof body.secret !== "string" || !Array.isArray(body.readings)) {
      reply({ batchId, error: "malformed" });
      return;
    }
    if (!(await authenticateGateway(this.store, rtuUid, body.secret))) {
      reply({ batchId, error: "gateway_unauthorized" });
      return;
    }
    const outcome = await this.ingest.ingest(rtuUid, body.readings.slice(0, 5_000));
    reply({ batchId, ...outcome });
  }
}

function safeJson(payload: Buffer | string): any {
  try {
    const text = typeof payload === "string" ? payload : payload.toString("utf8");
    // Nested deeper than any message needs: refused before it is parsed or walked (api/strict-input.ts).
    return jsonTooDeep(text) ? null : JSON.parse(text);
  } catch {
    return null;
  }
}
