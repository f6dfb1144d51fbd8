/**
 * The one visibility rule: which plants, RTUs and devices a member may see, and which they may edit.
 *
 * - A member on a root node of the group tree reaches the whole fleet, things filed under no node included.
 * - Otherwise a member reaches the plants filed under their node or any node below it, and sees (but does not
 *   edit) the plants linked to them directly (SPEC §3 member–plant links).
 * - A member with no node reaches only their linked plants, read-only.
 * - A detail-window session (SPEC §2) reaches the one plant it was opened for, read-only, and only when the
 *   member behind it could see that plant; a member detail window reaches no plant.
 * - An RTU or device filed under a plant goes with that plant; one under no plant goes with its node.
 * - A read-only member (a guest) sees what their node and links give them and edits nothing.
 * - An API token (domain/api-tokens.ts) limited to some plants reaches only those of them the member reaches, and
 *   no node (so no RTU or device filed under no plant); its reading scope edits nothing (`readOnly`).
 *
 * Pure: the store module `api/store/visibility.ts` reads the member's node, subtree and links and asks here.
 */

export interface Reach {
  memberId: string;
  /** The member's own node (where they file new things; the top of their group tree); null without a node. */
  nodeSeq?: number | null;
  /** The member sits on a root node: everything, unassigned things included. */
  all: boolean;
  /** Node seqs of the member's subtree, their own node included (empty when `all` or without a node). */
  nodes: readonly number[];
  /** Plants linked to the member directly: visible, not editable. */
  linked: readonly string[];
  /** A read-only member (the guest account): sees as their node and links allow, edits nothing. */
  readOnly?: boolean;
  /** A detail-window session: only this plant (kind plant) or no plant at all (kind member). */
  only?: { kind: "plant" | "member"; uid: string } | null;
  /** An API token limited to these plants: never wider than the member, narrower by this list. */
  plants?: readonly string[] | null;
}

/** Does the member reach every plant, so that a list needs no filter (no detail window, no token plant limit)? */
export function reachesEverything(reach: Reach): boolean {
  return reach.all && !reach.only && !reach.plants;
}

function withinTokenLimit(reach: Reach, uid: string): boolean {
  return !reach.plants || reach.plants.includes(uid);
}

export interface PlantRef {
  uid: string;
  node_seq: number | null;
}

export interface RtuRef {
  plant_uid: string | null;
  node_seq: number | null;
}

export interface DeviceRef {
  plant_uid: string | null;
}

/** May the member file things under this node (or see what sits on it)? `null` is "no node". */
export function reachesNode(reach: Reach, nodeSeq: number | null | undefined): boolean {
  if (reach.only || reach.plants) return false;
  if (reach.all) return true;
  return nodeSeq != null && reach.nodes.includes(nodeSeq);
}

/** May this session change anything at all (not a detail window, not a read-only member)? */
export function mayEdit(reach: Reach): boolean {
  return !reach.only && !reach.readOnly;
}

function underMember(reach: Reach, plant: PlantRef): boolean {
  return reach.all || (plant.node_seq !== null && reach.nodes.includes(plant.node_seq));
}

export function canSeePlant(reach: Reach, plant: PlantRef): boolean {
  if (!withinTokenLimit(reach, plant.uid)) return false;
  const open = underMember(reach, plant) || reach.linked.includes(plant.uid);
  if (reach.only) return reach.only.kind === "plant" && reach.only.uid === plant.uid && open;
  return open;
}

export function canEditPlant(reach: Reach, plant: PlantRef): boolean {
  return mayEdit(reach) && withinTokenLimit(reach, plant.uid) && underMember(reach, plant);
}

/** An RTU goes with its plant; one under no plant goes with its node. */
export function canSeeRtu(reach: Reach, rtu: RtuRef, plant: PlantRef | null | undefined): boolean {
  if (rtu.plant_uid) return !!plant && plant.uid === rtu.plant_uid && canSeePlant(reach, plant);
  return reachesNode(reach, rtu.node_seq);
}

export function canEditRtu(reach: Reach, rtu: RtuRef, plant: PlantRef | null | undefined): boolean {
  if (rtu.plant_uid) return !!plant && plant.uid === rtu.plant_uid && canEditPlant(reach, plant);
  return mayEdit(reach) && reachesNode(reach, rtu.node_seq);
}

/** A device goes with its plant; one under no plant goes with its RTU; one with neither only with `all`. */
export function canSeeDevice(
  reach: Reach,
  device: DeviceRef,
  plant: PlantRef | null | undefined,
  rtu: RtuRef | null | undefined,
): boolean {
  if (device.plant_uid) return !!plant && plant.uid === device.plant_uid && canSeePlant(reach, plant);
  if (rtu) return canSeeRtu(reach, rtu, null);
  return reachesEverything(reach);
}

export function canEditDevice(
  reach: Reach,
  device: DeviceRef,
  plant: PlantRef | null | undefined,
  rtu: RtuRef | null | undefined,
): boolean {
  if (device.plant_uid) return !!plant && plant.uid === device.plant_uid && canEditPlant(reach, plant);
  if (rtu) return canEditRtu(reach, rtu, null);
  return mayEdit(reach) && reachesEverything(reach);
}
