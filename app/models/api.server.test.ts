import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api, call, frozenInTests, oneRequest } from "./api.server";

describe("frozenInTests (answers shared between requests)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("freezes the whole value outside production, so a change throws instead of reaching the next request", () => {
    const shared = frozenInTests({ list: [{ name: "가람", values: [1, 2] }], counts: { total: 1 } });
    expect(Object.isFrozen(shared.list[0]!.values)).toBe(true);
    expect(() => {
      (shared.list[0] as { name: string }).name = "changed";
    }).toThrow(TypeError);
    expect(() => shared.list.push({ name: "x", values: [] })).toThrow(TypeError);
  });

  it("leaves it as it is in production, unless FREEZE_SHARED=1 (the test servers)", () => {
    vi.stubEnv("NODE_ENV", "production");
    expect(Object.isFrozen(frozenInTests({ a: [1] }).a)).toBe(false);
    vi.stubEnv("FREEZE_SHARED", "1");
    expect(Object.isFrozen(frozenInTests({ a: [1] }).a)).toBe(true);
  });
});

describe("oneRequest (a portal request's loaders share identical GETs)", () => {
  const seen: string[] = [];
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ n: seen.length }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    vi.stubEnv("API_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((r) => server.close(r));
  });

  it("sends a GET asked twice within one request once, each caller getting its own copy", async () => {
    seen.length = 0;
    const [a, b, other] = await oneRequest(() =>
      Promise.all([
        api<{ n: number }>("/alarm/count", { token: "t1" }),
        api<{ n: number }>("/alarm/count", { token: "t1" }),
        api<{ n: number }>("/alarm/count", { token: "t2" }),
      ]),
    );
    expect(seen.sort()).toEqual(["GET /api/alarm/count Bearer t1", "GET /api/alarm/count Bearer t2"]);
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(other).toBeDefined();
  });

  it("asks again in the next request, and outside a request every time; writes are never shared", async () => {
    seen.length = 0;
    await oneRequest(() => api("/alarm/count", { token: "t1" }));
    await oneRequest(() => api("/alarm/count", { token: "t1" }));
    await Promise.all([api("/alarm/count", { token: "t1" }), api("/alarm/count", { token: "t1" })]);
    await oneRequest(() =>
      Promise.all([
        api("/alarm/release", { token: "t1", method: "POST", body: { uids: [1] } }),
        api("/alarm/release", { token: "t1", method: "POST", body: { uids: [1] } }),
      ]),
    );
    expect(seen).toHaveLength(6);
  });
});

describe("call (the typed client of domain/contract/answers.ts)", () => {
  const seen: string[] = [];
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ alarm: { seq: 7 }, events: [] }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    vi.stubEnv("API_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((r) => server.close(r));
  });

  it("sends the method of the key to its template with the path parameters encoded", async () => {
    seen.length = 0;
    const answer = await call("post /alarm/{seq}/ack", { token: "t", params: { seq: 7 }, body: { note: "" } });
    expect(answer.alarm.seq).toBe(7);
    await call("get /member/{id}", { token: "t", params: { id: "a b/c" } });
    await call("get /command", { token: "t", query: { limit: 5 } });
    expect(seen).toEqual(["POST /api/alarm/7/ack", "GET /api/member/a%20b%2Fc", "GET /api/command?limit=5"]);
  });
});
