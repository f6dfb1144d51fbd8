/**
 * The one mechanism for kept answers: an answer derived from whole tables is kept until one of those tables is
 * written. Each kept answer names what it reads in api/cache/kept-tables.ts; the key is everything else it depends on
 * (the member, the normalised query, the day a default period means). A committed write to any of its tables drops
 * every answer that read it: on the writing server at the commit (api/store/table-writes.ts reads the tables from
 * Kysely's operation tree), on the other servers of a cluster when the cache's notice arrives (api/cache/answer-cache.ts),
 * and a write by anything else is heard too — on SQLite through data_version (below), on PostgreSQL through the
 * database's own notice of the table written (migration 0019, on every table of the list). While a server's notice
 * channel is down, no kept answer is served or kept there.
 */
import { AnswerCache, type ChangeRules, type ClusterNotices } from "./answer-cache";
import type { Store } from "../store/db";
import { EVERY_TABLE, onTableWrite } from "../store/table-writes";
import { KEPT_ANSWERS, type KeptAnswer } from "./kept-tables";

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
   * Answers reading the tables of `reads`; `channel` is its cluster notice channel (`solar_…`). On SQLite, `store`'s file is
   * also watched for commits by other connections (another process writing the file: a test's or bench's own
   * handle, the sqlite3 shell): SQLite's data_version, read before each answer, then drops everything.
   */
  constructor(opts: {
    channel: string;
    reads: KeptAnswer;
    maxBytes: number;
    ttlMs: number;
    notices?: ClusterNotices;
    store?: Store;
  }) {
    super(rulesFor(opts.channel), opts);
    this.read = new Set(KEPT_ANSWERS[opts.reads]);
    this.sqlite = opts.store?.sqlite;
    this.dataVersion = this.sqlite?.pragma("data_version", { simple: true });
    onTableWrite((tables) => {
      const touched = tables.has(EVERY_TABLE) ? [EVERY_TABLE] : [...tables].filter((t) => this.read.has(t));
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
