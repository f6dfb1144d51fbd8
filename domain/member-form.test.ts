import { describe, expect, it } from "vitest";
import {
  MemberCreateFields,
  MemberEditFields,
  MemberListQuery,
  MemberProfileFields,
  SERVICE_CHOICES,
  passwordResetFields,
  serviceFromBits,
  toFlag,
} from "./member-form";

const codes = (r: { success: boolean; error?: { issues: Array<{ path: (string | number)[]; message: string }> } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

const valid = {
  id: "kim.01",
  password: "Start-2026!",
  name: "김철수",
  auth: "5",
  service: "3",
  node_seq: "1",
  use_yn: "1",
  diagram: "0",
  cctv: "1",
  page: "on",
  phone: "010-1234-5678",
  email: "kim@example.kr",
};

describe("member form schema (shared by the API and the portal)", () => {
  it("parses form strings and JSON values alike", () => {
    const r = MemberCreateFields.safeParse(valid);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ auth: 5, service: 3, node_seq: 1, use_yn: 1, diagram: 0, cctv: 1, page: 1 });
    const json = MemberCreateFields.safeParse({
      ...valid,
      auth: 5,
      service: 3,
      node_seq: 1,
      use_yn: true,
      diagram: 0,
      cctv: 1,
      page: 1,
    });
    expect(json.success).toBe(true);
  });

  it("reports every field at once, password rules included", () => {
    const r = MemberCreateFields.safeParse({
      ...valid,
      id: "a",
      password: "short",
      name: "",
      auth: "11",
      email: "x",
      phone: "12",
    });
    expect(codes(r)).toEqual({
      id: "invalid_id",
      password: "too_short",
      name: "required",
      auth: "invalid_level",
      email: "invalid_email",
      phone: "invalid_phone",
    });
  });

  it("refuses a password equal to the id", () => {
    expect(codes(MemberCreateFields.safeParse({ ...valid, id: "kim.0123", password: "KIM.0123" }))).toEqual({
      password: "same_as_id",
    });
    expect(codes(passwordResetFields("kim.0123").safeParse({ password: "kim.0123" }))).toEqual({ password: "same_as_id" });
  });

  it("turns blank phone and e-mail into null and trims the name", () => {
    const r = MemberProfileFields.parse({ name: "  이영희 ", phone: " ", email: "" });
    expect(r).toEqual({ name: "이영희", phone: null, email: null });
  });

  it("accepts partial edits for PUT", () => {
    expect(MemberEditFields.partial().parse({ name: "x" })).toEqual({ name: "x" });
    expect(codes(MemberEditFields.partial().safeParse({ use_yn: 3 }))).toEqual({ use_yn: "invalid" });
  });

  it("reads checkbox values as flags", () => {
    expect([true, 1, "1", "on", "true"].map(toFlag)).toEqual([1, 1, 1, 1, 1]);
    expect([false, 0, "0", "", "off"].map(toFlag)).toEqual([0, 0, 0, 0, 0]);
  });

  it("builds the service mask from checkboxes and keeps bits no checkbox owns", () => {
    expect(SERVICE_CHOICES.map((c) => c.bit)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(serviceFromBits(["0", "6"])).toBe(0b1000001);
    expect(serviceFromBits([], 0xffff)).toBe(0xfe00);
    expect(serviceFromBits(["99", "x"])).toBe(0);
  });

  it("reads list filters leniently (bad values are ignored, paging defaults)", () => {
    expect(MemberListQuery.parse({ auth: "4", use: "0", seq: "3", page: "2" })).toMatchObject({
      auth: 4,
      use: 0,
      seq: 3,
      page: 2,
      size: 20,
    });
    expect(MemberListQuery.parse({ auth: "x", use: "7", page: "-1", size: "1000" })).toMatchObject({
      auth: undefined,
      use: undefined,
      page: 1,
      size: 20,
    });
  });
});
