import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemberCreateFields } from "../domain/member-form";
import { inputProblems } from "./strict-input";

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
