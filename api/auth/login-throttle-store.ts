/** Throttle counters in the store, so several portal processes share them. */
import type { Kysely } from "kysely";
import type { Database } from "../store/schema";
import { afterFailure, throttleWait, type ThrottleState } from "./throttle";

async function load(db: Kysely<Database>, key: string): Promise<ThrottleState | undefined> {
  const row = await db.selectFrom("login_throttle").selectAll().where("key", "=", key).executeTakeFirst();
  return row ? { failures: row.failures, lastFailureAt: row.last_failure_at } : undefined;
}

/** The longest wait among the keys (id and address), in ms. */
export async function pendingWait(db: Kysely<Database>, keys: string[], now = Date.now()): Promise<number> {
  let wait = 0;
  for (const key of keys) wait = Math.max(wait, throttleWait(await load(db, key), now));
  return wait;
}

export async function recordFailure(db: Kysely<Database>, keys: string[], now = Date.now()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const key of keys) {
      const next = afterFailure(await load(trx, key), now);
      await trx
        .insertInto("login_throttle")
        .values({ key, failures: next.failures, first_failure_at: now, last_failure_at: next.lastFailureAt })
        .onConflict((oc) => oc.column("key").doUpdateSet({ failures: next.failures, last_failure_at: next.lastFailureAt }))
        .execute();
    }
  });
}

export async function clearFailures(db: Kysely<Database>, keys: string[]): Promise<void> {
  await db.deleteFrom("login_throttle").where("key", "in", keys).execute();
}
