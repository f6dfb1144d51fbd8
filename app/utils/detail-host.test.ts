import { describe, expect, it } from "vitest";
import { detailHostAllows, detailUrlFor, guardDetailHost, isDetailHost } from "./detail-host.server";

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
    const a = new URL(detailUrlFor(req("http://localhost:3000/resources/detail-window"), "newPlantWindow", params)!);
    expect(a.origin).toBe("http://detail.localhost:3000");
    expect(a.pathname).toBe("/setNewToken/newPlantWindow/");
    expect(Object.fromEntries(a.searchParams)).toEqual({ name: "해남 1호", uid: "P1", theme: "dark" });
    expect(new URL(detailUrlFor(req("http://127.0.0.1:3412/x"), "newMemberWindow", params)!).host).toBe("detail.localhost:3412");
    expect(new URL(detailUrlFor(req("https://portal.example.kr/x"), "newPlantWindow", params)!).origin).toBe("https://detail.example.kr");
    // No sibling for a plain IP address: the detail session's cookies would land on the main host.
    expect(detailUrlFor(req("http://10.0.0.5:3000/x"), "newPlantWindow", params)).toBeNull();
  });
});
