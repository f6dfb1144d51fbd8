/** Member administration queries (SPEC §3 Member, §7 /member/node/list …), always within a scope. */
import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import type { z } from "zod";
import type {
  MemberAdminRow,
  MemberCreateFields,
  MemberEditFields,
  MemberListFilter,
  MemberPlantLink,
} from "../../domain/member-form";
import { reachesNode } from "../../domain/visibility";
import type { AdminReach } from "./admin-scope";
import { subtreeSeqs } from "./visibility";
import { replacePassword } from "./members";
import type { Database } from "./schema";

const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function rowSelect(eb: ExpressionBuilder<Database, "member">) {
  return [
    "member.id",
    "member.name",
    "member.auth",
    "member.service",
    "member.node_seq",
    "member.use_yn",
    "member.pwd_yn",
    "member.read_only",
    "member.logo",
    "member.phone",
    "member.email",
    "member.diagram",
    "member.cctv",
    "member.page",
    "member.created_at",
    "member.updated_at",
    eb.selectFrom("node").select("node.name").whereRef("node.seq", "=", "member.node_seq").as("nodeName"),
    eb
      .selectFrom("member_plant")
      .select((e) => e.fn.countAll<number>().as("n"))
      .whereRef("member_plant.member_id", "=", "member.id")
      .as("plantCount"),
  ] as const;
}

type RawRow = Omit<MemberAdminRow, "readOnly" | "nodeName" | "plantCount"> & {
  read_only: number;
  nodeName: string | null;
  plantCount: number | string | null;
};

function toRow(r: RawRow): MemberAdminRow {
  const { read_only, nodeName, plantCount, ...rest } = r;
  return {
    ...rest,
    created_at: Number(rest.created_at),
    updated_at: Number(rest.updated_at),
    readOnly: read_only,
    nodeName: nodeName ?? "",
    plantCount: Number(plantCount ?? 0),
  };
}

/** Members under `nodes` (and with no node when the scope is at the root), filtered. */
export async function listMembers(
  db: Kysely<Database>,
  scope: AdminReach,
  filter: MemberListFilter,
): Promise<{ memberList: MemberAdminRow[]; total: number }> {
  // A member on a root node reaches every member, those without a node included (domain/visibility.ts).
  let nodes: number[] | "all" = scope.all ? "all" : [...scope.nodes];
  let withoutNode = scope.all;
  if (filter.seq !== undefined) {
    const sub = await subtreeSeqs(db, filter.seq);
    nodes = nodes === "all" ? sub : nodes.filter((n) => sub.includes(n));
    withoutNode = false;
  }
  if (nodes !== "all" && !nodes.length && !withoutNode) return { memberList: [], total: 0 };
  const where = (eb: ExpressionBuilder<Database, "member">) => {
    const parts = [];
    if (nodes !== "all") {
      parts.push(
        eb.or([
          ...(nodes.length ? [eb("member.node_seq", "in", nodes)] : []),
          ...(withoutNode ? [eb("member.node_seq", "is", null)] : []),
        ]),
      );
    }
    if (filter.auth !== undefined) parts.push(eb("member.auth", "=", filter.auth));
    if (filter.use !== undefined) parts.push(eb("member.use_yn", "=", filter.use));
    if (filter.plant) {
      parts.push(
        eb.exists(
          eb
            .selectFrom("member_plant")
            .select("member_plant.member_id")
            .whereRef("member_plant.member_id", "=", "member.id")
            .where("member_plant.plant_uid", "=", filter.plant),
        ),
      );
    }
    if (filter.q) {
      const p = likePattern(filter.q);
      parts.push(
        eb.or([sql<boolean>`lower(member.id) like ${p} escape '\\'`, sql<boolean>`lower(member.name) like ${p} escape '\\'`]),
      );
    }
    return eb.and(parts);
  };
  const count = await db
    .selectFrom("member")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(where)
    .executeTakeFirst();
  const rows = await db
    .selectFrom("member")
    .select((eb) => rowSelect(eb))
    .where(where)
    .orderBy("member.id")
    .limit(filter.size)
    .offset((filter.page - 1) * filter.size)
    .execute();
  return { memberList: (rows as RawRow[]).map(toRow), total: Number(count?.n ?? 0) };
}

export async function memberAdminRow(db: Kysely<Database>, id: string): Promise<MemberAdminRow | undefined> {
  const row = await db
    .selectFrom("member")
    .select((eb) => rowSelect(eb))
    .where("member.id", "=", id)
    .executeTakeFirst();
  return row ? toRow(row as RawRow) : undefined;
}

