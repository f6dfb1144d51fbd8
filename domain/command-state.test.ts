import { describe, expect, it } from "vitest";
import { awaitingReading, commandAnswer, COMMAND_ANSWERS } from "./command-state";

const at = 1_700_000_000_000;
const cmd = (status: "pending" | "done" | "failed" | "timeout" | "undeliverable") =>
  ({ action: "off", status, requested_at: at }) as const;

describe("awaitingReading (issue 26 point 5: the state after a command comes from a reading made after it)", () => {
  it("a carried-out command with only older readings awaits the next reading", () => {
    // The case of the issue: 정지 acknowledged, the newest reading (74.3 kW) arrived a minute before the command.
    expect(awaitingReading(cmd("done"), at - 60_000)).toEqual(cmd("done"));
    expect(awaitingReading(cmd("done"), null)).toEqual(cmd("done"));
    expect(awaitingReading(cmd("done"), at)).toEqual(cmd("done")); // made in the same ms: not after it
  });

  it("a reading that arrived after the command is the device's state", () => {
    expect(awaitingReading(cmd("done"), at + 1)).toBeNull();
  });

  it("a command in flight or answered too late may have acted: it awaits too", () => {
    expect(awaitingReading(cmd("pending"), at - 1)).not.toBeNull();
    expect(awaitingReading(cmd("timeout"), at - 1)).not.toBeNull();
  });

  it("a refused or undeliverable command changed nothing; no command, nothing to await", () => {
    expect(awaitingReading(cmd("failed"), at - 1)).toBeNull();
    expect(awaitingReading(cmd("undeliverable"), at - 1)).toBeNull();
    expect(awaitingReading(null, at)).toBeNull();
    expect(awaitingReading(undefined, null)).toBeNull();
  });
});

describe("commandAnswer: the gateway's answer as a catalogue key, never its raw text", () => {
  it("by outcome", () => {
    expect(commandAnswer({ status: "pending" })).toBe("in_flight");
    expect(commandAnswer({ status: "done", message: "switched off / opened" })).toBe("carried_out");
    expect(commandAnswer({ status: "timeout", message: "gateway did not answer in time" })).toBe("no_answer");
    expect(commandAnswer({ status: "undeliverable", message: "no gateway link reaches this RTU" })).toBe("no_link");
  });

  it("a refusal by its known text, any other as refused", () => {
    expect(commandAnswer({ status: "failed", message: "device not on this gateway" })).toBe("device_not_on_gateway");
    expect(commandAnswer({ status: "failed", message: " This device kind takes no commands" })).toBe("kind_takes_no_commands");
    expect(commandAnswer({ status: "failed", message: "E42 relay stuck" })).toBe("refused");
    expect(commandAnswer({ status: "failed", message: null })).toBe("refused");
  });

  it("every key is a known answer", () => {
    for (const s of ["pending", "done", "failed", "timeout", "undeliverable"] as const)
      expect(COMMAND_ANSWERS).toContain(commandAnswer({ status: s }));
  });
});
