import { describe, it, expect } from "vitest";
import { compareLocalities, groupPlantsByLocality, normalizeLocality, sortLocalities } from "./locality";

describe("localities", () => {
  it("treats null, empty and blank as unspecified", () => {
    expect([null, undefined, "", "  "].map(normalizeLocality)).toEqual([null, null, null, null]);
    expect(normalizeLocality(" 전남 ")).toBe("전남");
  });

  it("sorts alphabetically with the unspecified bucket last", () => {
    expect(sortLocalities(["전남", null, "강원", "", "경북", "전남", "서울"])).toEqual(["강원", "경북", "서울", "전남", null]);
    expect(sortLocalities([null])).toEqual([null]);
    expect(sortLocalities([])).toEqual([]);
  });

  it("compares with unspecified after everything", () => {
    expect(compareLocalities(null, "하")).toBeGreaterThan(0);
    expect(compareLocalities("가", "")).toBeLessThan(0);
    expect(compareLocalities(null, undefined)).toBe(0);
    expect(compareLocalities("가", "나")).toBeLessThan(0);
  });

  it("groups plants in locality order, keeping input order inside a group", () => {
    const plants = [
      { uid: 1, plantLocality: "전남" },
      { uid: 2, plantLocality: null },
      { uid: 3, plantLocality: "강원" },
      { uid: 4, plantLocality: "전남 " },
      { uid: 5, plantLocality: "" },
    ];
    const groups = groupPlantsByLocality(plants, (p) => p.plantLocality);
    expect(groups.map((g) => [g.locality, g.plants.map((p) => p.uid)])).toEqual([
      ["강원", [3]],
      ["전남", [1, 4]],
      [null, [2, 5]],
    ]);
    expect(groupPlantsByLocality([], () => null)).toEqual([]);
  });
});