/** A member the scope can see: its node lies under the administering member's node. */
export function memberVisible(scope: AdminReach, m: { node_seq: number | null }): boolean {
  return reachesNode(scope, m.node_seq);
}

export async function linkedPlants(db: Kysely<Database>, memberId: string): Promise<MemberPlantLink[]> {
  const rows = await db
    .selectFrom("member_plant")
    .innerJoin("plant", "plant.uid", "member_plant.plant_uid")
    .select(["plant.uid", "plant.name", "plant.node_seq", "member_plant.created_at as linked_at"])
    .where("member_plant.member_id", "=", memberId)
    .orderBy("plant.name")
    .execute();
  return rows.map((r) => ({ ...r, linked_at: Number(r.linked_at) }));
}

export async function rtusOfPlants(db: Kysely<Database>, plantUids: string[]) {
  if (!plantUids.length) return [];
  return db
    .selectFrom("rtu")
    .select(["uid", "name", "alias", "plant_uid"])
    .where("plant_uid", "in", plantUids)
    .orderBy("name")
    .execute();
}

/** Creates a member (a concurrent create of the same id loses on the primary key and throws). */
export async function createMember(db: Kysely<Database>, m: z.infer<typeof MemberCreateFields>, passwordHash: string) {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("member")
      .values({
        id: m.id,
        password_hash: passwordHash,
        name: m.name,
        auth: m.auth,
        service: m.service,
        node_seq: m.node_seq,
        use_yn: m.use_yn,
        pwd_yn: m.pwd_yn ?? 1,
        read_only: 0,
        logo: null,
        phone: m.phone ?? null,
        email: m.email ?? null,
        helmet_name: null,
        diagram: m.diagram,
        cctv: m.cctv,
        page: m.page,
        created_at: now,
        updated_at: now,
        password_changed_at: null,
      })
      .execute();
  });
}

/**
 * Changes a member's fields. When `endSessions` (level, node or access changed) the member's sessions end
 * in the same transaction, so no token carries the old rights.
 */
export async function changeMember(
  db: Kysely<Database>,
  memberId: string,
  changes: Partial<z.infer<typeof MemberEditFields>>,
  endSessions: boolean,
) {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("member")
      .set({ ...changes, updated_at: now })
      .where("id", "=", memberId)
      .execute();
    if (endSessions) {
      await trx
        .updateTable("token_family")
        .set({ revoked_at: now, revoked_reason: "member_changed" })
        .where("member_id", "=", memberId)
        .where("revoked_at", "is", null)
        .execute();
    }
  });
}

/** Sets a temporary password (to be changed at the next sign-in) and ends the old password's sessions. */
export async function resetPassword(db: Kysely<Database>, memberId: string, passwordHash: string) {
  // The old password's sessions end: whoever held them must sign in with the temporary one.
  await replacePassword(db, memberId, passwordHash, { mustChange: true, reason: "password_reset" }, Date.now());
}

/** Sets (or clears, with null) the member's logo file name. */
export async function setMemberLogo(db: Kysely<Database>, memberId: string, logo: string | null) {
  await db
    .transaction()
    .execute((trx) => trx.updateTable("member").set({ logo, updated_at: Date.now() }).where("id", "=", memberId).execute());
}

/** Deletes a member with their plant links and sessions. */
export async function deleteMember(db: Kysely<Database>, memberId: string) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("member_plant").where("member_id", "=", memberId).execute();
    await trx.deleteFrom("token_family").where("member_id", "=", memberId).execute();
    await trx.deleteFrom("api_token").where("member_id", "=", memberId).execute();
    await trx.deleteFrom("member").where("id", "=", memberId).execute();
  });
}

/** When the member was linked to the plant, undefined when not linked. */
export async function memberPlantLink(db: Kysely<Database>, memberId: string, plantUid: string) {
  return db
    .selectFrom("member_plant")
    .select("created_at")
    .where("member_id", "=", memberId)
    .where("plant_uid", "=", plantUid)
    .executeTakeFirst();
}

/** Links a member to a plant; false when the link existed already. */
export async function linkMemberToPlant(db: Kysely<Database>, memberId: string, plantUid: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const exists = await trx
      .selectFrom("member_plant")
      .select("member_id")
      .where("member_id", "=", memberId)
      .where("plant_uid", "=", plantUid)
      .executeTakeFirst();
    if (exists) return false;
    await trx.insertInto("member_plant").values({ member_id: memberId, plant_uid: plantUid, created_at: Date.now() }).execute();
    return true;
  });
}

export async function unlinkMemberFromPlant(db: Kysely<Database>, memberId: string, plantUid: string) {
  await db.deleteFrom("member_plant").where("member_id", "=", memberId).where("plant_uid", "=", plantUid).execute();
}
