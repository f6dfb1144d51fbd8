import { describe, expect, it } from "vitest";
import { buildTree, descendantsOf, flattenTree, GroupCreateFields, GroupUpdateFields, moveProblem, pathTo } from "./group-tree";

const rows = [
  { seq: 1, parent_seq: null, name: "전체", sort_order: 0 },
  { seq: 2, parent_seq: 1, name: "영남", sort_order: 2 },
  { seq: 3, parent_seq: 1, name: "호남", sort_order: 1 },
  { seq: 4, parent_seq: 2, name: "경북", sort_order: 0 },
  { seq: 5, parent_seq: 4, name: "포항", sort_order: 0 },
];

describe("group tree", () => {
  it("builds the tree ordered by sort_order then name", () => {
    const flat = flattenTree(buildTree(rows)).map((r) => `${"-".repeat(r.depth)}${r.node.name}`);
    expect(flat).toEqual(["전체", "-호남", "-영남", "--경북", "---포항"]);
  });
  it("treats rows whose parent is outside the set as roots (a member's own subtree)", () => {
    const sub = rows.filter((r) => [2, 4, 5].includes(r.seq));
    expect(buildTree(sub).map((t) => t.node.seq)).toEqual([2]);
  });
  it("finds descendants and the path from the root", () => {
    expect([...descendantsOf(rows, 2)].sort()).toEqual([2, 4, 5]);
    expect(pathTo(rows, 5).map((r) => r.seq)).toEqual([1, 2, 4, 5]);
  });
  it("refuses moves that would break the tree", () => {
    expect(moveProblem(rows, 2, 5)).toBe("into_own_subtree");
    expect(moveProblem(rows, 2, 2)).toBe("same_node");
    expect(moveProblem(rows, 1, 3)).toBe("is_root");
    expect(moveProblem(rows, 4, 99)).toBe("unknown_parent");
    expect(moveProblem(rows, 4, 3)).toBeNull();
  });
  it("validates names and seqs from forms and JSON alike", () => {
    expect(GroupCreateFields.safeParse({ name: " 강원 ", parent_seq: "1" })).toMatchObject({
      success: true,
      data: { name: "강원", parent_seq: 1 },
    });
    const bad = GroupCreateFields.safeParse({ name: "", parent_seq: "x" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => `${i.path.join(".")}:${i.message}`).sort()).toEqual([
      "name:required",
      "parent_seq:invalid",
    ]);
    expect(GroupUpdateFields.safeParse({}).success).toBe(false);
    expect(GroupUpdateFields.safeParse({ name: "x".repeat(51) }).error!.issues[0].message).toBe("too_long");
  });
});
