/**
 * API tokens for other systems (issue 27 point 6): the rules written once, for the API (authoritative) and the portal's
 * form (the same schema before the round trip).
 *
 * - A token acts as the member who made it, never wider: the member's visibility (domain/visibility.ts) narrowed
 *   to the token's plants when it names some, and to reading when its scope is `read`.
 * - Scope `read`: GET and HEAD only. Scope `command`: reading plus the operating calls (device commands, alarm
 *   acknowledgement and release) — configuration writes stay with the portal's own sessions.
 * - A token never reaches the calls that manage members, sessions or tokens (`/member…`, `/token…`).
 * - Every token counts its calls per minute and per day (fixed windows; the day is Seoul's calendar day) in the
 *   store, so every server of a cluster shares the count; over either limit the call is answered 429 with
 *   `Retry-After` (seconds until the window that ran out starts again).
 */
import { z } from "zod";

/** What an API token's secret starts with: tells it apart from a session's access token (a JWT, `eyJ…`). */
export const API_TOKEN_PREFIX = "spt_";
export const API_TOKEN_SCOPES = ["read", "command"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_NAME_MAX = 60;
/** How many live tokens one member may hold. */
export const API_TOKEN_MAX_PER_MEMBER = 20;
export const API_TOKEN_MAX_PLANTS = 200;
/** Limits a token may be given, and what it gets when none is asked for. */
export const RATE_LIMITS = {
  perMinute: { min: 1, max: 600, default: 60 },
  perDay: { min: 1, max: 100_000, default: 10_000 },
} as const;
/** The longest expiry a token may be given, in days from its creation. */
export const API_TOKEN_MAX_DAYS = 3660;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Seoul has no daylight saving: its day starts at 15:00 UTC. */
const SEOUL_OFFSET_MS = 9 * 3_600_000;

const toOptionalInt = (v: unknown) => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") {
    const s = v.trim();
    if (s === "") return undefined;
    return /^-?\d+$/.test(s) ? Number(s) : v;
  }
  return v;
};
const limit = (bounds: { min: number; max: number; default: number }) =>
  z.preprocess(
    toOptionalInt,
    z
      .number({ invalid_type_error: "invalid" })
      .int("invalid")
      .min(bounds.min, "out_of_range")
      .max(bounds.max, "out_of_range")
      .default(bounds.default),
  );

/** `YYYY-MM-DD` (the token stops working at the end of that Seoul day), or empty for no expiry. */
const expiry = z.preprocess(
  (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : typeof v === "string" ? v.trim() : v),
  z
    .string({ invalid_type_error: "invalid_date" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "invalid_date")
    .refine(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      "invalid_date",
    )
    .optional(),
);

/** A checkbox list or a JSON array of plant uids; empty means "every plant the member sees". */
const plantList = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : typeof v === "string" ? [v] : v),
  z
    .array(z.string({ invalid_type_error: "invalid" }).trim().min(1, "invalid").max(64, "invalid"), {
      invalid_type_error: "invalid",
    })
    .max(API_TOKEN_MAX_PLANTS, "too_many")
    .transform((a) => [...new Set(a)]),
);

export const ApiTokenCreateFields = z.object({
  name: z
    .string({ required_error: "required", invalid_type_error: "required" })
    .trim()
    .min(1, "required")
    .max(API_TOKEN_NAME_MAX, "too_long"),
  scope: z.enum(API_TOKEN_SCOPES, { errorMap: () => ({ message: "invalid_scope" }) }),
  plants: plantList,
  expiresOn: expiry,
  perMinute: limit(RATE_LIMITS.perMinute),
  perDay: limit(RATE_LIMITS.perDay),
});
export type ApiTokenCreate = z.infer<typeof ApiTokenCreateFields>;

/** The end of the Seoul day `YYYY-MM-DD` (exclusive), in ms since the epoch. */
export function expiryInstant(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) + DAY_MS - SEOUL_OFFSET_MS;
}

