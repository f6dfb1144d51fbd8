import { describe, expect, it } from "vitest";
import { localRedirectTarget, REDIRECT_TARGET_MAX } from "./redirect-target";

const ORIGIN = "http://localhost:3000";

describe("localRedirectTarget (redirectTo read as a browser reads it)", () => {
  it("keeps local paths with their query and fragment", () => {
    expect(localRedirectTarget("/pvstatus?view=gh&page=2#top", ORIGIN)).toBe("/pvstatus?view=gh&page=2#top");
    expect(localRedirectTarget("/setting/id", ORIGIN)).toBe("/setting/id");
    expect(localRedirectTarget(`${ORIGIN}/watch`, ORIGIN)).toBe("/watch");
  });

  it("sends every target a browser would take to another host to the fallback", () => {
    for (const evil of [
      "//evil.example/x",
      "/\\evil.example/x",
      "\\\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "\t//evil.example",
      "https://evil.example/",
      "http://localhost:3001/",
      "javascript:alert(1)",
      "data:text/html,hi",
      " //evil.example",
    ]) {
      expect(localRedirectTarget(evil, ORIGIN), JSON.stringify(evil)).toBe("/");
    }
  });

  it("answers the fallback for a target too long for a Location header", () => {
    const long = `/pvstatus?q=${"x".repeat(20_000)}`;
    expect(localRedirectTarget(long)).toBe("/");
    const fits = `/pvstatus?q=${"x".repeat(REDIRECT_TARGET_MAX - 12)}`;
    expect(localRedirectTarget(fits)).toBe(fits);
    expect(localRedirectTarget(`${fits}x`)).toBe("/");
  });

  it("never lets a control character through to the Location header", () => {
    for (const v of ["/a\u0000b", "/a\rb", "/a\u0007b", "/a\u007fb", "/ok\r\nSet-Cookie: x=1"]) {
      const out = localRedirectTarget(v, ORIGIN);
      expect(out.startsWith("/")).toBe(true);
      expect(/[\u0000-\u001f\u007f]/.test(out), JSON.stringify(out)).toBe(false);
      expect(() => new Headers({ location: out })).not.toThrow();
    }
  });

  it("answers the fallback for nothing, non-strings and relative paths resolving elsewhere", () => {
    expect(localRedirectTarget(null, ORIGIN)).toBe("/");
    expect(localRedirectTarget(undefined, ORIGIN)).toBe("/");
    expect(localRedirectTarget("", ORIGIN)).toBe("/");
    expect(localRedirectTarget(42, ORIGIN)).toBe("/");
    expect(localRedirectTarget("pvstatus", ORIGIN)).toBe("/pvstatus");
    expect(localRedirectTarget("/x", "not a url")).toBe("/");
  });
});
