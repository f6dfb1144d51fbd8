/**
 * Payloads of the watch calls (SPEC §3 Node, Group data, Plant in status data; GET /node/ancestor/list,
 * /node/ancestor/list/watch, /pvstatus/group/detail). domain/watch.ts keeps its types (its tree rules are generic over
 * them); each schema here is checked at compile time to be exactly that type.
 */
import { z } from "zod";
import { DEVICE_CATEGORIES, type StatusDataCounters as DomainStatusDataCounters } from "../operation-totals";
import {
  WATCH_VIEWS,
  type GroupDetailResponse as DomainGroupDetailResponse,
  type WatchPlant as DomainWatchPlant,
  type WatchTreeNode,
  type WatchTreeResponse as DomainWatchTreeResponse,
} from "../watch";
import { OperationTotals, PlantStatusCode, PlantStatusName, StatusCounts, WarningTotals, type Same } from "./shared";

export const WatchPlant = z.object({
  plant_uid: z.string(),
  name: z.string(),
  alias: z.string().nullable(),
  locality: z.string().nullable(),
  node_seq: z.number().nullable(),
  status: PlantStatusCode,
  statusName: PlantStatusName,
});

/** One node of the watch tree without the nodes below it (the tree: WatchTreeNode). */
export const WatchTreeNodeFields = z.object({
  seq: z.number(),
  name: z.string(),
  /** The plants filed directly under this node. */
  plants: z.array(WatchPlant),
  /** Plants in this node and below, and how many of them have a warning (before any search). */
  plantCount: z.number().optional(),
  warningCount: z.number().optional(),
});
/**
 * The tree. zod-to-openapi cannot walk z.lazy: the fields are checked here and api/openapi-zod.ts names the JSON
 * Schema (WatchTreeNodeFields with `children` a $ref to itself).
 */
export const WatchTreeNodeSchema = z.custom<WatchTreeNode<DomainWatchPlant>>(
  (v) => WatchTreeNodeFields.safeParse(v).success && Array.isArray((v as { children?: unknown }).children),
);

export const WatchLocality = z.object({
  /** null = 'site unspecified' (listed last). */
  locality: z.string().nullable(),
  /** URL token: the name, or UNSPECIFIED_LOCALITY. */
  uid: z.string(),
  plants: z.array(WatchPlant),
  plantCount: z.number(),
  warningCount: z.number(),
});

/** GET /node/ancestor/list/watch. */
export const WatchTreeResponse = z.object({
  type: z.enum(WATCH_VIEWS),
  keyword: z.string(),
  /** The member's own node (null without one). */
  rootSeq: z.number().nullable(),
  nodeList: z.array(WatchTreeNodeSchema),
  localityList: z.array(WatchLocality),
  /** Nodes to open so that search matches show. */
  expandeds: z.array(z.number()),
});

/** GET /node/ancestor/list: the tree below one node. */
export const AncestorListResponse = z.object({
  ancestorID: z.number(),
  isGroup: z.boolean(),
  nodeList: z.array(WatchTreeNodeSchema),
});

const counterKeys = DEVICE_CATEGORIES.flatMap((c) => [
  ...[1, 2, 3, 4].map((n) => `${c}_warn_${n}`),
  ...["total", "b", "nb", "g", "ng"].map((k) => `${k}_${c}`),
]);
/** SPEC §3 status-data counters per device category (operation and warning levels). */
const StatusDataCounters = z.object(Object.fromEntries(counterKeys.map((k) => [k, z.number()]))) as unknown as z.ZodObject<
  Record<keyof DomainStatusDataCounters, z.ZodNumber>
>;

/** SPEC §3 Plant in status data. */
export const WatchStatusPlant = StatusDataCounters.extend({
  plant_uid: z.string(),
  hex_plant_uid: z.string(),
  name: z.string(),
  alias: z.string().nullable(),
  /** Node seq of the plant. */
  node: z.number().nullable(),
  nodeName: z.string().nullable(),
  locality: z.string().nullable(),
  capa: z.number(),
  iw: z.number(),
  dailys: z.number(),
  /** True when SPEC §5's alarm rule zeroed today's generation. */
  dailysZeroed: z.boolean(),
  lastTs: z.number().nullable(),
  status: PlantStatusCode,
  statusName: PlantStatusName,
  alarm_count: z.number(),
});

/** GET /pvstatus/group/detail — SPEC §3 Group data. */
export const GroupDetailResponse = z.object({
  type: z.enum(["node", "locality"]),
  uid: z.string(),
  name: z.string(),
  nodeList: z.array(z.object({ seq: z.number(), parent_seq: z.number().nullable(), name: z.string(), depth: z.number() })),
  /** Operation totals keyed by node seq, each over that node and all its descendants (within the selection). */
  nopDataObj: z.record(z.string(), OperationTotals),
  /** Warning totals (levels 1–4 per category) keyed by node seq, likewise. */
  norDataObj: z.record(z.string(), WarningTotals),
  plantList: z.array(WatchStatusPlant),
  /** RTUs under the selected node attached to no plant. */
  rtusNotInPlant: z.array(
    z.object({
      uid: z.string(),
      name: z.string(),
      alias: z.string().nullable(),
      mac: z.string().nullable(),
      node_seq: z.number().nullable(),
    }),
  ),
  expandeds: z.array(z.number()),
  counts: z.object({
    plants: z.number(),
    status: StatusCounts,
    op: OperationTotals,
    warn: WarningTotals,
    total_capa: z.number(),
    total_iw: z.number(),
    today_gen: z.number(),
  }),
  now: z.number(),
});

export const sameAsDomain: Array<true> = [
  true satisfies Same<z.infer<typeof StatusDataCounters>, DomainStatusDataCounters>,
  true satisfies Same<z.infer<typeof WatchPlant>, DomainWatchPlant>,
  true satisfies Same<z.infer<typeof WatchTreeResponse>, DomainWatchTreeResponse>,
  true satisfies Same<z.infer<typeof GroupDetailResponse>, DomainGroupDetailResponse>,
];
