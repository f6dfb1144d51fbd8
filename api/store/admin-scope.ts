/**
 * The reach of an administering member: their node and everything under it (SPEC §3, issue 5
 * "a member sees and edits only what lies under their node"). Read from the store on every call,
 * so a level or node change applies at once even while an older access token is still valid.
 */
import type { Kysely } from "kysely";
import { canAdminister, type AdminArea } from "../../domain/admin-levels";
import type { AccessClaims } from "../../domain/contract/auth";
import { forbidden } from "../http";
import { subtreeSeqs } from "./access";
import type { Database } from "./schema";

export interface AdminScope {
  id: string;
  /** The level stored now (the token's may be up to one access-token lifetime old). */
  auth: number;
  nodeSeq: number | null;
  /** Node seqs the member may administer: their node and its descendants. */
  nodes: number[];
  /** True when the member's node is a root of the tree: they also reach rows with no node. */
  atRoot: boolean;
}

export async function adminScope(db: Kysely<Database>, claims: AccessClaims): Promise<AdminScope> {
  const me = await db
    .selectFrom("member")
    .leftJoin("node", "node.seq", "member.node_seq")
    .select(["member.id", "member.auth", "member.node_seq", "member.use_yn", "node.parent_seq", "node.seq as nseq"])
    .where("member.id", "=", claims.id)
    .executeTakeFirst();
  if (!me || me.use_yn !== 1) throw forbidden("member_disabled");
  const nodes = me.node_seq === null || me.nseq === null ? [] : await subtreeSeqs(db, me.node_seq);
  return {
    id: me.id,
    auth: me.auth,
    nodeSeq: me.node_seq,
    nodes,
    atRoot: me.nseq !== null && me.parent_seq === null,
  };
}

/** The scope, after checking the stored level still opens the area (the token passed requireAdmin). */
export async function adminScopeFor(db: Kysely<Database>, claims: AccessClaims, area: AdminArea): Promise<AdminScope> {
  const scope = await adminScope(db, claims);
  if (!canAdminister(area, scope.auth)) throw forbidden("admin_level_insufficient");
  return scope;
}

export function nodeInScope(scope: AdminScope, seq: number | null | undefined): boolean {
  if (seq === null || seq === undefined) return scope.atRoot;
  return scope.nodes.includes(seq);
}
