/**
 * The escalation ladder of an alarm (issue 29 §2), pure: who is told, and when, while an alarm stays active
 * (neither acknowledged nor cleared). A ladder is a list of steps, each "after this many minutes of the alarm being
 * active, tell these roles" (a plant's contacts: operator, electrical safety manager, owner). A plant has its own
 * ladder, or its group's (the nearest group up the tree that has one), or DEFAULT_LADDER.
 *
 * The engine (api/telemetry/alarm-engine.ts) asks dueSteps() on every pass; each due step is delivered through the
 * outbox once (a row per alarm, episode and step under a unique key in the store), so a step is never sent twice —
 * across a restart, or with a second server — and none is sent once the alarm is acknowledged or cleared.
 */
import { z } from "zod";

export const LADDER_ROLES = ["operator", "safety", "owner"] as const;
export type LadderRole = (typeof LADDER_ROLES)[number];

export interface LadderStep {
  /** Minutes after the alarm became active (0 = at once). */
  afterMinutes: number;
  roles: LadderRole[];
}

/** At most this many steps; the last at most a week after the alarm became active. */
export const LADDER_MAX_STEPS = 6;
export const LADDER_MAX_MINUTES = 7 * 24 * 60;

/**
 * Everyone at once (the owner and the safety manager, as the 2021 safety standard asks, and the operator), the
 * operator and the safety manager reminded after 15 minutes, the owner again after an hour.
 */
export const DEFAULT_LADDER: readonly LadderStep[] = [
  { afterMinutes: 0, roles: ["operator", "safety", "owner"] },
  { afterMinutes: 15, roles: ["operator", "safety"] },
  { afterMinutes: 60, roles: ["owner"] },
];

/** A form's checkbox ("on", "1"), a JSON boolean or a role list: the roles ticked. */
const StepSchema = z.object({
  afterMinutes: z.coerce
    .number({ invalid_type_error: "not_a_number" })
    .finite("not_a_number")
    .int("not_an_integer")
    .min(0, "too_small")
    .max(LADDER_MAX_MINUTES, "too_large"),
  roles: z.preprocess(
    (v) => (v === undefined || v === "" ? [] : ([] as unknown[]).concat(v)),
    z
      .array(z.enum(LADDER_ROLES, { errorMap: () => ({ message: "unknown_role" }) }))
      .min(1, "no_role")
      .transform((r) => LADDER_ROLES.filter((x) => r.includes(x))),
  ),
});

/** A ladder as an admin saves it: 1–6 steps, each later than the one before, each to at least one role. */
export const LadderSchema = z.object({
  steps: z
    .array(StepSchema)
    .min(1, "no_steps")
    .max(LADDER_MAX_STEPS, "too_many_steps")
    .superRefine((steps, ctx) => {
      for (let i = 1; i < steps.length; i++)
        if (steps[i]!.afterMinutes <= steps[i - 1]!.afterMinutes)
          ctx.addIssue({ code: "custom", path: [i, "afterMinutes"], message: "not_after_previous" });
    }),
});
export type LadderInput = z.input<typeof LadderSchema>;

/** Where a ladder is kept: a plant's own, or a group's (for the plants under it without one of their own). */
export type LadderScope = { plant: string } | { group: number };
export const ladderScopeKey = (s: LadderScope) => ("plant" in s ? `plant:${s.plant}` : `group:${s.group}`);

/**
 * The ladder of a plant: its own, else that of the nearest group on its path (from its own group up to the root),
 * else the default. `stored` maps ladderScopeKey → steps.
 */
export function ladderOf(
  plantUid: string,
  groupPath: readonly number[],
  stored: ReadonlyMap<string, readonly LadderStep[]>,
): { steps: readonly LadderStep[]; from: LadderScope | null } {
  const own = stored.get(ladderScopeKey({ plant: plantUid }));
  if (own) return { steps: own, from: { plant: plantUid } };
  for (const group of groupPath) {
    const g = stored.get(ladderScopeKey({ group }));
    if (g) return { steps: g, from: { group } };
  }
  return { steps: DEFAULT_LADDER, from: null };
}

/** The indexes of the steps due at `now` for an alarm active since `activeSince` (all of them, in order). */
export function dueSteps(steps: readonly LadderStep[], activeSince: number, now: number): number[] {
  const due: number[] = [];
  steps.forEach((s, i) => {
    if (activeSince + s.afterMinutes * 60_000 <= now) due.push(i);
  });
  return due;
}

/** Stored steps (JSON) read back; anything that is not a valid ladder answers null (the next one up applies). */
export function parseStoredLadder(json: string): LadderStep[] | null {
  try {
    const parsed = LadderSchema.safeParse({ steps: JSON.parse(json) });
    return parsed.success ? parsed.data.steps : null;
  } catch {
    return null;
  }
}
