import { describe, expect, it } from "vitest";
import { filterWatchTree, localityToken, parseWatchState, pathToNode, watchHref, type WatchTreeNode } from "./watch";

describe("watch URL state", () => {
  it("defaults to the group view, no keyword, no selection", () => {
    expect(parseWatchState(new URLSearchParams())).toEqual({ view: "group", keyword: "", node: null, locality: null });
  });
  it("reads view, q, node and locality and rejects junk", () => {
    expect(parseWatchState(new URLSearchParams("view=locality&q=%20해남%20&locality=전라남도 해남군"))).toEqual({
      view: "locality",
      keyword: "해남",
      node: null,
      locality: "전라남도 해남군",
    });
    expect(parseWatchState(new URLSearchParams("view=tree&node=abc"))).toMatchObject({ view: "group", node: null });
    expect(parseWatchState(new URLSearchParams("node=0"))).toMatchObject({ node: 0 });
    expect(parseWatchState(new URLSearchParams("node=-3"))).toMatchObject({ node: null });
    expect(parseWatchState(new URLSearchParams("node=12"))).toMatchObject({ node: 12 });
    expect(parseWatchState(new URLSearchParams("view=locality&locality=-"))).toMatchObject({ locality: "-" });
    expect(parseWatchState(new URLSearchParams("view=locality&locality=%20%20"))).toMatchObject({ locality: null });
  });
  it("builds hrefs that parse back, and reset is the plain path", () => {
    expect(watchHref({})).toBe("/watch");
    expect(watchHref({ view: "group", keyword: "" })).toBe("/watch");
    const href = watchHref({ view: "locality", keyword: "솔라", locality: "-" });
    expect(parseWatchState(new URL(href, "http://x").searchParams)).toEqual({
      view: "locality",
      keyword: "솔라",
      node: null,
      locality: "-",
    });
    expect(watchHref({ view: "group", node: 7, locality: "x" })).toBe("/watch?node=7");
    expect(watchHref({ node: 0 })).toBe("/watch?node=0");
  });
  it("names the unspecified locality '-'", () => {
    expect(localityToken(null)).toBe("-");
    expect(localityToken("  ")).toBe("-");
    expect(localityToken(" 경기도 ")).toBe("경기도");
  });
});

describe("filterWatchTree", () => {
  const p = (uid: string, name: string) => ({ plant_uid: uid, name });
  const forest: WatchTreeNode[] = [
    {
      seq: 1,
      name: "본사",
      plants: [p("a", "본사 옥상")],
      children: [
        { seq: 2, name: "호남권", plants: [p("b", "해남 솔라팜"), p("c", "영암 햇빛")], children: [] },
        {
          seq: 3,
          name: "영남권",
          plants: [p("d", "밀양 에너지")],
          children: [{ seq: 4, name: "밀양 단지", plants: [], children: [] }],
        },
      ],
    },
  ];
  it("keeps everything for an empty keyword", () => {
    expect(filterWatchTree(forest, " ")).toEqual({ nodes: forest, expanded: [] });
  });
  it("keeps the branches that lead to matching plants, with only those plants", () => {
    const r = filterWatchTree(forest, "해남");
    expect(r.expanded.sort()).toEqual([1, 2]);
    expect(r.nodes[0]!.plants).toEqual([]);
    expect(r.nodes[0]!.children.map((c) => c.seq)).toEqual([2]);
    expect(r.nodes[0]!.children[0]!.plants.map((x) => x.plant_uid)).toEqual(["b"]);
  });
  it("keeps a node whose name matches with its whole subtree", () => {
    const r = filterWatchTree(forest, "영남");
    expect(r.nodes[0]!.children).toEqual([forest[0]!.children[1]]);
    expect(r.expanded).toEqual([1]);
  });
  it("answers nothing when nothing matches", () => {
    expect(filterWatchTree(forest, "제주")).toEqual({ nodes: [], expanded: [] });
  });
  it("finds the path to a node", () => {
    expect(pathToNode(forest, 4)).toEqual([1, 3, 4]);
    expect(pathToNode(forest, 9)).toEqual([]);
  });
});
