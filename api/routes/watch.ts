/**
 * The watch screen's calls (SPEC §2 Watch screen, §3 Node / Group data / Plant in status data,
 * §4 Selecting a tree node, §7 /node/ancestor/list, /node/ancestor/list/watch, /pvstatus/group/detail).
 * Everything is cut to what the member may see: the member's node and its descendants, plus plants
 * linked to the member directly (filed under the pseudo node LINKED_NODE_SEQ = 0 when they lie outside).
 *
 * GET /node/group/list is the group administration's call (api/routes/groups-admin.ts, admin levels
 * only); the watch tree uses /node/ancestor/list/watch, open to every member.
 */
import { Router } from "express";
import { z } from "zod";
import type { TreeNode } from "../../domain/group-tree";
import { flattenTree } from "../../domain/group-tree";
import { groupPlantsByLocality, normalizeLocality } from "../../domain/locality";
import { sortByName } from "../../domain/name-order";
import { statusDataCounters } from "../../domain/operation-totals";
import { isWarningStatus, tallyStatusCodes } from "../../domain/status";
import { totalCapacityKw } from "../../domain/units";
import {
  filterWatchTree,
  LINKED_NODE_SEQ,
  localityToken,
  UNSPECIFIED_LOCALITY,
  WATCH_KEYWORD_MAX,
  WATCH_VIEWS,
  type GroupDetailResponse,
  type WatchLocality,
  type WatchPlant,
  type WatchStatusPlant,
  type WatchTreeNode,
  type WatchTreeResponse,
} from "../../domain/watch";
import { matchesKeyword } from "../../domain/monitoring";
import type { Clock } from "../clock";
import { requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { handle, notFound, parse } from "../http";
import type { PlantStatusRow } from "../../domain/contract/status";
import { plantStatusRows } from "../store/plant-status";
import { plantHex, plantOperations, rtusWithoutPlant, sumOperations, viewerTree, type NodeRow } from "../store/watch";
import { reachOf, visiblePlantUids } from "../store/visibility";

const boolish = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");
const seqParam = z.coerce
  .number({ invalid_type_error: "invalid" })
  .int("invalid")
  .min(0, "invalid")
  .max(2_147_483_647, "invalid");

const AncestorQuery = z.object({ ancestorID: seqParam.optional(), isGroup: boolish.default(true) });
const WatchQuery = z.object({
  type: z.enum(WATCH_VIEWS).default("group"),
  keyword: z.string().trim().max(WATCH_KEYWORD_MAX).default(""),
});
const DetailQuery = z.discriminatedUnion("type", [
  z.object({ type: z.literal("node"), uid: seqParam.optional() }),
  z.object({ type: z.literal("locality"), uid: z.string().trim().min(1, "required").max(100) }),
]);

const toWatchPlant = (p: PlantStatusRow): WatchPlant => ({
  plant_uid: p.plant_uid,
  name: p.name,
  alias: p.alias,
  locality: p.locality,
  node_seq: p.node_seq,
  status: p.status,
  statusName: p.statusName,
});

interface Snapshot {
  /** The member's own node: the top of their tree (null without a node). */
  viewer: { nodeSeq: number | null };
  rows: NodeRow[];
  forest: TreeNode<NodeRow>[];
  plants: PlantStatusRow[];
  /** Visible plants outside the member's node (directly linked ones). */
  linked: PlantStatusRow[];
  linkedUids: Set<string>;
}

export function watchRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;
  /** A copy in plant-name order (ranks kept for the server's lifetime: domain/name-order.ts). */
  const byName = <T extends { name: string }>(list: readonly T[]): T[] => sortByName(list, (p) => p.name, ctx.plantNames);

  async function snapshot(req: Parameters<typeof requireSettled>[0]): Promise<Snapshot> {
    const reach = await reachOf(db, requireSettled(req));
    const viewer = { nodeSeq: reach.nodeSeq ?? null };
    const { rows, forest } = await viewerTree(db, reach);
    const plants = await plantStatusRows(db, await visiblePlantUids(db, reach), clock.now());
    const inTree = new Set(rows.map((n) => n.seq));
    const linked = plants.filter((p) => p.node_seq === null || !inTree.has(p.node_seq));
    return { viewer, rows, forest, plants, linked, linkedUids: new Set(linked.map((p) => p.plant_uid)) };
  }

  /** The nested tree with plant items and per-subtree counts; the linked pseudo node last. */
  function watchForest(s: Snapshot, withPlants: boolean): WatchTreeNode<WatchPlant>[] {
    const byNode = new Map<number, PlantStatusRow[]>();
    for (const p of s.plants) {
      if (p.node_seq === null) continue;
      const own = byNode.get(p.node_seq);
      if (own) own.push(p);
      else byNode.set(p.node_seq, [p]);
    }
    const shape = (t: TreeNode<NodeRow>): WatchTreeNode<WatchPlant> => {
      const own = byName(byNode.get(t.node.seq) ?? []);
      const children = t.children.map(shape);
      return {
        seq: t.node.seq,
        name: t.node.name,
        plants: withPlants ? own.map(toWatchPlant) : [],
        children,
        plantCount: own.length + children.reduce((n, c) => n + (c.plantCount ?? 0), 0),
        warningCount:
          own.filter((p) => isWarningStatus(p.status)).length + children.reduce((n, c) => n + (c.warningCount ?? 0), 0),
      };
    };
    const forest = s.forest.map(shape);
    if (s.linked.length) {
      const linked = byName(s.linked);
      forest.push({
        seq: LINKED_NODE_SEQ,
        name: "",
        plants: withPlants ? linked.map(toWatchPlant) : [],
        children: [],
        plantCount: linked.length,
        warningCount: linked.filter((p) => isWarningStatus(p.status)).length,
      });
    }
    return forest;
  }

  /**
   * GET /node/ancestor/list?ancestorID=&isGroup= — the tree below `ancestorID` (default: the member's own
   * node). isGroup true (default): group nodes only; false: each node also carries its plant items.
   */
  r.get(
    "/node/ancestor/list",
    handle(async (req) => {
      const q = parse(AncestorQuery, req.query);
      const s = await snapshot(req);
      const forest = watchForest(s, !q.isGroup);
      const ancestorID = q.ancestorID ?? s.viewer.nodeSeq ?? LINKED_NODE_SEQ;
      const find = (list: WatchTreeNode<WatchPlant>[]): WatchTreeNode<WatchPlant> | null => {
        for (const n of list) {
          if (n.seq === ancestorID) return n;
          const below = find(n.children);
          if (below) return below;
        }
        return null;
      };
      const root = find(forest);
      if (!root) throw notFound("no_such_node");
      return { ancestorID, isGroup: q.isGroup, nodeList: [root] };
    }),
  );

  /**
   * GET /node/ancestor/list/watch?type=group|locality&keyword= — the watch tree (SPEC §2): by group (nested
   * nodes with plant items) or by locality (alphabetical, 'site unspecified' last), cut by the tree search.
   * 204 when the member sees nothing at all (SPEC §8 "Not Content").
   */
  r.get(
    "/node/ancestor/list/watch",
    handle(async (req, res): Promise<WatchTreeResponse | undefined> => {
      const q = parse(WatchQuery, req.query);
      const s = await snapshot(req);
      if (!s.forest.length && !s.plants.length) {
        res.status(204);
        return undefined;
      }
      if (q.type === "group") {
        const { nodes, expanded } = filterWatchTree(watchForest(s, true), q.keyword);
        return {
          type: "group",
          keyword: q.keyword,
          rootSeq: s.viewer.nodeSeq,
          nodeList: nodes,
          localityList: [],
          expandeds: expanded,
        };
      }
      const groups = groupPlantsByLocality(byName(s.plants), (p) => p.locality);
      const localityList: WatchLocality[] = [];
      for (const g of groups) {
        const nameMatches = g.locality !== null && matchesKeyword(q.keyword, g.locality);
        const plants = nameMatches ? g.plants : g.plants.filter((p) => matchesKeyword(q.keyword, p.name, p.alias));
        if (!plants.length) continue;
        localityList.push({
          locality: g.locality,
          uid: localityToken(g.locality),
          plants: plants.map(toWatchPlant),
          plantCount: g.plants.length,
          warningCount: g.plants.filter((p) => isWarningStatus(p.status)).length,
        });
      }
      return { type: "locality", keyword: q.keyword, rootSeq: s.viewer.nodeSeq, nodeList: [], localityList, expandeds: [] };
    }),
  );

  /**
   * GET /pvstatus/group/detail?type=node&uid=<seq> | ?type=locality&uid=<name or '-'> — SPEC §3 Group data of
   * the selection: its plants with their device counters, and operation/warning totals of the selection
   * and of every node in it, each over the node and all its descendants.
   */
  r.get(
    "/pvstatus/group/detail",
    handle(async (req): Promise<GroupDetailResponse> => {
      const q = parse(DetailQuery, { type: "node", ...req.query });
      const s = await snapshot(req);
      const now = clock.now();
      const nodeName = new Map(s.rows.map((n) => [n.seq, n.name]));
      const parentOf = new Map(s.rows.map((n) => [n.seq, n.seq === s.viewer.nodeSeq ? null : n.parent_seq]));
      const pathTo = (seq: number): number[] => {
        const out: number[] = [];
        for (
          let cur: number | null | undefined = seq;
          cur !== null && cur !== undefined && !out.includes(cur);
          cur = parentOf.get(cur)
        )
          out.unshift(cur);
        return out;
      };

      let name = "";
      let nodeList: GroupDetailResponse["nodeList"] = [];
      let selected: PlantStatusRow[];
      let expandeds: number[] = [];
      let rtuNodes: number[] = [];
      if (q.type === "node") {
        const seq = q.uid ?? s.viewer.nodeSeq ?? LINKED_NODE_SEQ;
        if (seq === LINKED_NODE_SEQ) {
          if (!s.linked.length) throw notFound("no_such_node");
          selected = s.linked;
          nodeList = [{ seq: LINKED_NODE_SEQ, parent_seq: null, name: "", depth: 0 }];
        } else {
          if (!nodeName.has(seq)) throw notFound("no_such_node");
          const find = (list: TreeNode<NodeRow>[]): TreeNode<NodeRow> | null => {
            for (const t of list) {
              if (t.node.seq === seq) return t;
              const below = find(t.children);
              if (below) return below;
            }
            return null;
          };
          const sub = find(s.forest)!;
          const base = sub.depth;
          nodeList = flattenTree([sub]).map(({ node, depth }) => ({
            seq: node.seq,
            parent_seq: parentOf.get(node.seq) ?? null,
            name: node.name,
            depth: depth - base,
          }));
          const inSub = new Set(nodeList.map((n) => n.seq));
          selected = s.plants.filter((p) => p.node_seq !== null && inSub.has(p.node_seq) && !s.linkedUids.has(p.plant_uid));
          name = sub.node.name;
          expandeds = pathTo(seq);
          rtuNodes = [...inSub];
        }
      } else {
        const want = q.uid === UNSPECIFIED_LOCALITY ? null : normalizeLocality(q.uid);
        selected = s.plants.filter((p) => normalizeLocality(p.locality) === want);
        if (!selected.length) throw notFound("no_such_locality");
        name = want ?? "";
        // The nodes holding the locality's plants, each with its path, so totals roll up the same way.
        const seqs = new Set<number>();
        for (const p of selected)
          if (p.node_seq !== null && nodeName.has(p.node_seq)) pathTo(p.node_seq).forEach((x) => seqs.add(x));
        const order = flattenTree(s.forest);
        nodeList = order
          .filter(({ node }) => seqs.has(node.seq))
          .map(({ node, depth }) => ({ seq: node.seq, parent_seq: parentOf.get(node.seq) ?? null, name: node.name, depth }));
        if (selected.some((p) => s.linkedUids.has(p.plant_uid)))
          nodeList.push({ seq: LINKED_NODE_SEQ, parent_seq: null, name: "", depth: 0 });
      }

      const ops = await plantOperations(
        db,
        selected.map((p) => p.plant_uid),
        now,
      );
      // Roll each plant's totals up its node's path (within the selection's node list).
      const listed = new Set(nodeList.map((n) => n.seq));
      const perNode = new Map<number, string[]>();
      for (const p of selected) {
        const home =
          p.node_seq !== null && nodeName.has(p.node_seq) && !s.linkedUids.has(p.plant_uid) ? p.node_seq : LINKED_NODE_SEQ;
        const path = home === LINKED_NODE_SEQ ? [LINKED_NODE_SEQ] : pathTo(home);
        for (const seq of path) if (listed.has(seq)) perNode.set(seq, [...(perNode.get(seq) ?? []), p.plant_uid]);
      }
      const nopDataObj: GroupDetailResponse["nopDataObj"] = {};
      const norDataObj: GroupDetailResponse["norDataObj"] = {};
      for (const n of nodeList) {
        const total = sumOperations((perNode.get(n.seq) ?? []).map((uid) => ops.get(uid)));
        nopDataObj[n.seq] = total.op;
        norDataObj[n.seq] = total.warn;
      }

      const plantList: WatchStatusPlant[] = byName(selected).map((p) => {
        const o = ops.get(p.plant_uid)!;
        return {
          plant_uid: p.plant_uid,
          hex_plant_uid: plantHex(p.plant_uid),
          name: p.name,
          alias: p.alias,
          node: p.node_seq,
          nodeName: p.node_seq === null ? null : (nodeName.get(p.node_seq) ?? null),
          locality: p.locality,
          capa: p.capa,
          iw: p.iw,
          dailys: p.dailys,
          dailysZeroed: p.dailysZeroed,
          lastTs: p.lastTs,
          status: p.status,
          statusName: p.statusName,
          alarm_count: p.alarm_count,
          ...statusDataCounters(o.op, o.warn),
        };
      });

      const rtusNotInPlant = await rtusWithoutPlant(db, rtuNodes);

      const all = sumOperations(selected.map((p) => ops.get(p.plant_uid)));
      return {
        type: q.type,
        uid: q.type === "node" ? String(q.uid ?? s.viewer.nodeSeq ?? LINKED_NODE_SEQ) : localityToken(name || null),
        name,
        nodeList,
        nopDataObj,
        norDataObj,
        plantList,
        rtusNotInPlant,
        expandeds,
        counts: {
          plants: selected.length,
          status: tallyStatusCodes(selected.map((p) => p.status)),
          op: all.op,
          warn: all.warn,
          total_capa: totalCapacityKw(selected.map((p) => p.capa)),
          total_iw: selected.reduce((n, p) => n + p.iw, 0),
          today_gen: selected.reduce((n, p) => n + p.dailys, 0),
        },
        now,
      };
    }),
  );

  return r;
}
