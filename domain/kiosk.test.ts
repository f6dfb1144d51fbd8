import { describe, expect, it } from "vitest";
import { nextKioskUrl, parseKiosk } from "./kiosk";

const q = (s: string) => new URLSearchParams(s);

describe("kiosk mode", () => {
  it("is on only with kiosk=1; keeps local views only; bounds the interval", () => {
    expect(parseKiosk(q("view=gd"))).toBeNull();
    expect(parseKiosk(q("kiosk=1"))).toEqual({ views: [], everyS: 60 });
    expect(parseKiosk(q("kiosk=1&cycle=/pvstatus,/watch?view=group,https://evil.example,//evil.example,/cctv&every=5"))).toEqual({
      views: ["/pvstatus", "/watch?view=group", "/cctv"],
      everyS: 10,
    });
    expect(parseKiosk(q("kiosk=1&every=99999"))!.everyS).toBe(3600);
  });

  it("goes to the next view in turn, carrying the kiosk settings", () => {
    const k = parseKiosk(q("kiosk=1&cycle=/pvstatus,/watch?view=group,/cctv&every=30"))!;
    const next = nextKioskUrl(k, "/pvstatus", q("kiosk=1&cycle=x&every=30"))!;
    expect(next.startsWith("/watch?")).toBe(true);
    expect(q(next.split("?")[1]!).get("view")).toBe("group");
    expect(q(next.split("?")[1]!).get("kiosk")).toBe("1");
    expect(nextKioskUrl(k, "/watch", q("view=group&kiosk=1"))!.startsWith("/cctv?")).toBe(true);
    expect(nextKioskUrl(k, "/cctv", q("kiosk=1"))!.startsWith("/pvstatus?")).toBe(true);
    // A screen outside the cycle goes to the first view.
    expect(nextKioskUrl(k, "/alarm", q("kiosk=1"))!.startsWith("/pvstatus?")).toBe(true);
    expect(nextKioskUrl(parseKiosk(q("kiosk=1"))!, "/pvstatus", q("kiosk=1"))).toBeNull();
  });
});
