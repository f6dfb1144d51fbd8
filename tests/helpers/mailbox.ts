/** A real SMTP server process for the mail tests (smtp-server), and the text of what it received. */
import { SMTPServer } from "smtp-server";

/** A real SMTP server that keeps what it receives; it can be taken down and brought back on its port. */
export class Mailbox {
  /** What arrived, with the moment the server accepted it (epoch ms). */
  messages: Array<{ to: string; subject: string; raw: string; at: number }> = [];
  private server: SMTPServer | undefined;
  constructor(public port: number) {}
  async up() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, cb) => {
        let raw = "";
        stream.on("data", (c: Buffer) => (raw += c.toString()));
        stream.on("end", () => {
          // A long (encoded) subject is folded over several lines: unfolded here (RFC 5322 §2.2.3).
          const subject = (/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? "").replace(/\r\n(?=[ \t])/g, "");
          this.messages.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), subject, raw, at: Date.now() });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
  }
  async down() {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The text body of a single-part mail, decoded from its transfer encoding (nodemailer picks base64 or quoted-printable). */
export function mailText(raw: string): string {
  const [head, ...rest] = raw.split("\r\n\r\n");
  const body = rest.join("\r\n\r\n");
  const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(head ?? "")?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

/** A header as written (RFC 2047 encoded words, e.g. a Korean subject) decoded to its text. */
export function decodedHeader(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}
