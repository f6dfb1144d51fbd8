/**
 * The fleet divided between servers (issue 30, point 2): every plant belongs to one of `count` shards by a hash of
 * its uid, and each shard is judged by the one server that holds its lease (api/cluster/singletons.ts). The hash is
 * FNV-1a over the uid's UTF-16 code units: stable across processes, versions and stores, and spread evenly over
 * uids of any shape (random hex, "P000123").
 */

/** The shard of a plant among `count` (count ≥ 1). */
export function shardOf(plantUid: string, count: number): number {
  if (count <= 1) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < plantUid.length; i++) {
    h ^= plantUid.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % count;
}

/**
 * How many of a group's `jobs` one of `servers` live servers holds at most: an even split, rounded up so that
 * every job has a holder. A server above it gives the surplus back for a newcomer; below it, it takes free ones.
 */
export function fairShare(jobs: number, servers: number): number {
  if (jobs <= 0) return 0;
  return Math.ceil(jobs / Math.max(1, servers));
}
