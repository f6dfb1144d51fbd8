import { describe, expect, it } from "vitest";
import { NameOrder } from "./name-order";
import { compareNames } from "./ordering";

const byRank = (order: NameOrder, names: string[]) => {
  const rank = order.ranks(names);
  return [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
};

describe("NameOrder", () => {
  it("ranks names in the collator's order: Hangul before Latin, numbers by value", () => {
    const names = ["태양광 10호기", "Alpha", "가나", "태양광 2호기", "하늘", "beta"];
    expect(byRank(new NameOrder(compareNames), names)).toEqual([...names].sort(compareNames));
    expect(byRank(new NameOrder(compareNames), names)).toEqual([
      "가나",
      "태양광 2호기",
      "태양광 10호기",
      "하늘",
      "Alpha",
      "beta",
    ]);
  });

  it("places names learnt later among the ones it knows, asking the collator only about the new ones", () => {
    let compares = 0;
    const counted = (a: string, b: string) => (compares++, compareNames(a, b));
    const order = new NameOrder(counted);
    const first = Array.from({ length: 1000 }, (_, i) => `발전소 ${i * 2}호`);
    order.ranks(first);
    compares = 0;
    order.ranks(first);
    expect(compares).toBe(0);
    const later = ["발전소 7호", "가", "Zulu", "발전소 1999호"];
    const rank = order.ranks(later);
    // Binary search: about log2(1000) = 10 compares a name, plus its two neighbours' ties.
    expect(compares).toBeLessThan(later.length * 14);
    const all = [...first, ...later];
    expect([...all].sort((a, b) => rank(a) - rank(b))).toEqual([...all].sort(compareNames));
    expect(order.size).toBe(1004);
  });

  it("gives names the collator holds equal one rank, also when they arrive one by one", () => {
    // Numeric collation: "01호" and "1호" are the same number; NFD and NFC Hangul are the same text.
    const nfc = "가나다";
    const nfd = nfc.normalize("NFD");
    expect(compareNames("01호", "1호")).toBe(0);
    const order = new NameOrder(compareNames);
    order.ranks(["1호", "2호", nfc]);
    const rank = order.ranks(["01호", nfd, "3호"]);
    expect(rank("01호")).toBe(rank("1호"));
    expect(rank(nfd)).toBe(rank(nfc));
    expect(rank("1호")).toBeLessThan(rank("2호"));
    expect(rank("2호")).toBeLessThan(rank("3호"));
  });

  it("starts afresh past its bound", () => {
    const order = new NameOrder(compareNames, 5);
    order.ranks(["a", "b", "c", "d"]);
    const rank = order.ranks(["x", "b", "y"]);
    expect(order.size).toBe(3);
    expect(rank("b")).toBeLessThan(rank("x"));
    expect(rank("x")).toBeLessThan(rank("y"));
  });
});
