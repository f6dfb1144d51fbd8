import { describe, expect, it } from "vitest";
import { detailHost, detailWindowUrl } from "./detail-window";

describe("detailHost", () => {
  it("replaces the first label with 'detail'", () => {
    expect(detailHost("portal.example.kr")).toBe("detail.example.kr");
    expect(detailHost("portal.localhost")).toBe("detail.localhost");
    expect(detailHost("a.b.c.example.com:8443")).toBe("detail.b.c.example.com:8443");
  });
  it("puts 'detail.' in front of a single-label host, keeping the port", () => {
    expect(detailHost("localhost:3000")).toBe("detail.localhost:3000");
    expect(detailHost("LOCALHOST")).toBe("detail.localhost");
  });
  it("keeps an IP address and a host that already is the detail host", () => {
    expect(detailHost("127.0.0.1:3700")).toBe("127.0.0.1:3700");
    expect(detailHost("[::1]:3000")).toBe("[::1]:3000");
    expect(detailHost("detail.example.kr")).toBe("detail.example.kr");
  });
});

describe("detailWindowUrl", () => {
  it("builds the plant window URL with name, uid and theme in the query", () => {
    const url = detailWindowUrl("newPlantWindow", { name: "해남 솔라팜 1", uid: "P000101", theme: "dark" }, "portal.example.kr");
    expect(url).toBe(
      "https://detail.example.kr/setNewToken/newPlantWindow/?name=%ED%95%B4%EB%82%A8+%EC%86%94%EB%9D%BC%ED%8C%9C+1&uid=P000101&theme=dark",
    );
    const parsed = new URL(url);
    expect(parsed.searchParams.get("name")).toBe("해남 솔라팜 1");
    expect(parsed.pathname).toBe("/setNewToken/newPlantWindow/");
  });
  it("uses http for localhost and keeps the port", () => {
    expect(detailWindowUrl("newMemberWindow", { name: "a", uid: "m1", theme: "default" }, "localhost:3000")).toBe(
      "http://detail.localhost:3000/setNewToken/newMemberWindow/?name=a&uid=m1&theme=default",
    );
  });
  it("takes the scheme of a whole origin, or the one given", () => {
    expect(detailWindowUrl("newPlantWindow", { name: "x", uid: "1", theme: "default" }, "http://portal.lan:8080")).toBe(
      "http://detail.lan:8080/setNewToken/newPlantWindow/?name=x&uid=1&theme=default",
    );
    expect(detailWindowUrl("newPlantWindow", { name: "x", uid: "1", theme: "default" }, "portal.lan", "http:")).toMatch(
      /^http:\/\/detail\.lan\//,
    );
  });
  it("sends any theme other than dark as 'default'", () => {
    expect(
      new URL(detailWindowUrl("newPlantWindow", { name: "x", uid: "1", theme: "weird" }, "a.b")).searchParams.get("theme"),
    ).toBe("default");
  });
});
