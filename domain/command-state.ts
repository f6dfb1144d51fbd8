/**
 * What a screen says about a device after a command (issue 26 point 5). A gateway's "done" says it carried the
 * command out; what the device does is known only from a reading made after the command. Until one arrives the
 * device is "awaiting the next reading" — on /control and in the plant's detail window alike — rather than a state
 * word beside the output of a reading made before the command ("○ 정지 74.3 kW").
 *
 * "After" is by arrival: the server's time a reading arrived (device_latest.received_at) against the server's time the
 * command was recorded. A reading's own ts is floored onto the 10-minute grid, so it would be "before" every
 * command of its step.
 *
 * The gateway's answer is shown as one of COMMAND_ANSWERS, whose words are in the catalogue (app/i18n); the raw text
 * a gateway sends (English, or whatever its firmware writes) is never shown.
 */
import type { CommandState } from "./contract/alarm";

/** The facts of a device's newest command the rule needs. */
export interface CommandFacts {
  action: "on" | "off";
  status: CommandState;
  /** When the command was recorded, epoch ms. */
  requested_at: number;
}

/** States after which the device may have changed: sent and not answered, carried out, or answered too late. */
const MAY_HAVE_ACTED: readonly CommandState[] = ["pending", "done", "timeout"];

/**
 * The newest command whose effect no reading shows yet, or null when the newest reading is the device's state:
 * no command, a command that did nothing (refused, undeliverable), or a reading that arrived after the command.
 * `readingAt`: when the newest reading arrived (server time).
 */
export function awaitingReading<C extends Pick<CommandFacts, "status" | "requested_at">>(
  last: C | null | undefined,
  readingAt: number | null | undefined,
): C | null {
  if (!last || !MAY_HAVE_ACTED.includes(last.status)) return null;
  if (typeof readingAt === "number" && Number.isFinite(readingAt) && readingAt > last.requested_at) return null;
  return last;
}

export const COMMAND_ANSWERS = [
  "in_flight",
  "carried_out",
  "refused",
  "device_not_on_gateway",
  "kind_takes_no_commands",
  "no_answer",
  "no_link",
] as const;
export type CommandAnswer = (typeof COMMAND_ANSWERS)[number];

/** Texts gateways are known to send with a refusal (api/sim/gateway-emulator.ts, the gateway firmware). */
const KNOWN_REFUSALS: Record<string, CommandAnswer> = {
  "device not on this gateway": "device_not_on_gateway",
  "this device kind takes no commands": "kind_takes_no_commands",
};

/** The gateway's answer to a command, as a catalogue key: from its outcome, and for a refusal from its known text. */
export function commandAnswer(c: { status: CommandState; message?: string | null }): CommandAnswer {
  switch (c.status) {
    case "pending":
      return "in_flight";
    case "done":
      return "carried_out";
    case "timeout":
      return "no_answer";
    case "undeliverable":
      return "no_link";
    case "failed":
      return KNOWN_REFUSALS[(c.message ?? "").trim().toLowerCase()] ?? "refused";
  }
}
