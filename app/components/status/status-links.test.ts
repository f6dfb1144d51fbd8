import { describe, expect, it } from "vitest";
import { isShownByStatusFilter, STATUS_CATEGORIES, type StatusCategory } from "../../../domain/status";
import { enabledCategories, parseView } from "../plant-cards/url-state";
import { detailWindowHref } from "./DetailLink";
import { pvstatusFilterHref } from "./StatusCounts";

const shown = (key: StatusCategory) => {
  const view = parseView(new URL(pvstatusFilterHref(key), "http://x").searchParams, { mobile: false });
  const on = enabledCategories(view);
  // Which status codes the plant status screen then shows.
  return [0, 1, 2, 3, 4, 5, 6].filter((code) => isShownByStatusFilter(code, on));
};

describe("status count links to /pvstatus", () => {
  it("show exactly the plants of that count on the plant status screen", () => {
    expect(shown("normal")).toEqual([2]);
    expect(shown("notWork")).toEqual([0, 1]);
    expect(shown("warning")).toEqual([3, 4, 5, 6]);
    expect(shown("warning_1000003")).toEqual([3]);
    expect(shown("warning_1000001")).toEqual([4]);
    expect(shown("warning_1000004")).toEqual([5]);
    expect(shown("warning_1000006")).toEqual([6]);
    expect(STATUS_CATEGORIES).toHaveLength(7);
  });
});

describe("detailWindowHref", () => {
  it("goes through the main host's handover route with kind, uid and name", () => {
    const u = new URL(detailWindowHref("plant", "P 1&2", "해남 1호"), "http://portal.localhost");
    expect(u.pathname).toBe("/resources/detail-window");
    expect(Object.fromEntries(u.searchParams)).toEqual({ kind: "plant", uid: "P 1&2", name: "해남 1호" });
  });
});
