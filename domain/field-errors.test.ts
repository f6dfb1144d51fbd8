import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf } from "./field-errors";

describe("fieldErrorsOf", () => {
  it("keeps the first message per field, dotted paths, and _form for the whole input", () => {
    const schema = z
      .object({
        name: z.string().min(2, "too_short").max(3, "too_long"),
        addr: z.object({ zip: z.string().length(5, "bad_zip") }),
      })
      .refine((v) => v.name !== "no", { message: "refused" });
    const result = schema.safeParse({ name: "", addr: { zip: "1" } });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({ name: "too_short", "addr.zip": "bad_zip" });
    const whole = schema.safeParse({ name: "no", addr: { zip: "12345" } });
    expect(fieldErrorsOf(whole.error!)).toEqual({ _form: "refused" });
  });
});
