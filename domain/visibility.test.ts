import { describe, expect, it } from "vitest";
import {
  canEditDevice,
  canEditPlant,
  canEditRtu,
  canSeeDevice,
  canSeePlant,
  canSeeRtu,
  mayEdit,
  reachesEverything,
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
  it("an API token limited to plants reaches only those the member reaches, and no node", () => {
    const limited: Reach = { ...base, plants: ["OWN", "LINKED", "FOREIGN"] };
    expect([own, foreign, unfiled, linked].map((p) => canSeePlant(limited, p))).toEqual([true, false, false, true]);
    expect([own, foreign, unfiled, linked].map((p) => canEditPlant(limited, p))).toEqual([true, false, false, false]);
    const rootLimited: Reach = { ...root, plants: ["UNFILED"] };
    expect([own, foreign, unfiled, linked].map((p) => canSeePlant(rootLimited, p))).toEqual([false, false, true, false]);
    expect(canEditPlant(rootLimited, unfiled)).toBe(true);
    expect(reachesNode(rootLimited, 3)).toBe(false);
    expect(reachesEverything(rootLimited)).toBe(false);
    expect(reachesEverything(root)).toBe(true);
    // A device under no plant and no RTU goes with `all`, which a plant limit takes away.
    expect(canSeeDevice(rootLimited, { plant_uid: null }, null, null)).toBe(false);
    expect(canSeeDevice(root, { plant_uid: null }, null, null)).toBe(true);
    // A token's reading scope is a read-only member's.
    expect(canEditPlant({ ...root, readOnly: true, plants: ["OWN"] }, own)).toBe(false);
  });
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

const reaches: Record<string, Reach> = {
  subtree: base,
  root,
  nodeless,
  guest: { ...base, readOnly: true },
  rootGuest: { ...root, readOnly: true },
  detail: { ...base, only: { kind: "plant", uid: "OWN" } },
  memberWindow: { ...root, only: { kind: "member", uid: "r" } },
};
const rtus = {
  onOwn: { plant_uid: "OWN", node_seq: 3 },
  onForeign: { plant_uid: "FOREIGN", node_seq: 9 },
  onLinked: { plant_uid: "LINKED", node_seq: 9 },
  freeOwnNode: { plant_uid: null, node_seq: 2 },
  freeForeignNode: { plant_uid: null, node_seq: 9 },
  unfiled: { plant_uid: null, node_seq: null },
};
const plantOfRtu = (r: { plant_uid: string | null }) => [own, foreign, linked].find((p) => p.uid === r.plant_uid) ?? null;

describe("every kind of session against every kind of plant, RTU and device (see / edit)", () => {
  const plants = [own, foreign, unfiled, linked];
  const table: Record<string, { see: boolean[]; edit: boolean[]; rtuSee: boolean[]; rtuEdit: boolean[] }> = {
    //             plants: own, foreign, unfiled, linked       RTUs: onOwn, onForeign, onLinked, freeOwnNode, freeForeignNode, unfiled
    subtree: {
      see: [true, false, false, true],
      edit: [true, false, false, false],
      rtuSee: [true, false, true, true, false, false],
      rtuEdit: [true, false, false, true, false, false],
    },
    root: {
      see: [true, true, true, true],
      edit: [true, true, true, true],
      rtuSee: [true, true, true, true, true, true],
      rtuEdit: [true, true, true, true, true, true],
    },
    nodeless: {
      see: [false, false, false, true],
      edit: [false, false, false, false],
      rtuSee: [false, false, true, false, false, false],
      rtuEdit: [false, false, false, false, false, false],
    },
    guest: {
      see: [true, false, false, true],
      edit: [false, false, false, false],
      rtuSee: [true, false, true, true, false, false],
      rtuEdit: [false, false, false, false, false, false],
    },
    rootGuest: {
      see: [true, true, true, true],
      edit: [false, false, false, false],
      rtuSee: [true, true, true, true, true, true],
      rtuEdit: [false, false, false, false, false, false],
    },
    detail: {
      see: [true, false, false, false],
      edit: [false, false, false, false],
      rtuSee: [true, false, false, false, false, false],
      rtuEdit: [false, false, false, false, false, false],
    },
    memberWindow: {
      see: [false, false, false, false],
      edit: [false, false, false, false],
      rtuSee: [false, false, false, false, false, false],
      rtuEdit: [false, false, false, false, false, false],
    },
  };
  for (const [name, want] of Object.entries(table)) {
    it(name, () => {
      const reach = reaches[name]!;
      expect(plants.map((p) => canSeePlant(reach, p))).toEqual(want.see);
      expect(plants.map((p) => canEditPlant(reach, p))).toEqual(want.edit);
      const list = Object.values(rtus);
      expect(list.map((r) => canSeeRtu(reach, r, plantOfRtu(r)))).toEqual(want.rtuSee);
      expect(list.map((r) => canEditRtu(reach, r, plantOfRtu(r)))).toEqual(want.rtuEdit);
      // A device on a plant goes with that plant; one on an RTU only, with the RTU; one with neither, with root.
      for (const r of list) {
        const onRtu = { plant_uid: null };
        expect(canSeeDevice(reach, onRtu, null, r), `${name} device on RTU ${JSON.stringify(r)}`).toBe(canSeeRtu(reach, r, null));
        expect(canEditDevice(reach, onRtu, null, r), `${name} device on RTU ${JSON.stringify(r)}`).toBe(
          canEditRtu(reach, r, null),
        );
      }
      for (const [i, p] of plants.entries()) {
        if (p.uid === "UNFILED") continue;
        expect(canSeeDevice(reach, { plant_uid: p.uid }, p, null)).toBe(want.see[i]);
        expect(canEditDevice(reach, { plant_uid: p.uid }, p, null)).toBe(want.edit[i]);
        // a device whose plant reference is another plant proves nothing
        expect(canSeeDevice(reach, { plant_uid: p.uid }, p.uid === "OWN" ? foreign : own, null)).toBe(false);
      }
      const loose = { plant_uid: null };
      expect(canSeeDevice(reach, loose, null, null)).toBe(!reach.only && reach.all);
      expect(canEditDevice(reach, loose, null, null)).toBe(mayEdit(reach) && reach.all);
    });
  }
  it("only a member's own session that is not read-only may edit at all", () => {
    expect(
      Object.entries(reaches)
        .filter(([, r]) => mayEdit(r))
        .map(([n]) => n),
    ).toEqual(["subtree", "root", "nodeless"]);
  });
});
