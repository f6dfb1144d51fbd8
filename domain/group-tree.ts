/**
 * The group tree (node table: seq, parent_seq, name, sort_order): shape it for display and
 * decide whether a move keeps it a tree. Pure; used by the API (authoritative) and the portal.
 */
import { z } from "zod";
import { toInt } from "./member-form";

export interface TreeNodeRow {
  seq: number;
  parent_seq: number | null;
  name: string;
  sort_order: number;
}

export interface TreeNode<T extends TreeNodeRow = TreeNodeRow> {
  node: T;
  depth: number;
  children: TreeNode<T>[];
}

export const GROUP_NAME_MAX = 50;

const byOrder = (a: TreeNodeRow, b: TreeNodeRow) =>
  a.sort_order - b.sort_order || a.name.localeCompare(b.name, "ko") || a.seq - b.seq;

/** Builds the forest from flat rows; rows whose parent is not among them become roots. */
export function buildTree<T extends TreeNodeRow>(rows: readonly T[]): TreeNode<T>[] {
  const seqs = new Set(rows.map((r) => r.seq));
  const kids = new Map<number | null, T[]>();
  for (const r of rows) {
    const parent = r.parent_seq !== null && seqs.has(r.parent_seq) ? r.parent_seq : null;
    const list = kids.get(parent) ?? [];
    list.push(r);
    kids.set(parent, list);
  }
  const visit = (parent: number | null, depth: number, seen: Set<number>): TreeNode<T>[] =>
    (kids.get(parent) ?? [])
      .slice()
      .sort(byOrder)
      .filter((n) => !seen.has(n.seq))
      .map((n) => {
        seen.add(n.seq);
        return { node: n, depth, children: visit(n.seq, depth + 1, seen) };
      });
  return visit(null, 0, new Set());
}

/** Depth-first order with depth, for an indented list or a <select>. */
export function flattenTree<T extends TreeNodeRow>(forest: readonly TreeNode<T>[]): Array<{ node: T; depth: number }> {
  const out: Array<{ node: T; depth: number }> = [];
  const walk = (list: readonly TreeNode<T>[]) => {
    for (const t of list) {
      out.push({ node: t.node, depth: t.depth });
      walk(t.children);
    }
  };
  walk(forest);
  return out;
}

/** Seqs of the subtree under `root`, root included. */
export function descendantsOf(rows: readonly TreeNodeRow[], root: number): Set<number> {
  const out = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of rows) {
      if (r.parent_seq !== null && out.has(r.parent_seq) && !out.has(r.seq)) {
        out.add(r.seq);
        grew = true;
      }
    }
  }
  return out;
}

export type MoveProblem = "is_root" | "same_node" | "into_own_subtree" | "unknown_parent";

/** Why `seq` may not hang under `newParent`, or null when the move keeps a tree. */
export function moveProblem(rows: readonly TreeNodeRow[], seq: number, newParent: number): MoveProblem | null {
  const node = rows.find((r) => r.seq === seq);
  if (!node || node.parent_seq === null) return "is_root";
  if (seq === newParent) return "same_node";
  if (!rows.some((r) => r.seq === newParent)) return "unknown_parent";
  if (descendantsOf(rows, seq).has(newParent)) return "into_own_subtree";
  return null;
}

/** Ancestors from the root down to `seq` (for a breadcrumb). */
export function pathTo<T extends TreeNodeRow>(rows: readonly T[], seq: number): T[] {
  const bySeq = new Map(rows.map((r) => [r.seq, r]));
  const out: T[] = [];
  let cur = bySeq.get(seq);
  const seen = new Set<number>();
  while (cur && !seen.has(cur.seq)) {
    seen.add(cur.seq);
    out.unshift(cur);
    cur = cur.parent_seq === null ? undefined : bySeq.get(cur.parent_seq);
  }
  return out;
}

export const groupName = z
  .string({ required_error: "required", invalid_type_error: "required" })
  .trim()
  .min(1, "required")
  .max(GROUP_NAME_MAX, "too_long");
const seqField = z.preprocess(
  toInt,
  z.number({ required_error: "required", invalid_type_error: "invalid" }).int("invalid").positive("invalid"),
);
const sortOrder = z.preprocess(
  toInt,
  z.number({ invalid_type_error: "invalid" }).int("invalid").min(0, "invalid").max(9999, "invalid"),
);

/** POST /api/node: a new group under a parent. */
export const GroupCreateFields = z.object({ name: groupName, parent_seq: seqField, sort_order: sortOrder.optional() });
/** PUT /api/node/{seq}: rename, re-order and/or move. */
export const GroupUpdateFields = z
  .object({ name: groupName.optional(), parent_seq: seqField.optional(), sort_order: sortOrder.optional() })
  .refine((v) => v.name !== undefined || v.parent_seq !== undefined || v.sort_order !== undefined, {
    message: "nothing_to_change",
    path: ["_"],
  });

/** The group list answer is a payload of the contract (domain/contract/admin.ts). */
export type { GroupListResponse, GroupRow } from "./contract/admin";

/** What keeps a group from being deleted (DELETE /api/node/{seq} answers 409 with these names). */
export interface GroupDependants {
  children: string[];
  plants: string[];
  rtus: string[];
  members: string[];
}
