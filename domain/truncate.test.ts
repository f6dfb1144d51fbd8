import { describe, it, expect } from "vitest";
import { CARD_NAME_LENGTH, ELLIPSIS, truncateCardName, truncateName } from "./truncate";

describe("truncateName", () => {
  it("leaves names at or under the limit untouched", () => {
    expect(truncateName("해오름 태양광", 9)).toBe("해오름 태양광");
    expect(truncateName("가나다라마바사아자", 9)).toBe("가나다라마바사아자"); // exactly 9
    expect(truncateName("", 9)).toBe("");
    expect(truncateName(null, 9)).toBe("");
  });

  it("cuts Korean names by character and appends an ellipsis", () => {
    expect(truncateName("가나다라마바사아자차", 9)).toBe("가나다라마바사아자" + ELLIPSIS);
    expect(truncateName("영암 F1 태양광 발전소 제2호기", 12)).toBe("영암 F1 태양광 발전…");
  });

  it("counts a decomposed (NFD) syllable as one character", () => {
    const nfd = "가나다라마바사아자차".normalize("NFD");
    expect(nfd.length).toBe(20);
    expect(truncateName(nfd, 9)).toBe("가나다라마바사아자…");
    expect(truncateName("가나다".normalize("NFD"), 3)).toBe("가나다");
  });

  it("never splits a surrogate pair", () => {
    expect(truncateName("☀️🌞🌞🌞", 2)).toBe("☀️…");
    expect(truncateName("🌞🌞🌞", 2)).toBe("🌞🌞…");
  });

  it("drops trailing spaces before the ellipsis", () => {
    expect(truncateName("Solar Park North", 6)).toBe("Solar…");
  });

  it("uses the card limits 17, 12 and 9", () => {
    expect(CARD_NAME_LENGTH).toEqual({ mediumLine: 17, bar: 12, smallGrid: 9 });
    const name = "한국남부발전 삼천포 태양광 발전단지 1단계";
    expect(Array.from(truncateCardName(name, "mediumLine"))).toHaveLength(18);
    expect(truncateCardName(name, "bar")).toBe("한국남부발전 삼천포 태…");
    expect(truncateCardName(name, "smallGrid")).toBe("한국남부발전 삼천…");
  });
});