/** Field problems of an expiry that the schema cannot judge alone (it depends on now). */
export function expiryProblem(day: string | undefined, now: number): string | null {
  if (!day) return null;
  const at = expiryInstant(day);
  if (at <= now) return "in_the_past";
  if (at - now > API_TOKEN_MAX_DAYS * DAY_MS) return "too_far";
  return null;
}

/** A token as its owner and admins see it (never its secret, which is shown once at creation). */
export interface ApiTokenRow {
  id: string;
  memberId: string;
  name: string;
  scope: ApiTokenScope;
  /** The plants it is limited to; null: every plant the member sees. */
  plants: string[] | null;
  /** The secret's first characters, to tell tokens apart. */
  hint: string;
  perMinute: number;
  perDay: number;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** Who revoked it (the member or an admin). */
  revokedBy: string | null;
}

export type ApiTokenState = "active" | "expired" | "revoked";
export function tokenState(t: Pick<ApiTokenRow, "expiresAt" | "revokedAt">, now: number): ApiTokenState {
  if (t.revokedAt !== null) return "revoked";
  if (t.expiresAt !== null && t.expiresAt <= now) return "expired";
  return "active";
}

export interface ApiTokenCreated {
  token: ApiTokenRow;
  /** The whole secret: shown this once, stored only as its SHA-256. */
  secret: string;
}

export interface ApiTokenListResponse {
  tokens: ApiTokenRow[];
  /** Plants a new token may be limited to: those the member sees. */
  plants: Array<{ uid: string; name: string }>;
  limits: typeof RATE_LIMITS;
  maxTokens: number;
}

export interface MemberApiTokensResponse {
  member: { id: string; name: string; auth: number };
  tokens: ApiTokenRow[];
}

/** The claims a call made with an API token carries (beside the member's own). */
export interface ApiTokenClaims {
  id: string;
  scope: ApiTokenScope;
  plants: string[] | null;
}

/** Starts of the minute and the (Seoul) day windows that hold `now`. */
export function rateWindows(now: number): { minute: number; day: number } {
  return {
    minute: Math.floor(now / MINUTE_MS) * MINUTE_MS,
    day: Math.floor((now + SEOUL_OFFSET_MS) / DAY_MS) * DAY_MS - SEOUL_OFFSET_MS,
  };
}

/**
 * Seconds a call over a limit must wait (0: within both limits). `minuteCount` and `dayCount` are the counts with
 * this call included.
 */
export function rateWait(
  counts: { minuteCount: number; dayCount: number },
  limits: { perMinute: number; perDay: number },
  now: number,
): number {
  const w = rateWindows(now);
  let until = 0;
  if (counts.dayCount > limits.perDay) until = Math.max(until, w.day + DAY_MS);
  if (counts.minuteCount > limits.perMinute) until = Math.max(until, w.minute + MINUTE_MS);
  return until ? Math.max(1, Math.ceil((until - now) / 1000)) : 0;
}

/** Calls a token may never make: managing members, sessions and tokens. */
export function tokenPathRefused(path: string): boolean {
  return /^\/(member|token)(\/|$)/i.test(path);
}

/** The writes scope `command` allows: device commands, alarm acknowledgement and release. */
const COMMAND_WRITES: RegExp[] = [
  /^\/command(\/|$)/i,
  /^\/alarm\/[^/]+\/(ack|release)$/i,
  /^\/measurement\/setGridAlarmRelease$/i,
];

/** May a token of this scope make this call (method and path below /api)? Member and token calls never. */
export function tokenAllows(scope: ApiTokenScope, method: string, path: string): "ok" | "not_for_tokens" | "scope" {
  if (tokenPathRefused(path)) return "not_for_tokens";
  const m = method.toUpperCase();
  if (m === "GET" || m === "HEAD") return "ok";
  if (scope === "command" && COMMAND_WRITES.some((re) => re.test(path))) return "ok";
  return "scope";
}
