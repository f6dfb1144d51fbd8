/** GET /api/health: what a load balancer, the test helper and the portal's replay banner read (api/cluster/health.ts). */

/** Event-loop delay of the answering process over its last measured window (Node's monitorEventLoopDelay). */
export interface EventLoopDelay {
  p99Ms: number;
  maxMs: number;
  /** Length of the window the figures cover, in seconds. */
  windowS: number;
}

export interface HealthAnswer {
  /** SERVER_ID of the server that answered. */
  server: string;
  pid: number;
  /**
   * Whether the server has finished starting and answers the API. The answer is 503 until then, 200 after;
   * work started behind it (the demo's history replay) does not hold it back.
   */
  ready: boolean;
  /** The singleton jobs this server runs now. */
  singletons: string[];
  database: "ok" | "unavailable";
  eventLoop: EventLoopDelay;
  /**
   * The alarm engine while this server runs it: passes completed since start, telemetry batches this server stored,
   * and how many of those the last completed pass had before it (it judged them). A client that stored a batch and
   * then sees batchesJudged reach the batchesIn it read afterwards knows the batch has been judged (when this server
   * holds every shard: one server). `shards`: the shards of the fleet (domain/shard.ts) this server judges.
   */
  alarmEngine: { passes: number; batchesIn: number; batchesJudged: number; shards: number[] | null } | null;
  /** The demo's history replay while this server plays it in (percent done), null otherwise. */
  replay: { percent: number } | null;
}
