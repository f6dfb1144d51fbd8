import { describe, expect, it } from "vitest";
import {
  canEditDevice,
  canEditPlant,
  canEditRtu,
  canSeeDevice,
  canSeePlant,
  canSeeRtu,
  reachesNode,
  type Reach,
} from "./visibility";

const base: Reach = { memberId: "m", all: false, nodes: [2, 3], linked: ["LINKED"], only: null };
const root: Reach = { memberId: "r", all: true, nodes: [], linked: [], only: null };
const nodeless: Reach = { memberId: "n", all: false, nodes: [], linked: ["LINKED"], only: null };
const own = { uid: "OWN", node_seq: 3 };
const foreign = { uid: "FOREIGN", node_seq: 9 };
const unfiled = { uid: "UNFILED", node_seq: null };
const linked = { uid: "LINKED", node_seq: 9 };

describe("plants", () => {
  it("a subtree member sees and edits plants under the subtree, sees linked plants only", () => {
    expect([own, foreign, unfiled, linked].map((p) => canSeePlant(base, p))).toEqual([true, false, false, true]);
    expect([own, foreign, unfiled, linked].map((p) => canEditPlant(base, p))).toEqual([true, false, false, false]);
  });
  it("a root-node member reaches everything, plants under no node included", () => {
    expect([own, foreign, unfiled, linked].every((p) => canSeePlant(root, p) && canEditPlant(root, p))).toBe(true);
  });
  it("a member without a node sees only linked plants and edits none", () => {
    expect([own, foreign, unfiled, linked].map((p) => canSeePlant(nodeless, p))).toEqual([false, false, false, true]);
    expect([own, foreign, unfiled, linked].some((p) => canEditPlant(nodeless, p))).toBe(false);
    expect(reachesNode(nodeless, null)).toBe(false);
  });
  it("a detail-window session sees its one plant, read-only, and only if the member could", () => {
    const detail: Reach = { ...base, only: { kind: "plant", uid: "OWN" } };
    expect([own, foreign, unfiled, linked].map((p) => canSeePlant(detail, p))).toEqual([true, false, false, false]);
    expect(canEditPlant(detail, own)).toBe(false);
    expect(canSeePlant({ ...base, only: { kind: "plant", uid: "FOREIGN" } }, foreign)).toBe(false);
    expect(canSeePlant({ ...root, only: { kind: "member", uid: "x" } }, own)).toBe(false);
  });
});

describe("RTUs and devices go with their plant, else their node", () => {
  it("follows the plant", () => {
    expect(canSeeRtu(base, { plant_uid: "OWN", node_seq: 9 }, own)).toBe(true);
    expect(canSeeRtu(base, { plant_uid: "FOREIGN", node_seq: 3 }, foreign)).toBe(false);
    expect(canSeeRtu(base, { plant_uid: "LINKED", node_seq: 9 }, linked)).toBe(true);
    expect(canEditRtu(base, { plant_uid: "LINKED", node_seq: 9 }, linked)).toBe(false);
    // a plant reference that is not the RTU's plant proves nothing
    expect(canSeeRtu(base, { plant_uid: "FOREIGN", node_seq: 3 }, own)).toBe(false);
  });
  it("unassigned RTUs follow their node; unfiled ones only root", () => {
    expect(canSeeRtu(base, { plant_uid: null, node_seq: 2 }, null)).toBe(true);
    expect(canSeeRtu(base, { plant_uid: null, node_seq: null }, null)).toBe(false);
    expect(canSeeRtu(root, { plant_uid: null, node_seq: null }, null)).toBe(true);
  });
  it("devices follow the plant, then the RTU", () => {
    expect(canSeeDevice(base, { plant_uid: "OWN" }, own, null)).toBe(true);
    expect(canSeeDevice(base, { plant_uid: "FOREIGN" }, foreign, null)).toBe(false);
    expect(canSeeDevice(base, { plant_uid: null }, null, { plant_uid: null, node_seq: 3 })).toBe(true);
    expect(canSeeDevice(base, { plant_uid: null }, null, null)).toBe(false);
    expect(canEditDevice(root, { plant_uid: null }, null, null)).toBe(true);
    expect(canEditDevice(base, { plant_uid: "LINKED" }, linked, null)).toBe(false);
  });
});
