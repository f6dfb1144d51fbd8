/**
 * The outbox of alerts and report mails: a message is written into the store in the same transaction as
 * whatever caused it (`enqueue`), and a worker delivers it later with retries and exponential backoff.
 * - Exactly once: a `dedupeKey` already enqueued is ignored, so a cause seen twice sends one message.
 * - Never lost: the state lives in the store; a restart picks up what was pending.
 * - Safe with two workers: a message is claimed by one UPDATE … WHERE status = 'pending' AND
 *   claimed_until < now, counted by affected rows, before it is sent; a worker that dies while sending
 *   leaves a lease that expires, and the message is tried again.
 * Every attempt is recorded in `outbox_attempt` (the delivery log the admins read).
 */
import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Store } from "../store/db";
import type { Database } from "../store/schema";

export type OutboxChannel = "mail" | "webhook";

export interface OutboxAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

export interface OutboxMessage {
  channel: OutboxChannel;
  /** An e-mail address, or the webhook URL. */
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboxAttachment[];
  /** A message with a key already enqueued is ignored. */
  dedupeKey: string;
  /** Not before this time (epoch ms), e.g. after a member's quiet hours; default now. */
  notBefore?: number;
  /** An alert about this plant (the delivery log's scope; the recipient must still see it at send time). */
  plantUid?: string | null;
  /** The member it is for (the delivery log's scope when there is no plant). */
  memberId?: string | null;
}

type Db = Kysely<Database> | Transaction<Database>;

