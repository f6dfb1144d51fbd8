/** Mail over any SMTP server (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://…:465) with nodemailer. */
import nodemailer from "nodemailer";
import type { DeliverableMessage, Transport } from "./outbox";

export function mailTransport(smtpUrl: string, from: string): Transport {
  const transporter = nodemailer.createTransport(smtpUrl, { from });
  return {
    async send(m: DeliverableMessage) {
      const info = await transporter.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html ?? undefined,
        attachments: m.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.contentBase64, "base64"),
        })),
        // The outbox sequence as Message-ID: a receiver can tell a retried delivery from a new message.
        messageId: `<outbox-${m.seq}@${from.split("@")[1]?.replace(/[>\s]/g, "") || "solar-portal"}>`,
      });
      return `accepted ${info.accepted.length}: ${info.response ?? ""}`.trim();
    },
  };
}
