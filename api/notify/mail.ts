/**
 * Mail over any SMTP server (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://…:465) with nodemailer, loaded on
 * the first message: every API process imports this module, few send mail (nodemailer costs ~4–9 MB of RSS).
 */
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { DeliverableMessage, Transport } from "./outbox";

export function mailTransport(smtpUrl: string, from: string): Transport {
  let transporter: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  return {
    async send(m: DeliverableMessage) {
      transporter ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl, { from }));
      const info = await (
        await transporter
      ).sendMail({
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
