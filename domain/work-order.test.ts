import { describe, expect, it } from "vitest";
import { WORK_ORDER_STATES, canMove, isClosed, isWorkOrderState, nextStates } from "./work-order";

describe("work order states", () => {
  it("moves open → in_progress → done", () => {
    expect(canMove("open", "in_progress")).toBe(true);
    expect(canMove("in_progress", "done")).toBe(true);
  });

  it("cancels from open or in_progress only", () => {
    expect(canMove("open", "cancelled")).toBe(true);
    expect(canMove("in_progress", "cancelled")).toBe(true);
    expect(canMove("done", "cancelled")).toBe(false);
  });

  it("refuses skipping, going back, staying and leaving a final state", () => {
    expect(canMove("open", "done")).toBe(false);
    expect(canMove("in_progress", "open")).toBe(false);
    expect(canMove("open", "open")).toBe(false);
    for (const to of WORK_ORDER_STATES) {
      expect(canMove("done", to)).toBe(false);
      expect(canMove("cancelled", to)).toBe(false);
    }
  });

  it("offers the allowed moves in screen order and tells final states", () => {
    expect(nextStates("open")).toEqual(["in_progress", "cancelled"]);
    expect(nextStates("in_progress")).toEqual(["done", "cancelled"]);
    expect(nextStates("done")).toEqual([]);
    expect(isClosed("done")).toBe(true);
    expect(isClosed("cancelled")).toBe(true);
    expect(isClosed("open")).toBe(false);
    expect(isClosed("in_progress")).toBe(false);
  });

  it("knows its states", () => {
    expect(isWorkOrderState("in_progress")).toBe(true);
    expect(isWorkOrderState("closed")).toBe(false);
    expect(isWorkOrderState(3)).toBe(false);
  });
});
