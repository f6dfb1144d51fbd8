/**
 * Webhooks: POST JSON to the member's URL. `text` is what Slack- and Teams-style incoming webhooks show;
 * `subject` and `body` are there for receivers that want them apart. Any 2xx is delivered.
 * The URL is held to the outbound-address rule (api/net/outbound-address.ts) at every delivery, with the addresses
 * its name resolves to then, and the request goes to the address checked (no second resolution, no redirect).
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { WEBHOOK_SCHEMES } from "../../domain/outbound-address";
import type { OutboundAddressRule } from "../net/outbound-address";
import type { DeliverableMessage, Transport } from "./outbox";

export const WEBHOOK_TIMEOUT_MS = 10_000;

export function webhookTransport(rule: OutboundAddressRule): Transport {
  return {
    async send(m: DeliverableMessage) {
      const check = await rule.check(m.to, WEBHOOK_SCHEMES);
      if (!check.ok) throw new Error(`refused: ${check.problem}`);
      const { url } = check.target;
      const address = check.addresses[0]!;
      const body = JSON.stringify({ text: `${m.subject}\n${m.text}`, subject: m.subject, body: m.text });
      const { status, answer } = await new Promise<{ status: number; answer: string }>((resolve, reject) => {
        const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
          url,
          {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
              "x-outbox-seq": String(m.seq),
            },
            // The connection goes to the address checked, whatever the name resolves to by now.
            lookup: (_host, opts, cb) =>
              (opts as { all?: boolean }).all
                ? (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
                    { address, family: address.includes(":") ? 6 : 4 },
                  ])
                : cb(null, address, address.includes(":") ? 6 : 4),
            timeout: WEBHOOK_TIMEOUT_MS,
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (d: string) => (text = (text + d).slice(0, 200)));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, answer: text }));
            res.on("error", reject);
          },
        );
        req.on("timeout", () => req.destroy(new Error("webhook did not answer in time")));
        req.on("error", reject);
        req.end(body);
      });
      // Redirects are not followed (a receiver could name loopback): anything but a 2xx is a failed attempt.
      if (status < 200 || status > 299) throw new Error(`HTTP ${status} ${answer}`.trim());
      return `HTTP ${status}`;
    },
  };
}
