import { describe, expect, it } from "vitest";
import { gridPoint, matchesKeyword, monitorViewParams, orderMonitorRows, parseMonitorView } from "./monitoring";

describe("parseMonitorView", () => {
  it("defaults to gen, no keyword, plant name ascending", () => {
    expect(parseMonitorView(new URLSearchParams())).toEqual({ tab: "gen", keyword: "", sort: "name", order: "asc" });
  });
  it("reads tab, q, sort and order, ignoring unknown values", () => {
    expect(parseMonitorView(new URLSearchParams("tab=grid&q=%20솔라%20&sort=time&order=desc"))).toEqual({
      tab: "grid",
      keyword: "솔라",
      sort: "time",
      order: "desc",
    });
    expect(parseMonitorView(new URLSearchParams("tab=x&sort=capa&order=up"))).toEqual({
      tab: "gen",
      keyword: "",
      sort: "name",
      order: "asc",
    });
  });
  it("round-trips through the URL, leaving defaults out and other params alone", () => {
    const view = { tab: "grid", keyword: "해남", sort: "time", order: "desc" } as const;
    const p = monitorViewParams(view, new URLSearchParams("other=1&tab=gen"));
    expect(parseMonitorView(p)).toEqual(view);
    expect(p.get("other")).toBe("1");
    expect(monitorViewParams({ tab: "gen", keyword: "", sort: "name", order: "asc" }).toString()).toBe("");
  });
});

describe("matchesKeyword", () => {
  it("matches part of any field, case-insensitively; empty matches all", () => {
    expect(matchesKeyword("SOLAR", "Haenam Solar")).toBe(true);
    expect(matchesKeyword("해남", "영암 솔라팜", "해남 1호")).toBe(true);
    expect(matchesKeyword("x", "abc", null)).toBe(false);
    expect(matchesKeyword("  ", "abc")).toBe(true);
  });
});

describe("orderMonitorRows", () => {
  const rows = [
    { plant_uid: "3", plant_name: "나 발전소", time: 300 },
    { plant_uid: "1", plant_name: "가 발전소", time: 100 },
    { plant_uid: "2", plant_name: "다 발전소", time: null },
    { plant_uid: "4", plant_name: "라 발전소", time: 300 },
  ];
  const names = (r: typeof rows) => r.map((x) => x.plant_name[0]).join("");
  it("sorts by name both ways", () => {
    expect(names(orderMonitorRows(rows, "name", "asc"))).toBe("가나다라");
    expect(names(orderMonitorRows(rows, "name", "desc"))).toBe("라다나가");
  });
  it("sorts by time both ways with never-reported rows last and name breaking ties", () => {
    expect(names(orderMonitorRows(rows, "time", "asc"))).toBe("가나라다");
    expect(names(orderMonitorRows(rows, "time", "desc"))).toBe("나라가다");
  });
  it("does not touch its input", () => {
    const copy = [...rows];
    orderMonitorRows(rows, "name", "desc");
    expect(rows).toEqual(copy);
  });
});

describe("gridPoint (issue 13.11)", () => {
  it("takes the VCB's voltage and power, never a mean with the low-voltage side, never VCB + ACB", () => {
    expect(
      gridPoint([
        { kind: 7, v: 22_900, w: 90_000 },
        { kind: 8, v: 380, w: 88_000 },
        { kind: 2, v: 640, w: null },
      ]),
    ).toEqual({ v: 22_900, vKind: 7, w: 90_000 });
  });
  it("falls back to the ACB, then to the boards' voltage without power", () => {
    expect(
      gridPoint([
        { kind: 8, v: 380, w: 50_000 },
        { kind: 8, v: 382, w: 40_000 },
        { kind: 2, v: 640, w: null },
      ]),
    ).toEqual({ v: 381, vKind: 8, w: 90_000 });
    expect(
      gridPoint([
        { kind: 2, v: 640, w: null },
        { kind: 2, v: 660, w: null },
      ]),
    ).toEqual({ v: 650, vKind: 2, w: null });
    expect(gridPoint([])).toEqual({ v: null, vKind: null, w: null });
  });
});
