/**
 * Answers derived from whole tables, kept until one of those tables is written (issue 14: the alarm screen's list,
 * asked again by every member watching it). The key is everything else the answer depends on (the member's
 * resolved scope, the normalised query, the day a default period means); the tables are the one input not in it.
 * A committed write to any of them (api/store/table-writes.ts: the alarm engine raising, clearing, reactivating;
 * an acknowledgement or release; a plant or device renamed or removed) drops every answer that read it, here and,
 * through the cache's notices, on the other servers of a cluster (api/cache/answer-cache.ts). A write by anything
 * else is heard too: on SQLite through data_version (below), on PostgreSQL through the database's own notice of the
 * tables written (migration 0018; not for the alarm and rtu tables, written all the time, whose answers a write
 * outside the servers reaches when their time runs out).
 */
import { AnswerCache, type ChangeRules, type ClusterNotices } from "./answer-cache";
import type { Store } from "../store/db";
import { onTableWrite } from "../store/table-writes";

/** PostgreSQL's notice of a committed write: the table's name (migration 0018_table_write_notices). */
export const TABLE_WRITE_CHANNEL = "solar_table_write";

/** Tables written ("*": any, after notices may have been missed). */
export interface TableChange {
  tables: readonly string[];
}

const rulesFor = (channel: string): ChangeRules<TableChange, ReadonlySet<string>> => ({
  channel,
  everything: { tables: ["*"] },
  overlaps: (read, c) => c.tables.some((t) => t === "*" || read.has(t)),
  merge: (a, b) => ({ tables: [...new Set([...a.tables, ...b.tables])] }),
  toNotice: (c) => ({ t: c.tables }),
  fromNotice: (m) => ({ tables: Array.isArray(m.t) ? m.t.map(String) : ["*"] }),
  tagBytes: (read) => 32 * read.size,
});

export class TableAnswers extends AnswerCache<TableChange, ReadonlySet<string>> {
  private readonly read: ReadonlySet<string>;
  private readonly sqlite: Store["sqlite"];
  private dataVersion: unknown;

  /**
   * Answers reading `tables`; `channel` is its cluster notice channel (`solar_…`). On SQLite, `store`'s file is
   * also watched for commits by other connections (another process writing the file: a test's or bench's own
   * handle, the sqlite3 shell): SQLite's data_version, read before each answer, then drops everything.
   */
  constructor(opts: {
    channel: string;
    tables: readonly string[];
    maxBytes: number;
    ttlMs: number;
    notices?: ClusterNotices;
    store?: Store;
  }) {
    super(rulesFor(opts.channel), opts);
    this.read = new Set(opts.tables);
    this.sqlite = opts.store?.sqlite;
    this.dataVersion = this.sqlite?.pragma("data_version", { simple: true });
    onTableWrite((tables) => {
      const touched = [...tables].filter((t) => this.read.has(t));
      if (touched.length) this.changed({ tables: touched });
    });
    if (opts.notices) {
      this.share(opts.notices);
      opts.notices.on(TABLE_WRITE_CHANNEL, (table) => {
        if (this.read.has(table)) this.dropHere({ tables: [table] });
      });
    }
  }

  /** The kept answer for `keyParts`, else `compute`'s. */
  of(keyParts: unknown, compute: () => Promise<unknown>) {
    if (this.sqlite) {
      const version = this.sqlite.pragma("data_version", { simple: true });
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        this.clear();
      }
    }
    return this.answer(AnswerCache.keyOf(keyParts), this.read, compute);
  }
}
