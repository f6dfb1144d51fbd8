/**
 * Sessions as refresh-token families. Each refresh rotates the family's current token;
 * presenting a token that was already rotated away revokes the whole family (theft signal),
 * except within a short grace window for the immediately previous token, so that parallel
 * requests racing on one renewal do not log the member out.
 */
import { randomBytes } from "node:crypto";
import type { AccessClaims, DetailScope, TokenResponse } from "../../domain/contract/auth";
import { reachOf, visiblePlantUids } from "../store/visibility";
import type { Store } from "../store/db";
import type { Member, TokenFamily } from "../store/schema";
import type { TokenSigner } from "./tokens";
import { TableAnswers } from "../cache/table-answers";
import type { ClusterNotices } from "../cache/answer-cache";

export const REUSE_GRACE_MS = 30_000;

const newId = () => randomBytes(18).toString("base64url");

/** A detail-window session keeps its scope for life: every renewal re-issues it (migration 0004). */
function scopeOf(family: Pick<TokenFamily, "scope_kind" | "scope_uid">): DetailScope | undefined {
  return (family.scope_kind === "plant" || family.scope_kind === "member") && family.scope_uid
    ? { kind: family.scope_kind, uid: family.scope_uid }
    : undefined;
}

export interface SessionConfig {
  accessTokenTtl: number;
  refreshTokenTtl: number;
  assetBase: string;
}

/**
 * Session rows as the check on every call reads them (revoked, expiry), kept until the token_family table is written:
 * on this server at the write's commit (a logout, a reuse detected, a password change), by another server or by hand
 * through the database's notice (PostgreSQL, migration 0018) or data_version (SQLite) — api/cache/table-answers.ts.
 * A page's four API calls check the session once. The life is a safety net only.
 */
const LIVE_CACHE = { maxBytes: 2 * 1024 * 1024, ttlMs: 60_000 };

export class Sessions {
  private readonly rows: TableAnswers;

  constructor(
    private store: Store,
    private signer: TokenSigner,
    private cfg: SessionConfig,
    notices?: ClusterNotices,
  ) {
    this.rows = new TableAnswers({ channel: "solar_sessions", reads: "sessions", ...LIVE_CACHE, notices, store });
  }

  /** `scope` starts a detail-window session limited to one plant or member (SPEC §2 Detail window). */
  async start(member: Member, userAgent: string | undefined, now = Date.now(), scope?: DetailScope): Promise<TokenResponse> {
    const id = newId();
    const jti = newId();
    const expiresAt = now + this.cfg.refreshTokenTtl * 1000;
    await this.store.db
      .insertInto("token_family")
      .values({
        id,
        member_id: member.id,
        current_jti: jti,
        previous_jti: null,
        rotated_at: now,
        expires_at: expiresAt,
        revoked_at: null,
        revoked_reason: null,
        created_at: now,
        user_agent: userAgent?.slice(0, 200) ?? null,
        scope_kind: scope?.kind ?? null,
        scope_uid: scope?.uid ?? null,
      })
      .execute();
    return this.issue(member, id, jti, expiresAt, now, scope);
  }

  /**
   * Rotates a refresh token. `extend` also slides the session's expiry (refresh of the refresh token).
   * Returns null when the token is invalid, expired, revoked or reused.
   */
  async rotate(refreshToken: string, opts: { extend?: boolean } = {}, now = Date.now()): Promise<TokenResponse | null> {
    const claims = await this.signer.verifyRefresh(refreshToken);
    if (!claims) return null;
    const db = this.store.db;
    const family = await db.selectFrom("token_family").selectAll().where("id", "=", claims.sid).executeTakeFirst();
    if (!family || family.revoked_at !== null || family.expires_at <= now) return null;
    const member = await this.activeMember(family.member_id);
    if (!member) return null;

    if (claims.jti === family.current_jti) {
      const jti = newId();
      const expiresAt = opts.extend ? now + this.cfg.refreshTokenTtl * 1000 : family.expires_at;
      const result = await db
        .updateTable("token_family")
        .set({ current_jti: jti, previous_jti: family.current_jti, rotated_at: now, expires_at: expiresAt })
        .where("id", "=", family.id)
        .where("current_jti", "=", claims.jti)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return this.issue(member, family.id, jti, expiresAt, now, scopeOf(family));
      // Another request rotated it first: fall through to the grace rule with fresh state.
      return this.rotate(refreshToken, opts, now);
    }
    if (claims.jti === family.previous_jti && now - family.rotated_at < REUSE_GRACE_MS) {
      return this.issue(member, family.id, family.current_jti, family.expires_at, now, scopeOf(family));
    }
    await this.revoke(family.id, "refresh_token_reuse", now);
    return null;
  }

