import { describe, expect, it } from "vitest";
import { SHELL_REFRESH_MS, shellRevalidation, shellShouldRevalidate } from "./shell-revalidation";

const url = (s: string) => new URL(s, "http://portal.localhost");
const args = (from: string, to: string, extra: { formMethod?: "POST"; actionResult?: unknown } = {}) => ({
  currentUrl: url(from),
  nextUrl: url(to),
  formMethod: extra.formMethod,
  actionResult: extra.actionResult,
  defaultShouldRevalidate: true,
});

describe("shell revalidation", () => {
  it("skips a poll of the same URL and a change of the screen's own query", () => {
    expect(shellShouldRevalidate(args("/pvstatus", "/pvstatus"), 6_000)).toBe(false);
    expect(shellShouldRevalidate(args("/pvstatus?limit=20", "/pvstatus?limit=30"), 6_000)).toBe(false);
    expect(shellShouldRevalidate(args("/pvstatus", "/pvstatus?view=gh"), 0)).toBe(false);
  });

  it("runs again on another screen and after a form submission", () => {
    expect(shellShouldRevalidate(args("/pvstatus", "/watch"), 0)).toBe(true);
    expect(shellShouldRevalidate(args("/pvstatus", "/pvstatus", { formMethod: "POST" }), 0)).toBe(true);
    expect(shellShouldRevalidate(args("/setting/plant", "/setting/plant", { actionResult: { ok: true } }), 0)).toBe(true);
  });

  it("refreshes a long-open wallboard every SHELL_REFRESH_MS", () => {
    let t = 0;
    const decide = shellRevalidation(() => t);
    t = SHELL_REFRESH_MS - 1;
    expect(decide(args("/pvstatus", "/pvstatus"))).toBe(false);
    t = SHELL_REFRESH_MS;
    expect(decide(args("/pvstatus", "/pvstatus"))).toBe(true);
    t += 6_000;
    expect(decide(args("/pvstatus", "/pvstatus"))).toBe(false);
  });

  it("keeps Remix's own answer when it says no", () => {
    expect(shellShouldRevalidate({ ...args("/a", "/b"), defaultShouldRevalidate: false }, 0)).toBe(false);
  });
});
