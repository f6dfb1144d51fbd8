import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemberCreateFields } from "../domain/member-form";
import { inputProblems, jsonTooDeep, MAX_JSON_DEPTH, pathHasNul, urlProblems } from "./strict-input";

const Schema = z.object({
  name: z.string(),
  capa: z.coerce.number().int(),
  level: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().optional()),
  on: z.coerce.boolean().optional(),
  list: z.array(z.coerce.number()).optional(),
  nested: z.object({ n: z.coerce.number() }).optional(),
});

describe("strict input", () => {
  it("wants JSON numbers where a JSON body has a number field", () => {
    expect(inputProblems(Schema, { name: "a", capa: true, level: "10" }, true)).toEqual({
      capa: "not_a_number",
      level: "not_a_number",
    });
    expect(inputProblems(Schema, { name: "a", capa: 10, level: "", list: [1, false, "3"], nested: { n: {} } }, true)).toEqual({
      "list.1": "not_a_number",
      "list.2": "not_a_number",
      "nested.n": "not_a_number",
    });
    expect(inputProblems(Schema, { name: "a", capa: " 10 " }, true)).toEqual({ capa: "not_a_number" });
    expect(inputProblems(Schema, { name: "a", capa: 10, level: null, on: "yes" }, true)).toEqual({ on: "not_a_boolean" });
    expect(inputProblems(Schema, { name: "a", capa: 10 }, true)).toEqual({});
  });

  it("lets text through for form and query input", () => {
    expect(inputProblems(Schema, { name: "a", capa: "10", level: "3" }, false)).toEqual({});
  });

  it("refuses NUL in any text, strict or not", () => {
    expect(inputProblems(Schema, { name: "a\u0000b", capa: 1 }, false)).toEqual({ name: "control_character" });
    expect(inputProblems(Schema, { name: "ok", capa: 1, extra: ["x\u0000"] }, true)).toEqual({ "extra.0": "control_character" });
  });

  it("sees through the real member schema (level must be a number)", () => {
    expect(inputProblems(MemberCreateFields, { id: "abc", auth: true, node_seq: 1 }, true).auth).toBe("not_a_number");
    expect(inputProblems(MemberCreateFields, { id: "abc", auth: "10", node_seq: 1 }, true).auth).toBe("not_a_number");
  });
});

describe("pathHasNul", () => {
  it("finds a NUL in a path's escaped segments, and nothing else", () => {
    expect(pathHasNul("/management/plant/%00")).toBe(true);
    expect(pathHasNul("/plant/a%00b/history")).toBe(true);
    expect(pathHasNul("/plant/%EA%B0%80%EB%9E%8C")).toBe(false); // Hangul
    expect(pathHasNul("/plant/P1")).toBe(false);
    expect(pathHasNul("/plant/%E0%A4%A")).toBe(false); // malformed: Express refuses it itself
  });
});

describe("urlProblems", () => {
  it("names each query value and the path that carry a NUL", () => {
    expect(urlProblems("/plant/P1", { plantUid: "a\u0000", page: "2", list: ["x", "y\u0000"] })).toEqual({
      plantUid: "control_character",
      "list.1": "control_character",
    });
    expect(urlProblems("/plant/%00", {})).toEqual({ _path: "control_character" });
    expect(urlProblems("/plant/P1", { q: "가람" })).toEqual({});
  });
});

describe("JSON depth (issue 25)", () => {
  it("finds nesting deeper than the limit in one pass, brackets inside strings not counted", () => {
    const deep = `{"readings":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    expect(jsonTooDeep(deep)).toBe(true);
    expect(jsonTooDeep(`${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`)).toBe(false);
    expect(jsonTooDeep(`${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ s: "[".repeat(10_000), t: '\\"{{{{' }))).toBe(false);
    expect(jsonTooDeep(Buffer.from('{"a":{"b":[1,2,{"c":"]]]"}]}}'), 4)).toBe(false);
    expect(jsonTooDeep(Buffer.from('{"a":{"b":[1,2,{"c":"]]]"}]}}'), 3)).toBe(true);
  });
});
