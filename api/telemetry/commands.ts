/**
 * Commands to devices (SPEC §3 Command): recorded, delivered to the gateway that owns the
 * device (MQTT, or an in-process link such as the simulator), and completed with the
 * gateway's answer. The device's state changes only when the gateway carries the command out.
 */
import type { Clock } from "../clock";
import { appendAudit } from "../store/audit-chain";
import type { Store } from "../store/db";

export interface CommandMessage {
  seq: number;
  rtuUid: string;
  deviceUid: string;
  deviceType: number;
  ch: number;
  /** The register write to perform: hexOn to switch on/close, hexOff to switch off/open. */
  action: "on" | "off";
  hex: string;
}

export interface CommandOutcome {
  ok: boolean;
  /** The device state the gateway reports after acting (1 on/closed, 0 off/open). */
  state?: number;
  message?: string;
}

export interface GatewayLink {
  /** Whether this link reaches the RTU. */
  reaches(rtuUid: string): boolean;
  deliver(command: CommandMessage): Promise<CommandOutcome>;
}

export const COMMAND_TIMEOUT_MS = 10_000;

/** An Idempotency-Key already used by this member for another command (another device or action). */
export class IdempotencyKeyReused extends Error {
  constructor() {
    super("idempotency_key_reused");
  }
}

export interface SentCommand extends CommandOutcome {
  seq: number;
  status: string;
  requested_at: number;
  /** This was a replay of the member's earlier command with the same one-time token: nothing ran now. */
  replayed?: true;
}

/**
 * Outcomes: `done` (the gateway acknowledged and carried it out), `failed` (it answered no), `timeout`
 * (no answer within the timeout), `undeliverable` (no gateway link reaches the RTU). The row is `pending`
 * while the gateway is asked, so the control screen can show a command in flight.
 */
export class CommandService {
  private links: GatewayLink[] = [];
  constructor(
    private store: Store,
    private clock: Clock,
    private timeoutMs = COMMAND_TIMEOUT_MS,
  ) {}

  addLink(link: GatewayLink) {
    this.links.push(link);
  }

  async send(
    input: Omit<CommandMessage, "seq" | "action" | "hex"> & {
      hexOn: string | null;
      hexOff: string | null;
      by: string;
      plantUid?: string | null;
      /**
       * The confirmation's one-time token (the /control form's, or the API's Idempotency-Key): recording the
       * command consumes it in the same statement (unique per member), so a replay runs nothing and answers the
       * first command's outcome.
       */
      idempotencyKey?: string | null;
    },
  ): Promise<SentCommand> {
    const action: "on" | "off" = input.hexOn ? "on" : "off";
    const hex = (input.hexOn ?? input.hexOff)!;
    const key = input.idempotencyKey ?? null;
    const requestedAt = this.clock.now();
    // The command and its entry in the tamper-evident log (api/store/audit-chain.ts) in one transaction.
    const row = await this.store.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto("command")
        .values({
          rtu_uid: input.rtuUid,
          device_uid: input.deviceUid,
          device_type: input.deviceType,
          ch: input.ch,
          hex_on: input.hexOn,
          hex_off: input.hexOff,
          requested_by: input.by,
          requested_at: requestedAt,
          status: "pending",
          result: null,
          completed_at: null,
          plant_uid: input.plantUid ?? null,
          idempotency_key: key,
        })
        .$if(key !== null, (q) => q.onConflict((oc) => oc.columns(["requested_by", "idempotency_key"]).doNothing()))
        .returning("seq")
        .executeTakeFirst();
      if (inserted)
        await appendAudit(trx, this.store.dialect, {
          at: requestedAt,
          kind: "command",
          plant_uid: input.plantUid ?? null,
          ref_seq: Number(inserted.seq),
          member_id: input.by,
          detail: {
            device_uid: input.deviceUid,
            rtu_uid: input.rtuUid,
            device_type: input.deviceType,
            ch: input.ch,
            action,
            hex,
          },
        });
      return inserted;
    });
    if (!row) return this.replay(input, key!, action, hex);
    const link = this.links.find((l) => l.reaches(input.rtuUid));
    let status: string;
    let outcome: CommandOutcome;
    if (!link) {
      status = "undeliverable";
      outcome = { ok: false, message: "no gateway link reaches this RTU" };
    } else {
      try {
        outcome = await withTimeout(
          link.deliver({
            seq: row.seq,
            rtuUid: input.rtuUid,
            deviceUid: input.deviceUid,
            deviceType: input.deviceType,
            ch: input.ch,
            action,
            hex,
          }),
          this.timeoutMs,
        );
        status = outcome.ok ? "done" : "failed";
      } catch (error) {
        status = "timeout";
        outcome = { ok: false, message: (error as Error).message };
      }
    }
    const completedAt = this.clock.now();
    // The gateway's answer (or its absence) and its log entry, in one transaction.
    await this.store.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("command")
        .set({ status, result: JSON.stringify(outcome), completed_at: completedAt })
        .where("seq", "=", row.seq)
        .execute();
      await appendAudit(trx, this.store.dialect, {
        at: completedAt,
        kind: "command_result",
        plant_uid: input.plantUid ?? null,
        ref_seq: Number(row.seq),
        member_id: null,
        detail: {
          device_uid: input.deviceUid,
          status,
          ok: outcome.ok,
          state: outcome.state ?? null,
          message: outcome.message ?? null,
        },
      });
    });
    return { seq: Number(row.seq), status, requested_at: requestedAt, ...outcome };
  }

  /** The first command of this member's token, as it stands now; nothing is sent. */
  private async replay(
    input: { by: string; deviceUid: string; rtuUid: string; deviceType: number },
    key: string,
    action: "on" | "off",
    hex: string,
  ): Promise<SentCommand> {
    const first = await this.store.db
      .selectFrom("command")
      .select(["seq", "device_uid", "rtu_uid", "device_type", "hex_on", "hex_off", "status", "result", "requested_at"])
      .where("requested_by", "=", input.by)
      .where("idempotency_key", "=", key)
      .executeTakeFirstOrThrow();
    const firstAction = first.hex_on ? "on" : "off";
    if (
      first.device_uid !== input.deviceUid ||
      first.rtu_uid !== input.rtuUid ||
      Number(first.device_type) !== input.deviceType ||
      firstAction !== action ||
      (first.hex_on ?? first.hex_off) !== hex
    )
      throw new IdempotencyKeyReused();
    let outcome: CommandOutcome = { ok: false };
    try {
      if (first.result) outcome = JSON.parse(first.result) as CommandOutcome;
    } catch {
      outcome = { ok: false };
    }
    return {
      ...outcome,
      seq: Number(first.seq),
      status: first.status,
      requested_at: Number(first.requested_at),
      replayed: true,
    };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("gateway did not answer in time")), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}
