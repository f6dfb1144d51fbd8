// autocannon ships no types; the part bench/pvstatus.ts and bench/event-loop.ts use.
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests (instead of a duration). */
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
    /** Requests sent in turn on each connection. */
    requests?: Array<{ method?: string; path?: string; headers?: Record<string, string> }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
