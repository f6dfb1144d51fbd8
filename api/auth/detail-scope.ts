/**
 * What a detail-window session may call (SPEC §2 Detail window, §6 last two rules). Its tokens carry
 * `scope: {kind, uid}`; authenticate() refuses everything this list does not name with 403
 * `outside_detail_scope`. Deliberately an allow-list: a new API route is closed to detail windows
 * until someone decides it belongs here.
 */
import type { DetailScope } from "../../domain/contract/auth";

type Query = Record<string, unknown>;

/** Calls every detail session may make, whatever its scope. */
const ALWAYS: ReadonlyArray<[method: string, path: string]> = [
  ["GET", "/member/isAuth"],
  ["GET", "/member/logout"],
  ["POST", "/member/logout"],
  // The detail window's own view: answers only the scope's plant or member.
  ["GET", "/member/detail/view"],
];

/** Query parameters that name a plant; a scoped call must name exactly the scope's plant in each. */
const PLANT_PARAMS = ["plantUid", "uid"] as const;

/** Plant-keyed reads a plant-scoped session may make when every plant it names is its own. */
const PLANT_READS = new Set(["/pvstatus/new"]);

function only(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === "string") return value[0];
  return null;
}

export function detailScopeAllows(scope: DetailScope, method: string, path: string, query: Query = {}): boolean {
  const m = method.toUpperCase();
  const p = path.length > 1 ? path.replace(/\/+$/, "") : path;
  if (ALWAYS.some(([am, ap]) => am === m && ap === p)) return true;
  if (scope.kind !== "plant" || m !== "GET" || !PLANT_READS.has(p)) return false;
  const named = PLANT_PARAMS.filter((k) => query[k] !== undefined);
  return named.length > 0 && named.every((k) => only(query[k]) === scope.uid);
}
