/**
 * The reach of an administering member: the one visibility rule (api/store/visibility.ts) plus the admin
 * level stored now (SPEC §6; the token's may be up to one access-token lifetime old). What they may see and
 * edit is decided by domain/visibility.ts like everywhere else; this module only adds the level check.
 */
import type { Kysely } from "kysely";
import { canAdminister, type AdminArea } from "../../domain/admin-levels";
import type { AccessClaims } from "../../domain/contract/auth";
import { forbidden, notFound } from "../http";
import { memberAdminRow, memberVisible } from "./members-admin";
import type { Database } from "./schema";
import { reachOf, type Reach } from "./visibility";

export interface AdminReach extends Reach {
  /** The level stored now. */
  auth: number;
}

export async function adminReach(
  db: Kysely<Database>,
  claims: Pick<AccessClaims, "id" | "scope" | "apiToken">,
): Promise<AdminReach> {
  const reach = await reachOf(db, claims);
  const me = await db.selectFrom("member").select("auth").where("id", "=", claims.id).executeTakeFirst();
  if (!me) throw forbidden("member_disabled");
  return { ...reach, auth: Number(me.auth) };
}

/** The reach, after checking the stored level still opens the area (the token passed requireAdmin). */
export async function adminReachFor(db: Kysely<Database>, claims: AccessClaims, area: AdminArea): Promise<AdminReach> {
  const reach = await adminReach(db, claims);
  if (!canAdminister(area, reach.auth)) throw forbidden("admin_level_insufficient");
  return reach;
}

/**
 * A member the caller administers in the 'id' area (SPEC §6): under the caller's node and not above their level, the
 * member administration's rule (api/routes/members-admin.ts). 403 without the area, 404 for a member outside it (ids
 * outside the scope are not confirmed).
 */
export async function administeredMember(db: Kysely<Database>, claims: AccessClaims, memberId: string) {
  const scope = await adminReachFor(db, claims, "id");
  const m = await memberAdminRow(db, memberId);
  if (!m || !memberVisible(scope, m) || m.auth > scope.auth) throw notFound("no_such_member");
  return m;
}
