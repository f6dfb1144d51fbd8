/** Member administration queries (SPEC §3 Member, §7 /member/node/list …), always within a scope. */
import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import type { MemberAdminRow, MemberListFilter, MemberPlantLink } from "../../domain/member-form";
import { reachesNode } from "../../domain/visibility";
import type { AdminReach } from "./admin-scope";
import { subtreeSeqs } from "./visibility";
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
