import { describe, expect, it } from "vitest";
import { detailHostAllows, detailUrlFor, guardDetailHost, isDetailHost } from "./detail-host.server";
import { publicOrigins } from "./env.server";

const req = (url: string) => new Request(url);
const params = { name: "해남 1호", uid: "P1", theme: "dark" };

describe("detail host", () => {
  it("recognises the detail host by its first label", () => {
    expect(isDetailHost(req("http://detail.localhost:3000/"))).toBe(true);
    expect(isDetailHost(req("https://detail.example.kr/x"))).toBe(true);
    expect(isDetailHost(req("http://localhost:3000/"))).toBe(false);
    expect(isDetailHost(req("https://portal.example.kr/"))).toBe(false);
    expect(isDetailHost(req("https://detailed.example.kr/"))).toBe(false);
  });

  it("serves only its root and the handover there", () => {
    expect(detailHostAllows("/")).toBe(true);
    expect(detailHostAllows("/setNewToken/newPlantWindow/")).toBe(true);
    expect(detailHostAllows("/watch")).toBe(false);
    expect(() => guardDetailHost(req("http://detail.localhost/watch"))).toThrow();
    expect(() => guardDetailHost(req("http://localhost/watch"))).not.toThrow();
    expect(() => guardDetailHost(req("http://detail.localhost/"))).not.toThrow();
  });

  it("builds the sibling URL, sending loopback addresses to detail.localhost", () => {
    const local = publicOrigins({ PORT: "3000" });
    const a = new URL(detailUrlFor(req("http://localhost:3000/resources/detail-window"), "newPlantWindow", params, local)!);
    expect(a.origin).toBe("http://detail.localhost:3000");
    expect(a.pathname).toBe("/setNewToken/newPlantWindow/");
    expect(Object.fromEntries(a.searchParams)).toEqual({ name: "해남 1호", uid: "P1", theme: "dark" });
    expect(
      new URL(detailUrlFor(req("http://127.0.0.1:3412/x"), "newMemberWindow", params, publicOrigins({ PORT: "3412" }))!).host,
    ).toBe("detail.localhost:3412");
    const kr = publicOrigins({ PUBLIC_URL: "https://portal.example.kr" });
    expect(new URL(detailUrlFor(req("https://portal.example.kr/x"), "newPlantWindow", params, kr)!).origin).toBe(
      "https://detail.example.kr",
    );
    // No sibling for a plain IP address: the detail session's cookies would land on the main host.
    expect(detailUrlFor(req("http://10.0.0.5:3000/x"), "newPlantWindow", params, ["http://10.0.0.5:3000"])).toBeNull();
  });

  it("never takes the detail host from a forged Host or X-Forwarded-Host", () => {
    const kr = publicOrigins({ PUBLIC_URL: "https://portal.example.kr, https://solar.example.kr" });
    expect(new URL(detailUrlFor(req("https://solar.example.kr/x"), "newPlantWindow", params, kr)!).origin).toBe(
      "https://detail.example.kr",
    );
    expect(new URL(detailUrlFor(req("https://evil.example/x"), "newPlantWindow", params, kr)!).origin).toBe(
      "https://detail.example.kr",
    );
    expect(
      new URL(detailUrlFor(req("http://evil.example:3000/x"), "newPlantWindow", params, publicOrigins({ PORT: "3000" }))!).origin,
    ).toBe("http://detail.localhost:3000");
  });
});
