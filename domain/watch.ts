// Watch screen (SPEC §2 Watch screen, §4 Selecting a tree node): the view state in the URL and the
// tree search. Pure; the API filters with it and the portal builds links with it.
import { normalizeLocality } from "./locality";
import { matchesKeyword } from "./monitoring";
import type { OperationTotals, StatusDataCounters, WarningTotals } from "./operation-totals";
import type { PlantStatusCode, PlantStatusName, StatusCounts } from "./status";
import { searchText } from "./search-text";

export const WATCH_VIEWS = ["group", "locality"] as const;
export type WatchViewType = (typeof WATCH_VIEWS)[number];
export const DEFAULT_WATCH_VIEW: WatchViewType = "group";
export const WATCH_KEYWORD_MAX = 50;

/** URL token of the 'site unspecified' bucket (plants without a locality). */
export const UNSPECIFIED_LOCALITY = "-";

export interface WatchState {
  view: WatchViewType;
  keyword: string;
  /** Selected node seq (group view); null = the member's own root; 0 = plants linked to the member directly. */
  node: number | null;
  /** Selected locality (locality view): a name, UNSPECIFIED_LOCALITY, or null for none. */
  locality: string | null;
}

export function parseWatchState(params: URLSearchParams): WatchState {
  const view = WATCH_VIEWS.includes(params.get("view") as WatchViewType)
    ? (params.get("view") as WatchViewType)
    : DEFAULT_WATCH_VIEW;
  const rawNode = params.get("node");
  const node = rawNode && /^\d{1,9}$/.test(rawNode) ? Number(rawNode) : null;
  const rawLocality = params.get("locality");
  const locality =
    rawLocality === null
      ? null
      : rawLocality === UNSPECIFIED_LOCALITY
        ? UNSPECIFIED_LOCALITY
        : normalizeLocality(rawLocality.slice(0, 100));
  return { view, keyword: searchText(params.get("q"), WATCH_KEYWORD_MAX), node, locality };
}

/** The watch URL of a state (defaults left out); `reset` is simply "/watch". */
export function watchHref(state: Partial<WatchState>): string {
  const p = new URLSearchParams();
  if (state.view && state.view !== DEFAULT_WATCH_VIEW) p.set("view", state.view);
  if (state.keyword) p.set("q", state.keyword);
  if (state.view === "locality") {
    if (state.locality) p.set("locality", state.locality);
  } else if (state.node !== null && state.node !== undefined) {
    p.set("node", String(state.node));
  }
  const qs = p.toString();
  return qs ? `/watch?${qs}` : "/watch";
}

/** Locality of a plant as the URL names it. */
export function localityToken(locality: string | null | undefined): string {
  return normalizeLocality(locality) ?? UNSPECIFIED_LOCALITY;
}

export interface WatchPlantItem {
  plant_uid: string;
  name: string;
  alias?: string | null;
}

export interface WatchTreeNode<P extends WatchPlantItem = WatchPlantItem> {
  seq: number;
  name: string;
  /** The plants filed directly under this node. */
  plants: P[];
  children: WatchTreeNode<P>[];
  /** Plants in this node and below, and how many of them have a warning (before any search). */
  plantCount?: number;
  warningCount?: number;
}

export interface FilteredTree<P extends WatchPlantItem> {
  nodes: WatchTreeNode<P>[];
  /** Seqs of nodes that lead to a match: open them so the match shows. */
  expanded: number[];
}

/**
 * Tree search: keeps a node when its name matches (with all its plants and subtree), or when a plant
 * in it or below it matches (then only the matching plants and the branches that lead to them).
 * An empty keyword keeps the whole tree and expands nothing.
 */
