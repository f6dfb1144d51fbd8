/**
 * The plants' status rows (SPEC §3: output, today's / month's / year's / lifetime generation, alarm counters, status
 * code) as the status screens read them, kept per plant and dropped per plant: a batch of readings or an alarm change
 * drops the rows of the plants it touched, on this server at once and on the others through the cache's notice
 * (api/cache/answer-cache.ts, the one mechanism), and the next read recomputes just those rows. Nothing is rebuilt
 * from the fleet because one plant changed.
 *
 * What drops rows:
 * - `plantsChanged(plants)`: readings ingested here (their plants), alarms raised or released by the engine here;
 * - a committed write to a table of KEPT_ANSWERS.plantStatus (a plant renamed, moved or deleted, devices added or
 *   switched off): every row, heard like the other kept answers (table writes here, PostgreSQL's notices of writes
 *   elsewhere, SQLite's data_version for another connection's commits);
 * - time: a row lives until its own validUntil (api/store/plant-status.ts plantStatusEntries: a new day, an inverter
 *   reading growing too old to count as current output, its past totals' cache) and at most ROW_TTL_MS.
 * While the notice channel is down nothing is served from here (every read recomputes), as for every kept answer.
 * Members who see fewer than SMALL_SELECTION plants get their rows computed directly: always fresh, and cheap.
 */
import type { Kysely } from "kysely";
import type { Clock } from "../clock";
import type { PlantStatusRow } from "../../domain/contract/status";
import { JsonText } from "../http";
import { plantStatusEntries } from "../store/plant-status";
import type { Database } from "../store/schema";
import type { Store } from "../store/db";
import { EVERY_TABLE, onTableWrite } from "../store/table-writes";
import { AnswerCache, type ChangeRules, type ClusterNotices } from "./answer-cache";
import { KEPT_ANSWERS, shared } from "./kept-tables";
import { TABLE_WRITE_CHANNEL } from "./table-answers";

/** Plants whose rows changed; null: every plant. */
export interface PlantsChange {
  plants: ReadonlySet<string> | null;
}

/** Below this many visible plants a member's rows are computed directly, not read from the kept rows. */
export const SMALL_SELECTION = 100;
/** The longest a row is kept (its past totals are cached as long in api/store/plant-status.ts). */
export const ROW_TTL_MS = 10 * 60_000;
/** Characters of plant uids one notice may carry (a notice's payload is at most 8,000 bytes); more: every plant. */
const MAX_NOTICE_CHARS = 6_000;

const EVERY_PLANT: PlantsChange = { plants: null };

const RULES: ChangeRules<PlantsChange, string> = {
  channel: "solar_plant_status",
  everything: EVERY_PLANT,
  overlaps: (plant, c) => c.plants === null || c.plants.has(plant),
  keysOf: (c) => c.plants,
  merge: (a, b) => (a.plants && b.plants ? { plants: new Set([...a.plants, ...b.plants]) } : EVERY_PLANT),
  toNotice: (c) => {
    const plants = c.plants ? [...c.plants] : null;
    return { p: plants && plants.reduce((n, p) => n + p.length + 3, 0) <= MAX_NOTICE_CHARS ? plants : null };
  },
  fromNotice: (m) => (Array.isArray(m.p) ? { plants: new Set(m.p.map(String)) } : EVERY_PLANT),
  tagBytes: (plant) => 64 + 2 * plant.length,
};

export class StatusRows extends AnswerCache<PlantsChange, string> {
  private readonly parsed = new WeakMap<JsonText, PlantStatusRow>();
  private readonly sqlite: Store["sqlite"];
  private dataVersion: unknown;
  /** Rows computed (not read from the kept rows) since start: what a test or benchmark reads to see work per change. */
  computed = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    opts: { notices?: ClusterNotices; store?: Store; maxBytes?: number } = {},
  ) {
    super(RULES, { maxBytes: opts.maxBytes ?? 256 * 1024 * 1024, ttlMs: ROW_TTL_MS });
    const read: ReadonlySet<string> = new Set(KEPT_ANSWERS.plantStatus);
    this.sqlite = opts.store?.sqlite;
    this.dataVersion = this.sqlite?.pragma("data_version", { simple: true });
    onTableWrite((tables) => {
      if (tables.has(EVERY_TABLE) || [...tables].some((t) => read.has(t))) this.dropHere(EVERY_PLANT);
    });
    if (opts.notices) {
      this.share(opts.notices);
      opts.notices.on(TABLE_WRITE_CHANNEL, (table) => {
        if (read.has(table)) this.dropHere(EVERY_PLANT);
      });
    }
  }

  /** These plants' data changed here (readings, alarms): their rows go, here and on the other servers. */
  plantsChanged(plants: Iterable<string>): void {
    const set = new Set(plants);
    if (set.size) this.changed({ plants: set });
  }

  /** Status rows of these plants, in the given order (unknown uids are skipped). */
  async rowsFor(plantUids: readonly string[]): Promise<PlantStatusRow[]> {
    const now = this.clock.now();
    if (plantUids.length < SMALL_SELECTION) {
      this.computed += plantUids.length;
      return (await plantStatusEntries(this.db, [...plantUids], now)).map((e) => e.row);
    }
    if (this.sqlite) {
      const version = this.sqlite.pragma("data_version", { simple: true });
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        this.clear();
      }
    }
    const rows: Array<PlantStatusRow | undefined> = new Array(plantUids.length);
    const missing: string[] = [];
    const at = new Map<string, number>();
    for (let i = 0; i < plantUids.length; i++) {
      const uid = plantUids[i]!;
      const text = this.get(uid);
      const row = text && this.parsed.get(text);
      if (row) rows[i] = row;
      else {
        missing.push(uid);
        at.set(uid, i);
      }
    }
    if (missing.length) {
      const since = this.begin();
      this.computed += missing.length;
      const speed = this.clock.speed || 1;
      for (const { row, validUntil } of await plantStatusEntries(this.db, missing, now)) {
        const kept = shared(row);
        // Kept as its JSON (what the cache measures its memory by) beside the parsed row every read hands out.
        const text = { body: Buffer.from(JSON.stringify(kept)), etag: "" } satisfies JsonText;
        this.parsed.set(text, kept);
        this.keep(row.plant_uid, since, text, row.plant_uid, (validUntil - now) / speed);
        rows[at.get(row.plant_uid)!] = kept;
      }
    }
    return rows.filter((r): r is PlantStatusRow => r !== undefined);
  }
}
