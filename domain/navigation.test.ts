import { describe, expect, it } from "vitest";
import { canOpenSection, isCurrentSection, navigationFor, type NavViewer } from "./navigation";
import { SERVICE_MASK_MAX, serviceMask } from "./service-bits";

const keys = (v: NavViewer) => navigationFor(v).map((s) => s.key);
const everything: NavViewer = { service: SERVICE_MASK_MAX, auth: 10, diagram: 1, cctv: 1, page: 1 };

describe("navigation", () => {
  it("shows every section to a full admin with every service", () => {
    expect(keys(everything)).toEqual([
      "main",
      "pvstatus",
      "watch",
      "control",
      "measurement",
      "diagram",
      "page",
      "diagnose",
      "statistics",
      "alarm",
      "workorder",
      "cctv",
      "help",
      "notice",
      "setting",
      "modify",
    ]);
  });

  it("keeps the always-allowed sections for a member with no optional services", () => {
    expect(keys({ service: 0, auth: 3 })).toEqual([
      "main",
      "pvstatus",
      "watch",
      "measurement",
      "statistics",
      "alarm",
      "workorder",
      "notice",
      "setting",
      "modify",
    ]);
  });

  it("gates optional sections by their service bit", () => {
    expect(canOpenSection({ service: serviceMask(["control"]), auth: 1 }, "control")).toBe(true);
    expect(canOpenSection({ service: serviceMask(["help"]), auth: 1 }, "control")).toBe(false);
    expect(canOpenSection({ service: serviceMask(["diagnoseAll"]), auth: 1 }, "diagnose")).toBe(true);
    expect(canOpenSection({ service: serviceMask(["diagnoseCompare"]), auth: 1 }, "diagnose")).toBe(false);
    expect(canOpenSection({ service: serviceMask(["help"]), auth: 1 }, "help")).toBe(true);
  });

  it("shows admin only to levels that administer something, never to read-only members", () => {
    expect(canOpenSection({ service: 0, auth: 6 }, "setting")).toBe(true);
    expect(canOpenSection({ service: 0, auth: 1 }, "setting")).toBe(true);
    expect(canOpenSection({ service: 0, auth: 10, readOnly: 1 }, "setting")).toBe(false);
    expect(canOpenSection({ service: 0, auth: null }, "setting")).toBe(false);
  });

  it("shows diagram, page and camera only to members who have them", () => {
    expect(canOpenSection({ ...everything, diagram: 0 }, "diagram")).toBe(false);
    expect(canOpenSection({ ...everything, cctv: 0 }, "cctv")).toBe(false);
    expect(canOpenSection({ ...everything, page: 0 }, "page")).toBe(false);
  });

  it("hides every service-gated section when the mask is missing", () => {
    expect(keys({ service: null, auth: 1 })).toEqual(["main", "watch", "notice", "setting", "modify"]);
  });
});

describe("isCurrentSection", () => {
  it("marks a section current on its own path and the pages below it", () => {
    expect(isCurrentSection("/setting", "/setting")).toBe(true);
    expect(isCurrentSection("/setting/plant/P1", "/setting")).toBe(true);
    expect(isCurrentSection("/setting/", "/setting")).toBe(true);
    expect(isCurrentSection("/pvstatus/detail/P1", "/pvstatus")).toBe(true);
  });

  it("ignores case, as route matching does", () => {
    expect(isCurrentSection("/Setting/plant", "/setting")).toBe(true);
  });

  it("does not mark a section whose path is only a prefix of another word", () => {
    expect(isCurrentSection("/settings", "/setting")).toBe(false);
    expect(isCurrentSection("/notice-board", "/notice")).toBe(false);
  });

  it("marks the main screen only on / itself", () => {
    expect(isCurrentSection("/", "/")).toBe(true);
    expect(isCurrentSection("/pvstatus", "/")).toBe(false);
  });
});
