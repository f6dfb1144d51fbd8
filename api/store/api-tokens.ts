/**
 * API tokens in the store (migration 0023; the rules in domain/api-tokens.ts). The secret is a high-entropy random
 * string shown once; the store keeps only its SHA-256. A call with a token runs one UPDATE … RETURNING on the token's
 * row: it finds the token only while it is neither revoked nor expired, counts the call in the minute and day windows
 * and notes the last use — atomically, in the database every server of a cluster shares (like the login throttle,
 * api/auth/login-throttle-store.ts), so a revocation or a spent limit holds on the next call on every server.
 */
import { createHash, randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import {
  API_TOKEN_PREFIX,
  API_TOKEN_SCOPES,
  expiryInstant,
  rateWindows,
  type ApiTokenClaims,
  type ApiTokenCreate,
  type ApiTokenCreated,
  type ApiTokenRow,
  type ApiTokenScope,
} from "../../domain/api-tokens";
import type { ApiTokenTable, Database } from "./schema";

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

type Row = Pick<
  ApiTokenTable,
  | "id"
  | "member_id"
  | "name"
  | "hint"
  | "scope"
  | "plants"
  | "per_minute"
  | "per_day"
  | "created_at"
  | "expires_at"
  | "revoked_at"
  | "revoked_by"
  | "last_used_at"
>;
const COLUMNS = [
  "id",
  "member_id",
  "name",
  "hint",
  "scope",
  "plants",
  "per_minute",
  "per_day",
  "created_at",
  "expires_at",
  "revoked_at",
  "revoked_by",
  "last_used_at",
] as const;

function scopeOf(v: string): ApiTokenScope {
  return (API_TOKEN_SCOPES as readonly string[]).includes(v) ? (v as ApiTokenScope) : "read";
}

function plantsOf(v: string | null): string[] | null {
  if (v === null) return null;
  try {
    const parsed = JSON.parse(v) as unknown;
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string") : [];
  } catch {
    // An unreadable limit limits to nothing rather than to everything.
    return [];
  }
}

function toRow(r: Row): ApiTokenRow {
  return {
    id: r.id,
    memberId: r.member_id,
    name: r.name,
    scope: scopeOf(r.scope),
    plants: plantsOf(r.plants),
    hint: r.hint,
    perMinute: Number(r.per_minute),
    perDay: Number(r.per_day),
    createdAt: Number(r.created_at),
    expiresAt: num(r.expires_at),
    lastUsedAt: num(r.last_used_at),
    revokedAt: num(r.revoked_at),
    revokedBy: r.revoked_by,
  };
}

/** Live (not revoked, not expired) tokens of a member. */
export async function liveTokenCount(db: Kysely<Database>, memberId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom("api_token")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("member_id", "=", memberId)
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Creates a token; the answer carries the secret, which is not kept. */
export async function createApiToken(
  db: Kysely<Database>,
  memberId: string,
  fields: ApiTokenCreate,
  now: number,
): Promise<ApiTokenCreated> {
  const id = randomBytes(9).toString("base64url");
  const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = {
    id,
    member_id: memberId,
    name: fields.name,
    secret_hash: hashOf(secret),
    hint: secret.slice(0, API_TOKEN_PREFIX.length + 6),
    scope: fields.scope,
    plants: fields.plants.length ? JSON.stringify([...fields.plants].sort()) : null,
    per_minute: fields.perMinute,
    per_day: fields.perDay,
    created_at: now,
    expires_at: fields.expiresOn ? expiryInstant(fields.expiresOn) : null,
    revoked_at: null,
    revoked_by: null,
    last_used_at: null,
  };
  await db.insertInto("api_token").values(row).execute();
  return { token: toRow(row), secret };
}

/** A member's tokens, newest first (revoked and expired ones included, so their history stays visible). */
export async function tokensOf(db: Kysely<Database>, memberId: string): Promise<ApiTokenRow[]> {
  const rows = await db
    .selectFrom("api_token")
    .select(COLUMNS)
    .where("member_id", "=", memberId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toRow);
}

export async function apiToken(db: Kysely<Database>, id: string): Promise<ApiTokenRow | undefined> {
  const row = await db.selectFrom("api_token").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Revokes a token (once: a second revocation keeps the first one's time and author). */
export async function revokeApiToken(db: Kysely<Database>, id: string, by: string, now: number): Promise<void> {
  await db
    .updateTable("api_token")
    .set({ revoked_at: now, revoked_by: by })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .execute();
}

export interface TokenUse {
  memberId: string;
  claims: ApiTokenClaims;
  minuteCount: number;
  dayCount: number;
  perMinute: number;
  perDay: number;
}

/**
 * Finds the live token of a secret and counts this call in its windows, in one statement. Undefined when no live
 * token has that secret (unknown, revoked, expired).
 */
export async function useApiToken(db: Kysely<Database>, secret: string, now: number): Promise<TokenUse | undefined> {
  const w = rateWindows(now);
  const row = await db
    .updateTable("api_token")
    .set({
      minute_count: sql<number>`case when minute_start = ${w.minute} then minute_count + 1 else 1 end`,
      minute_start: w.minute,
      day_count: sql<number>`case when day_start = ${w.day} then day_count + 1 else 1 end`,
      day_start: w.day,
      last_used_at: now,
    })
    .where("secret_hash", "=", hashOf(secret))
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .returning(["id", "member_id", "scope", "plants", "per_minute", "per_day", "minute_count", "day_count"])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    memberId: row.member_id,
    claims: { id: row.id, scope: scopeOf(row.scope), plants: plantsOf(row.plants) },
    minuteCount: Number(row.minute_count),
    dayCount: Number(row.day_count),
    perMinute: Number(row.per_minute),
    perDay: Number(row.per_day),
  };
}
