/**
 * The one list of what the kept answers read (api/cache/table-answers.ts): each kept answer names its entry here, and
 * PostgreSQL's notices of writes (migration 0019) cover exactly these tables — a test holds the two together. A table
 * that a kept answer starts to read is added here and to a new migration's triggers.
 */
import type { Database } from "../store/schema";

export const KEPT_ANSWERS = {
  /** The alarm screen's list (api/routes/alarm.ts). */
  alarmList: ["alarm", "plant", "device"],
  /** The after-login pop-up's notices (api/routes/notices.ts). */
  notices: ["notice"],
  /** A member's report scopes and resolved scopes (api/routes/statistics.ts). */
  reportScopes: ["member", "member_plant", "node", "plant", "device"],
  /** Whether a session stands (api/auth/sessions.ts). */
  sessions: ["token_family"],
  /** The plants a member sees on the status screens (api/routes/pvstatus.ts). */
  visiblePlants: ["member", "member_plant", "node", "plant"],
  /**
   * The plants' status rows, kept per plant (api/cache/status-rows.ts): a write to these drops every row; readings and
   * alarm changes drop their plants' rows by name (the cache's own notice), not through these tables.
   */
  plantStatus: ["plant", "device"],
} as const satisfies Record<string, ReadonlyArray<keyof Database>>;

export type KeptAnswer = keyof typeof KEPT_ANSWERS;

/** Every table a kept answer reads. */
export const KEPT_TABLES: readonly string[] = [...new Set(Object.values(KEPT_ANSWERS).flat())].sort();

/**
 * A parsed answer shared by every request that gets it: frozen outside production, so a mutation fails loudly
 * (in production the freezing walk is skipped; the rule is the same).
 */
export function shared<T>(value: T): T {
  if (process.env.NODE_ENV === "production") return value;
  const freeze = (v: unknown) => {
    if (v && typeof v === "object" && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const x of Object.values(v)) freeze(x);
    }
  };
  freeze(value);
  return value;
}
