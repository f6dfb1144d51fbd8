/** The API suite's answer check (tests/helpers/contract.ts) refuses what the description does not allow. */
import { describe, expect, it } from "vitest";
import { contractProblems } from "../helpers/contract";

const tokens = JSON.stringify({ accessToken: "a", refreshToken: "r", sessionId: "s", pwd_yn: 0 });
const json = "application/json; charset=utf-8";

describe("contractProblems", () => {
  it("accepts a listed status whose body matches its schema", () => {
    expect(contractProblems({ method: "POST", path: "/api/member/login", status: 200, contentType: json, text: tokens })).toEqual(
      [],
    );
  });

  it("refuses a body that breaks the schema", () => {
    const body = JSON.stringify({ accessToken: "a", sessionId: "s", pwd_yn: 3 });
    const problems = contractProblems({ method: "POST", path: "/api/member/login", status: 200, contentType: json, text: body });
    expect(problems.join()).toMatch(/does not match .*refreshToken/);
  });

  it("refuses a status the operation does not list", () => {
    const problems = contractProblems({ method: "POST", path: "/api/member/login", status: 418, contentType: json, text: "{}" });
    expect(problems.join()).toMatch(/status not listed for post \/member\/login/);
  });

  it("refuses a content type the answer does not list", () => {
    const problems = contractProblems({
      method: "POST",
      path: "/api/member/login",
      status: 200,
      contentType: "text/html",
      text: "<p>",
    });
    expect(problems.join()).toMatch(/content type text\/html is not one of application\/json/);
  });

  it("holds the shared answers to the one error shape: 401 of a secured call", () => {
    const ok = JSON.stringify({ message: "unauthorized", isLogin: false });
    expect(contractProblems({ method: "GET", path: "/api/plant/P1", status: 401, contentType: json, text: ok })).toEqual([]);
    const bad = JSON.stringify({ isLogin: true });
    expect(contractProblems({ method: "GET", path: "/api/plant/P1", status: 401, contentType: json, text: bad }).join()).toMatch(
      /components\/responses\/Unauthorized/,
    );
  });

  it("matches the literal path before a template (/rtu/user is not /rtu/{uid})", () => {
    const deleted = JSON.stringify({ deleted: "user", devices: 0 });
    const problems = contractProblems({ method: "DELETE", path: "/api/rtu/user", status: 200, contentType: json, text: deleted });
    expect(problems).toEqual([]); // DELETE /rtu/{uid} with uid "user": a real operation
    expect(
      contractProblems({ method: "POST", path: "/api/rtu/user", status: 200, contentType: json, text: "{}" }).join(),
    ).toMatch(/no operation POST \/rtu\/user/);
  });

  it("lets only the shared middleware answer a call the description does not have", () => {
    const error = JSON.stringify({ message: "no_such_call" });
    expect(contractProblems({ method: "GET", path: "/api/no/such/call", status: 404, contentType: json, text: error })).toEqual(
      [],
    );
    expect(
      contractProblems({ method: "GET", path: "/api/no/such/call", status: 200, contentType: json, text: "{}" }).join(),
    ).toMatch(/no operation GET \/no\/such\/call/);
  });
});
