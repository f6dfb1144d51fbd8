/**
 * Webhooks: POST JSON to the member's URL. `text` is what Slack- and Teams-style incoming webhooks show;
 * `subject` and `body` are there for receivers that want them apart. Any 2xx is delivered.
 */
import type { DeliverableMessage, Transport } from "./outbox";

export const WEBHOOK_TIMEOUT_MS = 10_000;

export function webhookTransport(): Transport {
  return {
    async send(m: DeliverableMessage) {
      const res = await fetch(m.to, {
        method: "POST",
        headers: { "content-type": "application/json", "x-outbox-seq": String(m.seq) },
        body: JSON.stringify({ text: `${m.subject}\n${m.text}`, subject: m.subject, body: m.text }),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        redirect: "error",
      });
      const answer = (await res.text().catch(() => "")).slice(0, 200);
      if (!res.ok) throw new Error(`HTTP ${res.status} ${answer}`.trim());
      return `HTTP ${res.status}`;
    },
  };
}
