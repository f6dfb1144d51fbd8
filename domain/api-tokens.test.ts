import { describe, expect, it } from "vitest";
import {
  ApiTokenCreateFields,
  expiryInstant,
  expiryProblem,
  rateWait,
  rateWindows,
  RATE_LIMITS,
  tokenAllows,
  tokenState,
} from "./api-tokens";

describe("API token fields", () => {
  it("takes a form's strings and fills the default limits", () => {
    const r = ApiTokenCreateFields.parse({ name: " SCADA ", scope: "read", plants: "P1", expiresOn: "", perMinute: "" });
    expect(r).toEqual({
      name: "SCADA",
      scope: "read",
      plants: ["P1"],
      expiresOn: undefined,
      perMinute: RATE_LIMITS.perMinute.default,
      perDay: RATE_LIMITS.perDay.default,
    });
  });
  it("names each bad field", () => {
    const r = ApiTokenCreateFields.safeParse({ name: "", scope: "admin", expiresOn: "2026-02-30", perMinute: 0, perDay: "x" });
    expect(r.success).toBe(false);
    const fields = Object.fromEntries(r.error!.issues.map((i) => [i.path.join("."), i.message]));
    expect(fields).toEqual({
      name: "required",
      scope: "invalid_scope",
      expiresOn: "invalid_date",
      perMinute: "out_of_range",
      perDay: "invalid",
    });
  });
  it("an expiry is the end of that Seoul day, neither past nor too far", () => {
    expect(new Date(expiryInstant("2026-11-28")).toISOString()).toBe("2026-11-28T15:00:00.000Z");
    const now = Date.parse("2026-11-28T12:00:00Z");
    expect(expiryProblem("2026-11-28", now)).toBeNull();
    expect(expiryProblem("2026-11-27", now)).toBe("in_the_past");
    expect(expiryProblem("2046-11-27", now)).toBe("too_far");
    expect(expiryProblem(undefined, now)).toBeNull();
  });
  it("a token is active, expired or revoked", () => {
    expect(tokenState({ expiresAt: null, revokedAt: null }, 5)).toBe("active");
    expect(tokenState({ expiresAt: 5, revokedAt: null }, 5)).toBe("expired");
    expect(tokenState({ expiresAt: 50, revokedAt: 1 }, 5)).toBe("revoked");
  });
});

describe("rate windows", () => {
  const now = Date.parse("2026-11-28T14:59:30.500Z"); // 23:59:30.5 in Seoul
  it("minute and Seoul-day windows", () => {
    const w = rateWindows(now);
    expect(new Date(w.minute).toISOString()).toBe("2026-11-28T14:59:00.000Z");
    expect(new Date(w.day).toISOString()).toBe("2026-11-27T15:00:00.000Z");
  });
  it("waits until the window that ran out starts again, at least a second", () => {
    const limits = { perMinute: 2, perDay: 100 };
    expect(rateWait({ minuteCount: 2, dayCount: 2 }, limits, now)).toBe(0);
    expect(rateWait({ minuteCount: 3, dayCount: 3 }, limits, now)).toBe(30);
    expect(rateWait({ minuteCount: 1, dayCount: 101 }, limits, now)).toBe(30);
    expect(rateWait({ minuteCount: 3, dayCount: 3 }, limits, Date.parse("2026-11-28T14:59:59.900Z"))).toBe(1);
    const noon = Date.parse("2026-11-28T03:00:00Z");
    expect(rateWait({ minuteCount: 1, dayCount: 101 }, limits, noon)).toBe(12 * 3600);
  });
});

describe("what a token may call", () => {
  it("reading scope: GET and HEAD only", () => {
    expect(tokenAllows("read", "GET", "/pvstatus/new")).toBe("ok");
    expect(tokenAllows("read", "HEAD", "/plant/P1")).toBe("ok");
    expect(tokenAllows("read", "POST", "/command/hex")).toBe("scope");
    expect(tokenAllows("read", "POST", "/alarm/3/ack")).toBe("scope");
  });
  it("command scope: also commands and alarm handling, no configuration", () => {
    expect(tokenAllows("command", "POST", "/command/hex")).toBe("ok");
    expect(tokenAllows("command", "POST", "/alarm/3/release")).toBe("ok");
    expect(tokenAllows("command", "POST", "/measurement/setGridAlarmRelease")).toBe("ok");
    expect(tokenAllows("command", "PUT", "/plant/P1")).toBe("scope");
    expect(tokenAllows("command", "DELETE", "/device/D1")).toBe("scope");
  });
  it("never member, session or token management, whatever the scope or method", () => {
    for (const scope of ["read", "command"] as const) {
      expect(tokenAllows(scope, "GET", "/member/node/list")).toBe("not_for_tokens");
      expect(tokenAllows(scope, "POST", "/member")).toBe("not_for_tokens");
      expect(tokenAllows(scope, "GET", "/token")).toBe("not_for_tokens");
      expect(tokenAllows(scope, "DELETE", "/token/abc")).toBe("not_for_tokens");
      expect(tokenAllows(scope, "GET", "/Member/isAuth")).toBe("not_for_tokens");
    }
    expect(tokenAllows("read", "GET", "/members")).toBe("ok");
  });
});
