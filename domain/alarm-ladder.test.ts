import { describe, expect, it } from "vitest";
import {
  DEFAULT_LADDER,
  type LadderStep,
  LadderSchema,
  dueSteps,
  ladderOf,
  ladderScopeKey,
  parseStoredLadder,
} from "./alarm-ladder";
import { fieldErrorsOf } from "./field-errors";

const MIN = 60_000;

describe("escalation ladder", () => {
  it("the default ladder: everyone at once, operator and safety manager after 15 minutes, the owner after an hour", () => {
    const t0 = 1_700_000_000_000;
    expect(dueSteps(DEFAULT_LADDER, t0, t0)).toEqual([0]);
    expect(dueSteps(DEFAULT_LADDER, t0, t0 + 15 * MIN - 1)).toEqual([0]);
    expect(dueSteps(DEFAULT_LADDER, t0, t0 + 15 * MIN)).toEqual([0, 1]);
    expect(dueSteps(DEFAULT_LADDER, t0, t0 + 59 * MIN)).toEqual([0, 1]);
    expect(dueSteps(DEFAULT_LADDER, t0, t0 + 60 * MIN)).toEqual([0, 1, 2]);
    expect(DEFAULT_LADDER.map((s) => s.roles)).toEqual([["operator", "safety", "owner"], ["operator", "safety"], ["owner"]]);
    // A ladder that starts late sends nothing at once.
    expect(dueSteps([{ afterMinutes: 5, roles: ["owner"] }], t0, t0 + 4 * MIN)).toEqual([]);
  });

  it("a plant's own ladder, else its nearest group's, else the default", () => {
    const own = [{ afterMinutes: 0, roles: ["owner" as const] }];
    const group = [{ afterMinutes: 10, roles: ["safety" as const] }];
    const root = [{ afterMinutes: 30, roles: ["operator" as const] }];
    const stored = new Map<string, LadderStep[]>([
      [ladderScopeKey({ plant: "P1" }), own],
      [ladderScopeKey({ group: 7 }), group],
      [ladderScopeKey({ group: 1 }), root],
    ]);
    expect(ladderOf("P1", [7, 1], stored)).toEqual({ steps: own, from: { plant: "P1" } });
    expect(ladderOf("P2", [7, 1], stored)).toEqual({ steps: group, from: { group: 7 } });
    expect(ladderOf("P3", [9, 1], stored)).toEqual({ steps: root, from: { group: 1 } });
    expect(ladderOf("P4", [9], stored)).toEqual({ steps: DEFAULT_LADDER, from: null });
  });

  it("validates a ladder with field errors: numbers, order, roles, count", () => {
    const ok = LadderSchema.safeParse({
      steps: [
        { afterMinutes: "0", roles: "operator" },
        { afterMinutes: 15, roles: ["owner", "safety"] },
      ],
    });
    expect(ok.success && ok.data.steps).toEqual([
      { afterMinutes: 0, roles: ["operator"] },
      { afterMinutes: 15, roles: ["safety", "owner"] },
    ]);
    const bad = LadderSchema.safeParse({
      steps: [
        { afterMinutes: 30, roles: ["owner"] },
        { afterMinutes: 40, roles: ["owner"] },
        { afterMinutes: "x", roles: ["owner"] },
        { afterMinutes: 99_999, roles: [] },
        { afterMinutes: -1, roles: ["boss"] },
      ],
    });
    expect(bad.success).toBe(false);
    if (!bad.success)
      expect(fieldErrorsOf(bad.error)).toMatchObject({
        "steps.2.afterMinutes": "not_a_number",
        "steps.3.afterMinutes": "too_large",
        "steps.3.roles": "no_role",
        "steps.4.afterMinutes": "too_small",
        "steps.4.roles.0": "unknown_role",
      });
    // Steps in order, each later than the one before (judged once every step is well formed).
    const unordered = LadderSchema.safeParse({
      steps: [
        { afterMinutes: 30, roles: ["owner"] },
        { afterMinutes: 20, roles: ["owner"] },
        { afterMinutes: 20, roles: ["safety"] },
      ],
    });
    expect(!unordered.success && fieldErrorsOf(unordered.error)).toEqual({
      "steps.1.afterMinutes": "not_after_previous",
      "steps.2.afterMinutes": "not_after_previous",
    });
    const none = LadderSchema.safeParse({ steps: [] });
    expect(!none.success && fieldErrorsOf(none.error)).toEqual({ steps: "no_steps" });
    const many = LadderSchema.safeParse({ steps: Array.from({ length: 7 }, (_, i) => ({ afterMinutes: i, roles: ["owner"] })) });
    expect(!many.success && fieldErrorsOf(many.error)).toEqual({ steps: "too_many_steps" });
  });

  it("reads stored steps back, and a broken row as none", () => {
    expect(parseStoredLadder(JSON.stringify([{ afterMinutes: 5, roles: ["owner"] }]))).toEqual([
      { afterMinutes: 5, roles: ["owner"] },
    ]);
    expect(parseStoredLadder("{")).toBeNull();
    expect(parseStoredLadder("[]")).toBeNull();
  });
});
