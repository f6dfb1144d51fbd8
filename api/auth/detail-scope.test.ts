import { describe, expect, it } from "vitest";
import { detailScopeAllows } from "./detail-scope";

const plant = { kind: "plant", uid: "P1" } as const;
const member = { kind: "member", uid: "kim" } as const;

describe("detailScopeAllows", () => {
  it("lets every detail session check itself, log out and read its own view", () => {
    for (const scope of [plant, member]) {
      expect(detailScopeAllows(scope, "GET", "/member/isAuth")).toBe(true);
      expect(detailScopeAllows(scope, "get", "/member/logout")).toBe(true);
      expect(detailScopeAllows(scope, "GET", "/member/detail/view")).toBe(true);
      expect(detailScopeAllows(scope, "GET", "/member/detail/view/")).toBe(true);
    }
  });

  it("refuses the rest of the API", () => {
    for (const [m, p] of [
      ["GET", "/pvstatus"],
      ["GET", "/alarm/recent"],
      ["GET", "/monitor/gen"],
      ["GET", "/member"],
      ["PUT", "/member"],
      ["POST", "/member/detail"],
      ["GET", "/node/ancestor/list/watch"],
      ["GET", "/plant"],
      ["DELETE", "/member/detail/view"],
      ["GET", "/member/detail"],
    ]) {
      expect(detailScopeAllows(plant, m!, p!), `${m} ${p}`).toBe(false);
    }
  });

  it("allows plant-keyed reads only for the scope's own plant", () => {
    expect(detailScopeAllows(plant, "GET", "/pvstatus/new", { plantUid: "P1" })).toBe(true);
    expect(detailScopeAllows(plant, "GET", "/pvstatus/new", { plantUid: "P2" })).toBe(false);
    expect(detailScopeAllows(plant, "GET", "/pvstatus/new", {})).toBe(false);
    expect(detailScopeAllows(plant, "GET", "/pvstatus/new", { plantUid: ["P1", "P2"] })).toBe(false);
    expect(detailScopeAllows(plant, "GET", "/pvstatus/new", { plantUid: "P1", uid: "P2" })).toBe(false);
    expect(detailScopeAllows(member, "GET", "/pvstatus/new", { plantUid: "P1" })).toBe(false);
  });
});
