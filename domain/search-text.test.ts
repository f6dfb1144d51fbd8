import { describe, expect, it } from "vitest";
import { searchText } from "./search-text";

describe("searchText", () => {
  it("drops control characters, trims and cuts", () => {
    expect(searchText(" 가람\u0000 발전소\t\n", 100)).toBe("가람 발전소");
    expect(searchText("\u007f\u001fabc", 2)).toBe("ab");
    expect(searchText(null, 10)).toBe("");
    expect(searchText(undefined, 10)).toBe("");
    expect(searchText("\u0000", 10)).toBe("");
  });
  it("keeps Hangul, punctuation and inner spaces as typed", () => {
    expect(searchText("마루 인버터고장 (2단지) %<x>", 100)).toBe("마루 인버터고장 (2단지) %<x>");
  });
});
