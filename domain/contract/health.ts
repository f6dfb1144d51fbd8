import { z } from "zod";
/** GET /api/health: what a load balancer, the test helper and the portal's replay banner read (api/cluster/health.ts). */

/** Event-loop delay of the answering process over its last measured window (Node's monitorEventLoopDelay). */
export const EventLoopDelay = z.object({
  p99Ms: z.number(),
  maxMs: z.number(),
  /** Length of the window the figures cover, in seconds. */
  windowS: z.number(),
});
export type EventLoopDelay = z.infer<typeof EventLoopDelay>;

export const HealthAnswer = z.object({
  /** SERVER_ID of the server that answered. */
  server: z.string(),
  pid: z.number(),
  /**
   * Whether the server has finished starting and answers the API. The answer is 503 until then, 200 after;
   * work started behind it (the demo's history replay) does not hold it back.
   */
  ready: z.boolean(),
  /** The singleton jobs this server runs now. */
  singletons: z.array(z.string()),
  database: z.union([z.literal("ok"), z.literal("unavailable")]),
  eventLoop: EventLoopDelay,
  /**
   * The alarm engine while this server runs it: passes completed since start, telemetry batches this server stored,
   * and how many of those the last completed pass had before it (it judged them). A client that stored a batch and
   * then sees batchesJudged reach the batchesIn it read afterwards knows the batch has been judged (when this server
   * holds every shard: one server). `shards`: the shards of the fleet (domain/shard.ts) this server judges.
   */
  alarmEngine: z
    .object({
      passes: z.number(),
      batchesIn: z.number(),
      batchesJudged: z.number(),
      shards: z.array(z.number()).nullable(),
    })
    .nullable(),
  /** The demo's history replay while this server plays it in (percent done), null otherwise. */
  replay: z
    .object({
      percent: z.number(),
    })
    .nullable(),
});
export type HealthAnswer = z.infer<typeof HealthAnswer>;
