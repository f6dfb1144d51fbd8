import { describe, it, expect } from "vitest";
import {
  GRAPH_STATUS_ORDER,
  GRID_STATUS_ORDER,
  comparePlantUids,
  isSortOrder,
  isSortType,
  isViewMode,
  orderPlants,
  statusOrder,
  type OrderablePlant,
} from "./ordering";

const plant = (
  plant_uid: number | string,
  name: string,
  status: number,
  extra: Partial<OrderablePlant> = {},
): OrderablePlant => ({
  plant_uid,
  name,
  status,
  ...extra,
});

const names = (list: OrderablePlant[]) => list.map((p) => p.name);

describe("status group order", () => {
  it("graph view: warning, 1000003, 1000001, 1000006, 1000004, notWork, normal", () => {
    expect(GRAPH_STATUS_ORDER).toEqual([
      "warning",
      "warning_1000003",
      "warning_1000001",
      "warning_1000006",
      "warning_1000004",
      "notWork",
      "normal",
    ]);
  });

  it("grid view swaps 1000001 before 1000003", () => {
    expect(GRID_STATUS_ORDER).toEqual([
      "warning",
      "warning_1000001",
      "warning_1000003",
      "warning_1000006",
      "warning_1000004",
      "notWork",
      "normal",
    ]);
    expect(statusOrder("gd")).toBe(GRID_STATUS_ORDER);
    expect(statusOrder("gh")).toBe(GRAPH_STATUS_ORDER);
    expect(statusOrder("map")).toBe(GRID_STATUS_ORDER);
  });
});

describe("orderPlants", () => {
  // one plant per status code, names chosen so name order alone would differ from status order
  const mixed = [
    plant(1, "가 normal", 2),
    plant(2, "나 notWork", 1),
    plant(3, "다 1000004", 5),
    plant(4, "라 1000006", 6),
    plant(5, "마 1000001", 4),
    plant(6, "바 1000003", 3),
    plant(7, "사 nodata", 0),
  ];

  it("graph view puts internet disconnection (code 3) before communication fault (code 4)", () => {
    expect(names(orderPlants(mixed, { view: "gh" }))).toEqual([
      "바 1000003",
      "마 1000001",
      "라 1000006",
      "다 1000004",
      "나 notWork",
      "사 nodata",
      "가 normal",
    ]);
  });

  it("grid view (the default) puts communication fault first", () => {
    const expected = ["마 1000001", "바 1000003", "라 1000006", "다 1000004", "나 notWork", "사 nodata", "가 normal"];
    expect(names(orderPlants(mixed, { view: "gd" }))).toEqual(expected);
    expect(names(orderPlants(mixed))).toEqual(expected);
  });

  it("does not mutate its input", () => {
    const copy = [...mixed];
    orderPlants(mixed);
    expect(mixed).toEqual(copy);
  });

  it("sorts by Korean name inside a group (Hangul before Latin in 'ko'), ascending by default", () => {
    const list = [plant(1, "서울", 2), plant(2, "강릉", 2), plant(3, "부산", 2), plant(4, "Alpha", 2)];
    expect(names(orderPlants(list))).toEqual(["강릉", "부산", "서울", "Alpha"]);
    expect(names(orderPlants(list, { order: "desc" }))).toEqual(["Alpha", "서울", "부산", "강릉"]);
  });

  it("keeps status groups in place when the order is descending", () => {
    const list = [plant(1, "가", 2), plant(2, "하", 2), plant(3, "나", 1), plant(4, "다", 1)];
    expect(names(orderPlants(list, { order: "desc" }))).toEqual(["다", "나", "하", "가"]);
  });

  it("compares numbers inside names numerically", () => {
    const list = [plant(1, "태양광 10호기", 2), plant(2, "태양광 2호기", 2), plant(3, "태양광 1호기", 2)];
    expect(names(orderPlants(list))).toEqual(["태양광 1호기", "태양광 2호기", "태양광 10호기"]);
  });

  it("breaks name ties by plant uid, whatever the input order", () => {
    const a = [plant(10, "같음", 2), plant(9, "같음", 2), plant(100, "같음", 2)];
    expect(orderPlants(a).map((p) => p.plant_uid)).toEqual([9, 10, 100]);
    expect(orderPlants([...a].reverse()).map((p) => p.plant_uid)).toEqual([9, 10, 100]);
    expect(orderPlants(a, { order: "desc" }).map((p) => p.plant_uid)).toEqual([9, 10, 100]);
  });

  it("sorts by capacity, current output, today's generation and generation hours", () => {
    const list = [
      plant(1, "A", 2, { capa: 300, iw: 5, today: 10, genTime: 3 }),
      plant(2, "B", 2, { capa: 100, iw: 50, today: 30, genTime: 1 }),
      plant(3, "C", 2, { capa: 200, iw: 20, today: 20, genTime: 2 }),
    ];
    expect(names(orderPlants(list, { sortType: "capa" }))).toEqual(["B", "C", "A"]);
    expect(names(orderPlants(list, { sortType: "capa", order: "desc" }))).toEqual(["A", "C", "B"]);
    expect(names(orderPlants(list, { sortType: "iw", order: "desc" }))).toEqual(["B", "C", "A"]);
    expect(names(orderPlants(list, { sortType: "today" }))).toEqual(["A", "C", "B"]);
    expect(names(orderPlants(list, { sortType: "genTime" }))).toEqual(["B", "C", "A"]);
  });

  it("puts missing numeric values last in both orders and breaks ties by name then uid", () => {
    const list = [
      plant(1, "없음", 2, { iw: null }),
      plant(2, "나", 2, { iw: 5 }),
      plant(3, "가", 2, { iw: 5 }),
      plant(4, "다", 2, { iw: 9 }),
      plant(5, "NaN", 2, { iw: Number.NaN }),
    ];
    expect(names(orderPlants(list, { sortType: "iw" }))).toEqual(["가", "나", "다", "없음", "NaN"]);
    expect(names(orderPlants(list, { sortType: "iw", order: "desc" }))).toEqual(["다", "가", "나", "없음", "NaN"]);
  });
});

describe("plant uid comparison and guards", () => {
  it("compares numeric uids numerically and others as strings", () => {
    expect(comparePlantUids(9, 10)).toBeLessThan(0);
    expect(comparePlantUids("9", "10")).toBeLessThan(0);
    expect(comparePlantUids("0a1f", "0a20")).toBeLessThan(0);
    expect(comparePlantUids("x", "x")).toBe(0);
  });

  it("guards view mode, sort type and order", () => {
    expect([isViewMode("gd"), isViewMode("gh"), isViewMode("map"), isViewMode("list")]).toEqual([true, true, true, false]);
    expect([isSortType("name"), isSortType("capa"), isSortType("bogus")]).toEqual([true, true, false]);
    expect([isSortOrder("asc"), isSortOrder("desc"), isSortOrder("up")]).toEqual([true, true, false]);
  });
});