/** Enqueues a message unless its dedupeKey is known; true when it was new. */
export async function enqueue(db: Db, message: OutboxMessage): Promise<boolean> {
  const now = Date.now();
  const res = await db
    .insertInto("outbox")
    .values({
      dedupe_key: message.dedupeKey,
      channel: message.channel,
      recipient: message.to,
      subject: message.subject,
      body_text: message.text,
      body_html: message.html ?? null,
      attachments: message.attachments?.length ? JSON.stringify(message.attachments) : null,
      status: "pending",
      attempts: 0,
      next_attempt_at: Math.max(now, message.notBefore ?? now),
      claimed_until: 0,
      claimed_by: null,
      last_error: null,
      created_at: now,
      sent_at: null,
      plant_uid: message.plantUid ?? null,
      member_id: message.memberId ?? null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** What actually sends a message of one channel; it throws when the message was not accepted. */
export interface Transport {
  send(message: DeliverableMessage): Promise<string>;
}

export interface DeliverableMessage {
  seq: number;
  channel: OutboxChannel;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: OutboxAttachment[];
}

export interface OutboxWorkerOptions {
  transports: Partial<Record<OutboxChannel, Transport>>;
  /** First retry after this long; doubled per failed attempt up to maxDelayMs. */
  retryBaseMs?: number;
  maxDelayMs?: number;
  /** After this many failed attempts a message is given up ("failed"). */
  maxAttempts?: number;
  /** How often the worker looks for due messages. */
  pollMs?: number;
  /** How long a claim lasts; a worker that died while sending loses it after this. */
  leaseMs?: number;
  log?: (msg: string, e?: unknown) => void;
  /**
   * Asked right before an alert about a plant is sent to a member: why it may not go to them now, or null.
   * A refused message is not sent; it is marked `dropped` with the reason (the delivery log shows it).
   */
  recipientProblem?: (plantUid: string, memberId: string) => Promise<string | null>;
}

export const OUTBOX_DEFAULTS = { retryBaseMs: 30_000, maxDelayMs: 3_600_000, maxAttempts: 12, pollMs: 1_000, leaseMs: 60_000 };

/** The wait before attempt n+1 after n failed attempts (n ≥ 1). */
export function backoffMs(failedAttempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failedAttempts - 1));
}

export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = true;
  private readonly id = `w-${process.pid}-${randomBytes(4).toString("hex")}`;
  private readonly o: Required<Omit<OutboxWorkerOptions, "log" | "transports" | "recipientProblem">>;

  constructor(
    private store: Store,
    private opts: OutboxWorkerOptions,
  ) {
    this.o = {
      retryBaseMs: opts.retryBaseMs ?? OUTBOX_DEFAULTS.retryBaseMs,
      maxDelayMs: opts.maxDelayMs ?? OUTBOX_DEFAULTS.maxDelayMs,
      maxAttempts: opts.maxAttempts ?? OUTBOX_DEFAULTS.maxAttempts,
      pollMs: opts.pollMs ?? OUTBOX_DEFAULTS.pollMs,
      leaseMs: opts.leaseMs ?? OUTBOX_DEFAULTS.leaseMs,
    };
  }

  /** Channels this worker can deliver; messages of the others wait in the outbox (and the log shows them). */
  channels(): OutboxChannel[] {
    return (Object.keys(this.opts.transports) as OutboxChannel[]).filter((c) => this.opts.transports[c]);
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = this.drain().catch((e) => {
          this.opts.log?.("outbox delivery failed", e);
          return 0;
        });
        void this.running.finally(tick);
      }, this.o.pollMs);
      this.timer.unref?.();
    };
    tick();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Delivers every due message it can claim; returns how many were sent. */
  async drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await this.claim(20);
      if (!batch.length) return sent;
      for (const m of batch) if (await this.deliver(m)) sent++;
      if (this.stopped) return sent;
    }
  }

  private async claim(limit: number) {
    const db = this.store.db;
    const now = Date.now();
    const channels = this.channels();
    if (!channels.length) return [];
    const due = await db
      .selectFrom("outbox")
      .select("seq")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where("claimed_until", "<", now)
      .where("channel", "in", channels)
      .orderBy("next_attempt_at")
      .orderBy("seq")
      .limit(limit)
      .execute();
    const claimed: Array<Awaited<ReturnType<typeof this.row>>> = [];
    for (const { seq } of due) {
      const res = await db
        .updateTable("outbox")
        .set({ claimed_until: now + this.o.leaseMs, claimed_by: this.id })
        .where("seq", "=", seq)
        .where("status", "=", "pending")
        .where("claimed_until", "<", now)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) claimed.push(await this.row(seq));
    }
    return claimed;
  }

  private row(seq: number) {
    return this.store.db.selectFrom("outbox").selectAll().where("seq", "=", seq).executeTakeFirstOrThrow();
  }

  private async deliver(row: Awaited<ReturnType<typeof this.row>>): Promise<boolean> {
    const db = this.store.db;
    const channel = row.channel as OutboxChannel;
    const transport = this.opts.transports[channel]!;
    const attempt = Number(row.attempts) + 1;
    let ok = false;
    let detail: string;
    const dropped =
      row.plant_uid && row.member_id && this.opts.recipientProblem
        ? await this.opts.recipientProblem(row.plant_uid, row.member_id)
        : null;
    if (dropped) {
      await this.record(row.seq, attempt, "dropped", Number(row.next_attempt_at), dropped, false);
      this.opts.log?.(`outbox: ${channel} to ${row.recipient} dropped: ${dropped}`);
      return false;
    }
    try {
      detail = await transport.send({
        seq: Number(row.seq),
        channel,
        to: row.recipient,
        subject: row.subject,
        text: row.body_text,
        html: row.body_html,
        attachments: row.attachments ? (JSON.parse(row.attachments) as OutboxAttachment[]) : [],
      });
      ok = true;
    } catch (e) {
      detail = (e as Error).message || String(e);
    }
    const at = Date.now();
    const giveUp = !ok && attempt >= this.o.maxAttempts;
    await this.record(
      row.seq,
      attempt,
      ok ? "sent" : giveUp ? "failed" : "pending",
      ok || giveUp ? Number(row.next_attempt_at) : at + backoffMs(attempt, this.o.retryBaseMs, this.o.maxDelayMs),
      detail,
      ok,
    );
    if (!ok)
      this.opts.log?.(
        `outbox: ${channel} to ${row.recipient} failed (attempt ${attempt}${giveUp ? ", given up" : ""}): ${detail}`,
      );
    return ok;
  }

  /** An attempt's outcome and its line in the delivery log, in one transaction. */
  private async record(seq: number, attempt: number, status: string, nextAt: number, detail: string, ok: boolean) {
    const at = Date.now();
    await this.store.db.transaction().execute(async (trx) => {
      // Only the claim holder writes the outcome; a claim lost to an expired lease is not overwritten.
      await trx
        .updateTable("outbox")
        .set({
          status,
          attempts: attempt,
          next_attempt_at: nextAt,
          claimed_until: 0,
          claimed_by: null,
          last_error: ok ? null : detail.slice(0, 500),
          sent_at: ok ? at : null,
        })
        .where("seq", "=", seq)
        .where("claimed_by", "=", this.id)
        .execute();
      await trx
        .insertInto("outbox_attempt")
        .values({ outbox_seq: seq, attempt, at, ok: ok ? 1 : 0, detail: detail.slice(0, 500) })
        .execute();
    });
  }
}