export function filterWatchTree<P extends WatchPlantItem>(forest: readonly WatchTreeNode<P>[], keyword: string): FilteredTree<P> {
  const k = keyword.trim();
  if (!k) return { nodes: [...forest], expanded: [] };
  const expanded: number[] = [];
  const visit = (n: WatchTreeNode<P>): WatchTreeNode<P> | null => {
    if (matchesKeyword(k, n.name)) return n;
    const children = n.children.map(visit).filter((c): c is WatchTreeNode<P> => c !== null);
    const plants = n.plants.filter((p) => matchesKeyword(k, p.name, p.alias));
    if (!children.length && !plants.length) return null;
    expanded.push(n.seq);
    return { ...n, plants, children };
  };
  const nodes = forest.map(visit).filter((n): n is WatchTreeNode<P> => n !== null);
  return { nodes, expanded };
}

/** Seqs from the root down to `seq` inclusive (empty when it is not in the forest). */
export function pathToNode(forest: readonly WatchTreeNode[], seq: number): number[] {
  for (const n of forest) {
    if (n.seq === seq) return [seq];
    const below = pathToNode(n.children, seq);
    if (below.length) return [n.seq, ...below];
  }
  return [];
}

// ---- Payloads of the watch calls (api/routes/watch.ts; SPEC §3 Node, Group data, Plant in status data) ----

/** Seq of the pseudo node holding plants linked to the member outside the member's node. */
export const LINKED_NODE_SEQ = 0;

export interface WatchPlant extends WatchPlantItem {
  alias: string | null;
  locality: string | null;
  node_seq: number | null;
  status: PlantStatusCode;
  statusName: PlantStatusName;
}

export interface WatchLocality {
  /** null = 'site unspecified' (listed last). */
  locality: string | null;
  /** URL token: the name, or UNSPECIFIED_LOCALITY. */
  uid: string;
  plants: WatchPlant[];
  plantCount: number;
  warningCount: number;
}

/** GET /api/node/ancestor/list/watch */
export interface WatchTreeResponse {
  type: WatchViewType;
  keyword: string;
  /** The member's own node (null without one). */
  rootSeq: number | null;
  nodeList: WatchTreeNode<WatchPlant>[];
  localityList: WatchLocality[];
  /** Nodes to open so that search matches show. */
  expandeds: number[];
}

/** SPEC §3 Plant in status data. */
export interface WatchStatusPlant extends StatusDataCounters {
  plant_uid: string;
  hex_plant_uid: string;
  name: string;
  alias: string | null;
  /** Node seq of the plant. */
  node: number | null;
  nodeName: string | null;
  locality: string | null;
  capa: number;
  iw: number;
  dailys: number;
  /** True when SPEC §5's alarm rule zeroed today's generation. */
  dailysZeroed: boolean;
  lastTs: number | null;
  status: PlantStatusCode;
  statusName: PlantStatusName;
  alarm_count: number;
}

/** GET /api/pvstatus/group/detail — SPEC §3 Group data. */
export interface GroupDetailResponse {
  type: "node" | "locality";
  uid: string;
  /** Node name or locality ('' for the linked pseudo node and the unspecified bucket). */
  name: string;
  /** The selected node and its descendants (type node), or the nodes holding the locality's plants. */
  nodeList: Array<{ seq: number; parent_seq: number | null; name: string; depth: number }>;
  /** Operation totals keyed by node seq, each over that node and all its descendants (within the selection). */
  nopDataObj: Record<string, OperationTotals>;
  /** Warning totals (levels 1–4 per category) keyed by node seq, likewise. */
  norDataObj: Record<string, WarningTotals>;
  plantList: WatchStatusPlant[];
  /** RTUs under the selected node attached to no plant. */
  rtusNotInPlant: Array<{ uid: string; name: string; alias: string | null; mac: string | null; node_seq: number | null }>;
  /** The path from the member's root to the selection, to open in the tree. */
  expandeds: number[];
  counts: {
    plants: number;
    status: StatusCounts;
    op: OperationTotals;
    warn: WarningTotals;
    /** kW, W, Wh */
    total_capa: number;
    total_iw: number;
    today_gen: number;
  };
  now: number;
}
