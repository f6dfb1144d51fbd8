/**
 * Import sources ("crawling", SPEC §7 /crawling/…): the registered sites with their encrypted logins, and
 * what the import needs to know about the local fleet. Which sources a member may use is decided by the
 * caller with the one visibility rule (a source belongs to the node it was registered under).
 */
import type { Insertable, Kysely, Updateable } from "kysely";
import type { CrawlSourceTable, Database } from "./schema";

export async function crawlSource(db: Kysely<Database>, seq: number) {
  return db.selectFrom("crawl_source").selectAll().where("seq", "=", seq).executeTakeFirst();
}

/** Every source, by name. */
export async function crawlSources(db: Kysely<Database>) {
  return db.selectFrom("crawl_source").selectAll().orderBy("name").execute();
}

/** Registers a source; answers its number. */
export async function createCrawlSource(db: Kysely<Database>, values: Insertable<CrawlSourceTable>): Promise<number> {
  const row = await db.insertInto("crawl_source").values(values).returning("seq").executeTakeFirstOrThrow();
  return row.seq;
}

export async function changeCrawlSource(db: Kysely<Database>, seq: number, changes: Updateable<CrawlSourceTable>) {
  await db.updateTable("crawl_source").set(changes).where("seq", "=", seq).execute();
}

export async function deleteCrawlSource(db: Kysely<Database>, seq: number) {
  await db.deleteFrom("crawl_source").where("seq", "=", seq).execute();
}

/** Notes a poll of the source: when, and the error code it failed with (null: it answered). */
export async function recordPoll(db: Kysely<Database>, seq: number, error: string | null) {
  await db.updateTable("crawl_source").set({ last_polled_at: Date.now(), last_error: error }).where("seq", "=", seq).execute();
}

/** The uids of every plant, RTU and device held here (to mark what a source offers that exists already). */
export async function localUids(db: Kysely<Database>): Promise<[Set<string>, Set<string>, Set<string>]> {
  const local = await Promise.all([
    db.selectFrom("plant").select("uid").execute(),
    db.selectFrom("rtu").select("uid").execute(),
    db.selectFrom("device").select("uid").execute(),
  ]);
  const [plants, rtus, devices] = local.map((rows) => new Set(rows.map((x) => x.uid)));
  return [plants!, rtus!, devices!];
}
