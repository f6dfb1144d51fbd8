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
