/**
 * "Stored measurements or rollups changed" for paths other than ingest (whose IngestService.onIngest already
 * says which readings it committed): a bulk rebuild of the rollups (the simulator's history, rollup maintenance),
 * history copied from another instance, raw rows removed by retention. Told after the change committed, so a
 * listener that drops what it derived (the statistics report cache, api/statistics/report-cache.ts) never keeps
 * an answer read before the change. One process; another server of a cluster hears of it through the listener's
 * own notices.
 */
export interface DataChange {
  /** Devices whose data changed; absent: any device. */
  devices?: readonly string[];
  /** The time range [from, to) of the readings or rollups that changed (epoch ms). */
  from: number;
  to: number;
}

const listeners = new Set<(change: DataChange) => void>();

/** Listens for data changes in this process; returns the function that stops listening. */
export function onDataChange(fn: (change: DataChange) => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

/** Data changed (committed): tell the listeners. */
export function dataChanged(change: DataChange): void {
  for (const fn of listeners) fn(change);
}
