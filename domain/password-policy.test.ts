import { describe, expect, it } from "vitest";
import { MEMBER_ID_PATTERN, passwordProblem } from "./password-policy";

describe("password policy", () => {
  it.each([
    ["short1!", "too_short"],
    ["a".repeat(129), "too_long"],
    ["abcdefgh", "too_simple"],
    ["12345678", "too_simple"],
    ["abcd1234", null],
    ["비밀번호는길게1", null],
  ])("%s → %s", (pw, problem) => expect(passwordProblem(pw)).toBe(problem));

  it("refuses the id and the current password", () => {
    expect(passwordProblem("Operator1", { id: "operator1" })).toBe("same_as_id");
    expect(passwordProblem("abcd1234", { current: "abcd1234" })).toBe("same_as_current");
  });

  it("checks member ids", () => {
    expect(MEMBER_ID_PATTERN.test("admin")).toBe(true);
    expect(MEMBER_ID_PATTERN.test("a.b-c_d")).toBe(true);
    expect(MEMBER_ID_PATTERN.test("ab")).toBe(false);
    expect(MEMBER_ID_PATTERN.test("-abc")).toBe(false);
    expect(MEMBER_ID_PATTERN.test("한글아이디")).toBe(false);
  });
});
