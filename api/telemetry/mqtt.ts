/**
 * MQTT bridge (when MQTT_URL is set). Topic layout, all QoS 1:
 *   solar/gw/{rtuUid}/telemetry        gateway → portal  {secret, batchId?, readings[]}  (same readings as POST /api/ingest)
 *   solar/gw/{rtuUid}/ack              portal → gateway  {batchId, accepted, duplicates, rejected[]} or {batchId, error}
 *   solar/gw/{rtuUid}/command          portal → gateway  {seq, deviceUid, deviceType, ch, action, hex}
 *   solar/gw/{rtuUid}/command/result   gateway → portal  {seq, ok, state?, message?}
 * The broker's PUBACK for a telemetry message is sent only after the batch is committed, and the
 * session is persistent (clean: false), so a message that was not committed is delivered again.
 */
import mqtt, { type IPublishPacket, type MqttClient } from "mqtt";
import { authenticateGateway } from "../routes/ingest";
import type { Store } from "../store/db";
import type { CommandMessage, CommandOutcome, GatewayLink } from "./commands";
import type { IngestService } from "./ingest";

export const DEFAULT_TOPIC_PREFIX = "solar/gw";
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class MqttBridge implements GatewayLink {
  private client: MqttClient | undefined;
  private pending = new Map<number, (o: CommandOutcome) => void>();
  private closed = false;
  private telemetryTopic: RegExp;
  private resultTopic: RegExp;

  constructor(
    private url: string,
    private store: Store,
    private ingest: IngestService,
    private log: (m: string, e?: unknown) => void,
    private clientId = "solar-portal-ingest",
    private prefix = DEFAULT_TOPIC_PREFIX,
  ) {
    this.telemetryTopic = new RegExp(`^${escape(prefix)}/([^/]+)/telemetry$`);
    this.resultTopic = new RegExp(`^${escape(prefix)}/([^/]+)/command/result$`);
  }

  /** Connects and subscribes; resolves once the subscription is in place. */
  async start(): Promise<void> {
    const client = mqtt.connect(this.url, { clientId: this.clientId, clean: false, reconnectPeriod: 2_000, protocolVersion: 4 });
    this.client = client;
    client.handleMessage = (packet, done) => {
      this.onMessage(packet)
        .then(() => done())
        .catch((error) => {
          // Not committed: no PUBACK. Drop the connection so the broker delivers it again.
          this.log("mqtt message not committed; reconnecting for redelivery", error);
          client.stream.destroy();
        });
    };
    client.on("error", (e) => this.log("mqtt error", e));
    await new Promise<void>((resolve, reject) => {
      client.once("connect", () => {
        client.subscribe([`${this.prefix}/+/telemetry`, `${this.prefix}/+/command/result`], { qos: 1 }, (err) =>
          err ? reject(err) : resolve(),
        );
      });
      client.once("error", reject);
    });
  }

  async stop(): Promise<void> {
    this.closed = true;
    await this.client?.endAsync();
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
        resolve({ ok: body?.ok === true, state: typeof body?.state === "number" ? body.state : undefined, message: body?.message });
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
    return JSON.parse(typeof payload === "string" ? payload : payload.toString("utf8"));
  } catch {
    return null;
  }
}
