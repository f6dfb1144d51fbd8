// autocannon ships no types; the part the benches use.
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
    "2xx": number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests (instead of a duration). */
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    /** Requests sent in turn on each connection (each may be changed before it is sent: a cookie of its own). */
    requests?: Array<{
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      setupRequest?: (req: { headers?: Record<string, string> }) => unknown;
    }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
