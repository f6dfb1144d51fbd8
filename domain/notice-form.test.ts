import { describe, expect, it } from "vitest";
import { NoticeDeleteFields, NoticeFields } from "./notice-form";

describe("notice schema", () => {
  it("trims the text and reads the use flag from forms and JSON", () => {
    expect(NoticeFields.parse({ content: "  점검 안내 ", use: "on" })).toEqual({ content: "점검 안내", use: 1 });
    expect(NoticeFields.parse({ content: "x", use: 0 })).toEqual({ content: "x", use: 0 });
  });
  it("refuses empty and overlong text", () => {
    expect(NoticeFields.safeParse({ content: " ", use: 1 }).error!.issues[0].message).toBe("required");
    expect(NoticeFields.safeParse({ content: "가".repeat(2001), use: 1 }).error!.issues[0].message).toBe("too_long");
  });
  it("takes one seq or many for deletion", () => {
    expect(NoticeDeleteFields.parse({ noticesSeq: 3 }).noticesSeq).toEqual([3]);
    expect(NoticeDeleteFields.parse({ noticesSeq: ["1", "2"] }).noticesSeq).toEqual([1, 2]);
    expect(NoticeDeleteFields.parse({ noticesSeq: "4,5" }).noticesSeq).toEqual([4, 5]);
    expect(NoticeDeleteFields.safeParse({}).success).toBe(false);
    expect(NoticeDeleteFields.safeParse({ noticesSeq: ["x"] }).success).toBe(false);
  });
});