  async revoke(sessionId: string, reason: string, now = Date.now()): Promise<void> {
    await this.store.db
      .updateTable("token_family")
      .set({ revoked_at: now, revoked_reason: reason })
      .where("id", "=", sessionId)
      .where("revoked_at", "is", null)
      .execute();
  }

  async revokeAllOf(memberId: string, reason: string, now = Date.now()): Promise<void> {
    await this.store.db
      .updateTable("token_family")
      .set({ revoked_at: now, revoked_reason: reason })
      .where("member_id", "=", memberId)
      .where("revoked_at", "is", null)
      .execute();
  }

  /**
   * Whether a session still stands (checked on every call, so logout takes effect at once; on the other servers of a
   * cluster once the database's notice of the write has reached them, a moment later).
   */
  async isLive(sessionId: string, now = Date.now()): Promise<boolean> {
    const text = await this.rows.of(sessionId, async () => {
      const row = await this.store.db
        .selectFrom("token_family")
        .select(["revoked_at", "expires_at"])
        .where("id", "=", sessionId)
        .executeTakeFirst();
      return row ? { revoked: row.revoked_at !== null, expires: Number(row.expires_at) } : null;
    });
    const row = JSON.parse(text.body.toString()) as { revoked: boolean; expires: number } | null;
    return !!row && !row.revoked && row.expires > now;
  }

  /** New access token for an unchanged session, e.g. after the member changed the password. */
  async reissue(member: Member, sessionId: string, now = Date.now()): Promise<TokenResponse | null> {
    const family = await this.store.db.selectFrom("token_family").selectAll().where("id", "=", sessionId).executeTakeFirst();
    if (!family || family.revoked_at !== null) return null;
    return this.issue(member, family.id, family.current_jti, family.expires_at, now, scopeOf(family));
  }

  private async activeMember(id: string): Promise<Member | undefined> {
    return this.store.db.selectFrom("member").selectAll().where("id", "=", id).where("use_yn", "=", 1).executeTakeFirst();
  }

  private async issue(
    member: Member,
    sid: string,
    jti: string,
    expiresAt: number,
    now: number,
    scope?: DetailScope,
  ): Promise<TokenResponse> {
    const claims = { ...(await this.claimsOf(member, sid)), ...(scope ? { scope } : {}) };
    const accessToken = await this.signer.signAccess(claims, this.cfg.accessTokenTtl, now);
    const refreshToken = await this.signer.signRefresh({ sub: member.id, sid, jti, expiresAt });
    return { accessToken, refreshToken, sessionId: sid, pwd_yn: member.pwd_yn };
  }

  private async claimsOf(member: Member, sid: string): Promise<Omit<AccessClaims, "exp" | "iat" | "typ">> {
    const db = this.store.db;
    const node =
      member.node_seq === null
        ? undefined
        : await db.selectFrom("node").select("name").where("seq", "=", member.node_seq).executeTakeFirst();
    const plants = await db
      .selectFrom("member_plant")
      .innerJoin("plant", "plant.uid", "member_plant.plant_uid")
      .select(["plant.uid", "plant.name"])
      .where("member_plant.member_id", "=", member.id)
      .limit(2)
      .execute();
    const visible = await visiblePlantUids(db, await reachOf(db, { id: member.id }));
    const alarms = visible.length
      ? await db
          .selectFrom("alarm")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("plant_uid", "in", visible)
          .where("released_at", "is", null)
          .executeTakeFirst()
      : { n: 0 };
    return {
      id: member.id,
      sid,
      auth: member.auth,
      service: member.service,
      nodeName: node?.name ?? "",
      logo: member.logo ?? "",
      S3_DOMAIN: this.cfg.assetBase,
      diagram: member.diagram,
      cctv: member.cctv,
      page: member.page,
      phone: member.phone ?? "",
      helmetName: member.helmet_name ?? "",
      plantName: plants.length === 1 ? plants[0].name : "",
      alarmCount: Number(alarms?.n ?? 0),
      pwd_yn: member.pwd_yn,
      readOnly: member.read_only,
    };
  }
}
