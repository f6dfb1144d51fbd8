/** A member's custom pages (custom_page, migration 0008): widgets kept as JSON, keyed by (member, unique). */
import type { Kysely, Transaction } from "kysely";
import type { CustomPage, CustomWidget } from "../../domain/contract/custom";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;

function widgetsOf(json: string): CustomWidget[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as CustomWidget[]) : [];
  } catch {
    return [];
  }
}

export async function memberPages(db: Db, memberId: string): Promise<CustomPage[]> {
  const rows = await db
    .selectFrom("custom_page")
    .selectAll()
    .where("member_id", "=", memberId)
    .orderBy("title")
    .orderBy("unique_key")
    .execute();
  return rows.map((r) => ({
    unique: r.unique_key,
    title: r.title,
    widgets: widgetsOf(r.widgets),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }));
}

export async function memberPage(db: Db, memberId: string, unique: string): Promise<CustomPage | null> {
  const r = await db
    .selectFrom("custom_page")
    .selectAll()
    .where("member_id", "=", memberId)
    .where("unique_key", "=", unique)
    .executeTakeFirst();
  return r
    ? {
        unique: r.unique_key,
        title: r.title,
        widgets: widgetsOf(r.widgets),
        created_at: Number(r.created_at),
        updated_at: Number(r.updated_at),
      }
    : null;
}

async function countPages(db: Db, memberId: string): Promise<number> {
  const r = await db
    .selectFrom("custom_page")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("member_id", "=", memberId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Creates or replaces a page; answers whether it was created. */
async function savePage(
  db: Db,
  memberId: string,
  page: { unique: string; title: string; widgets: CustomWidget[] },
  now: number,
): Promise<boolean> {
  const existing = await memberPage(db, memberId, page.unique);
  if (existing) {
    await db
      .updateTable("custom_page")
      .set({ title: page.title, widgets: JSON.stringify(page.widgets), updated_at: now })
      .where("member_id", "=", memberId)
      .where("unique_key", "=", page.unique)
      .execute();
    return false;
  }
  await db
    .insertInto("custom_page")
    .values({
      member_id: memberId,
      unique_key: page.unique,
      title: page.title,
      widgets: JSON.stringify(page.widgets),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return true;
}

/**
 * Creates or replaces a page in one transaction, unless it is new and the member already has `max` pages;
 * answers whether it was created, or `"full"`.
 */
export function savePageWithin(
  db: Kysely<Database>,
  memberId: string,
  page: { unique: string; title: string; widgets: CustomWidget[] },
  max: number,
  now: number,
): Promise<boolean | "full"> {
  return db.transaction().execute(async (trx) => {
    if (!(await memberPage(trx, memberId, page.unique)) && (await countPages(trx, memberId)) >= max) return "full";
    return savePage(trx, memberId, page, now);
  });
}

/** Deletes the member's page; answers whether there was one. */
export function deletePage(db: Kysely<Database>, memberId: string, unique: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const res = await trx
      .deleteFrom("custom_page")
      .where("member_id", "=", memberId)
      .where("unique_key", "=", unique)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  });
}
