/**
 * A short-lived, shared snapshot of every plant's status row, so that many wallboards polling the
 * plant status screen every 6 s (SPEC §9) cost one status computation, not one each. The snapshot is
 * dropped when readings are ingested or alarms change in this process, and is never older than
 * TTL_MS anyway (another process behind the same PostgreSQL may have ingested; freshness windows move
 * with time). Members with few plants skip it when it is stale: their own rows are cheap to compute.
 */
import type { Kysely } from "kysely";
import type { Clock } from "../clock";
import type { PlantStatusRow } from "../../domain/contract/status";
import { plantStatusRows } from "./plant-status";
import type { Database } from "./schema";

export const SNAPSHOT_TTL_MS = 5_000;
/** Below this many visible plants a stale snapshot is not rebuilt for one member. */
const SMALL_SELECTION = 100;

interface Snapshot {
  /** Distinct per build: lets callers cache what they derive from one snapshot. */
  version: number;
  builtAt: number;
  rows: Map<string, PlantStatusRow>;
}

let versions = 0;

export class StatusSnapshot {
  private current: Snapshot | null = null;
  private building: Promise<Snapshot> | null = null;
  private generation = 0;

  constructor(
    private db: Kysely<Database>,
    private clock: Clock,
    private ttlMs = SNAPSHOT_TTL_MS,
  ) {}

  /** Something changed (a reading, an alarm): the next request recomputes. */
  invalidate(): void {
    this.generation++;
    this.current = null;
    // Requests from now on must not join a build that started before the change.
    this.building = null;
  }

  private fresh(): Snapshot | null {
    const s = this.current;
    return s && Date.now() - s.builtAt < this.ttlMs ? s : null;
  }

  private rebuild(): Promise<Snapshot> {
    if (this.building) return this.building;
    const gen = this.generation;
    const started = Date.now();
    const build: Promise<Snapshot> = (async () => {
      const uids = (await this.db.selectFrom("plant").select("uid").execute()).map((r) => r.uid);
      const rows = await plantStatusRows(this.db, uids, this.clock.now());
      const snap = { version: ++versions, builtAt: started, rows: new Map(rows.map((r) => [r.plant_uid, r])) };
      // An invalidation while building means the rows may predate it: hand them out once, keep none.
      if (gen === this.generation) this.current = snap;
      return snap;
    })().finally(() => {
      if (this.building === build) this.building = null;
    });
    this.building = build;
    return build;
  }

  /** The version of the snapshot a request would read now, or null when the next read rebuilds it. */
  freshVersion(): number | null {
    return this.fresh()?.version ?? null;
  }

  /** Status rows of these plants, in the given order (unknown uids are skipped). */
  async rowsFor(plantUids: readonly string[]): Promise<PlantStatusRow[]> {
    return (await this.rowsWithVersion(plantUids)).rows;
  }

  /** The rows and the version of the snapshot they came from (null when computed directly). */
  async rowsWithVersion(plantUids: readonly string[]): Promise<{ rows: PlantStatusRow[]; version: number | null }> {
    let snap = this.fresh();
    if (!snap) {
      if (plantUids.length < SMALL_SELECTION)
        return { rows: await plantStatusRows(this.db, [...plantUids], this.clock.now()), version: null };
      snap = await this.rebuild();
    }
    const rows: PlantStatusRow[] = [];
    for (const uid of plantUids) {
      const row = snap.rows.get(uid);
      if (row) rows.push(row);
    }
    return { rows, version: snap.version };
  }
}
