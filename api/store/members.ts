import type { Kysely } from "kysely";
import type { MemberProfile } from "../../domain/contract/auth";
import type { Database, Member } from "./schema";

export function findMember(db: Kysely<Database>, id: string): Promise<Member | undefined> {
  return db.selectFrom("member").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function memberExists(db: Kysely<Database>, id: string): Promise<boolean> {
  // Ids are compared case-insensitively so that 'Admin' and 'admin' cannot both exist.
  const row = await db
    .selectFrom("member")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["id"]), "=", id.toLowerCase()))
    .executeTakeFirst();
  return !!row;
}

export async function memberProfile(db: Kysely<Database>, m: Member): Promise<MemberProfile> {
  const node =
    m.node_seq === null ? undefined : await db.selectFrom("node").select("name").where("seq", "=", m.node_seq).executeTakeFirst();
  return {
    id: m.id,
    name: m.name,
    auth: m.auth,
    service: m.service,
    node_seq: m.node_seq,
    nodeName: node?.name ?? "",
    use_yn: m.use_yn,
    pwd_yn: m.pwd_yn,
    readOnly: m.read_only,
    logo: m.logo,
    phone: m.phone,
    email: m.email,
  };
}

/** The member's own profile fields (name, phone, email), in a transaction. */
export async function changeOwnProfile(
  db: Kysely<Database>,
  id: string,
  fields: { name: string; phone: string | null; email: string | null },
  now: number,
): Promise<void> {
  await db.transaction().execute((trx) =>
    trx
      .updateTable("member")
      .set({ ...fields, updated_at: now })
      .where("id", "=", id)
      .execute(),
  );
}

/**
 * Replaces the member's password (already hashed) and ends their sessions, in one transaction: their own change
 * (`keepSid`: the session that changed it continues; pwd_yn cleared, password_changed_at set) or an
 * administrator's reset to a temporary one (`mustChange`: pwd_yn set; every session ends).
 */
export async function replacePassword(
  db: Kysely<Database>,
  id: string,
  passwordHash: string,
  how: { mustChange: true; reason: string } | { mustChange: false; reason: string; keepSid: string },
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("member")
      .set({
        password_hash: passwordHash,
        pwd_yn: how.mustChange ? 1 : 0,
        ...(how.mustChange ? {} : { password_changed_at: now }),
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
    let ended = trx
      .updateTable("token_family")
      .set({ revoked_at: now, revoked_reason: how.reason })
      .where("member_id", "=", id)
      .where("revoked_at", "is", null);
    if (!how.mustChange) ended = ended.where("id", "!=", how.keepSid);
    await ended.execute();
  });
}
