/**
 * Commands to RTUs that only one server of a cluster reaches (the simulated fleet, which runs on the
 * server holding the simulator's lease): a server whose member asked passes the command on over
 * LISTEN/NOTIFY, the server that reaches the RTU claims it in the `command` row (so exactly one carries it
 * out), delivers it and records the gateway's answer there, and the asking server answers the member with
 * it. Commands over MQTT need none of this: every server publishes to the broker and reads the results.
 */
import type { Store } from "../store/db";
import type { CommandMessage, CommandOutcome, GatewayLink } from "../telemetry/commands";
import type { ClusterSignals } from "./signals";

const CHANNEL = "solar_command";
const CLAIMED = '{"relay":"claimed"}';

export function commandRelay(
  store: Store,
  signals: ClusterSignals,
  local: GatewayLink,
  opts: { relayed: (rtuUid: string) => boolean; log: (m: string, e?: unknown) => void },
) {
  // The side that reaches the RTU: claim, deliver, record.
  signals.on(CHANNEL, (payload) => {
    let command: CommandMessage;
    try {
      command = JSON.parse(payload) as CommandMessage;
    } catch {
      return;
    }
    if (!local.reaches(command.rtuUid)) return;
    void (async () => {
      const claim = await store.db
        .updateTable("command")
        .set({ result: CLAIMED })
        .where("seq", "=", command.seq)
        .where("result", "is", null)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return;
      let outcome: CommandOutcome;
      try {
        outcome = await local.deliver(command);
      } catch (error) {
        outcome = { ok: false, message: (error as Error).message };
      }
      await store.db
        .updateTable("command")
        .set({ result: JSON.stringify({ relayed: true, ...outcome }) })
        .where("seq", "=", command.seq)
        .execute();
    })().catch((e) => opts.log("command relay failed", e));
  });

  // The asking side: a link that reaches what another server reaches.
  const link: GatewayLink = {
    reaches: (rtuUid) => !local.reaches(rtuUid) && opts.relayed(rtuUid),
    async deliver(command) {
      await signals.send(CHANNEL, JSON.stringify(command));
      // CommandService gives up after its own timeout; until then the answer is looked for in the row.
      for (;;) {
        await new Promise((r) => setTimeout(r, 150));
        const row = await store.db
          .selectFrom("command")
          .select(["result", "status"])
          .where("seq", "=", command.seq)
          .executeTakeFirst();
        if (!row || row.status !== "pending") throw new Error("command no longer pending");
        if (row.result && row.result !== CLAIMED) {
          const { relayed: _relayed, ...outcome } = JSON.parse(row.result) as CommandOutcome & { relayed?: boolean };
          return outcome;
        }
      }
    },
  };
  return link;
}
