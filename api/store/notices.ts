/** Notices (SPEC §3 Notice, §7 Notices): the list, one notice, and writing them. Who may see what is the caller's. */
import type { Kysely } from "kysely";
import type { NoticeRow } from "../../domain/notice-form";
import type { Database } from "./schema";

const NOTICE_COLUMNS = ["seq", "content", "use_yn", "author_id", "created_at", "updated_at"] as const;

function noticeQuery(db: Kysely<Database>) {
  return db.selectFrom("notice").select(NOTICE_COLUMNS);
}

function toNotice(r: {
  seq: number;
  content: string;
  use_yn: number;
  author_id: string | null;
  created_at: number;
  updated_at: number;
}): NoticeRow {
  return {
    seq: Number(r.seq),
    content: r.content,
    use: r.use_yn,
    author_id: r.author_id,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

/** Notices newest first, all or only those switched on (1) or off (0); at most `limit` when given. */
export async function notices(db: Kysely<Database>, use?: 0 | 1, limit?: number): Promise<NoticeRow[]> {
  let q = noticeQuery(db);
  if (use !== undefined) q = q.where("use_yn", "=", use);
  q = q.orderBy("created_at", "desc").orderBy("seq", "desc");
  if (limit !== undefined) q = q.limit(limit);
  return (await q.execute()).map(toNotice);
}

/** One notice; with `publishedOnly` only when it is switched on. */
export async function notice(db: Kysely<Database>, seq: number, publishedOnly: boolean): Promise<NoticeRow | undefined> {
  let q = noticeQuery(db).where("seq", "=", seq);
  if (publishedOnly) q = q.where("use_yn", "=", 1);
  const row = await q.executeTakeFirst();
  return row && toNotice(row);
}

export async function createNotice(
  db: Kysely<Database>,
  n: { content: string; use: number; authorId: string },
  now: number,
): Promise<NoticeRow> {
  const row = await db
    .transaction()
    .execute((trx) =>
      trx
        .insertInto("notice")
        .values({ content: n.content, use_yn: n.use, author_id: n.authorId, created_at: now, updated_at: now })
        .returning(NOTICE_COLUMNS)
        .executeTakeFirstOrThrow(),
    );
  return toNotice(row);
}

/** Changes a notice's text and switch; undefined when there is no such notice. */
export async function changeNotice(
  db: Kysely<Database>,
  seq: number,
  n: { content: string; use: number },
): Promise<NoticeRow | undefined> {
  const row = await db
    .transaction()
    .execute((trx) =>
      trx
        .updateTable("notice")
        .set({ content: n.content, use_yn: n.use, updated_at: Date.now() })
        .where("seq", "=", seq)
        .returning(NOTICE_COLUMNS)
        .executeTakeFirst(),
    );
  return row && toNotice(row);
}

/** Deletes the notices; answers how many there were. */
export async function deleteNotices(db: Kysely<Database>, seqs: number[]): Promise<number> {
  const result = await db.transaction().execute((trx) => trx.deleteFrom("notice").where("seq", "in", seqs).executeTakeFirst());
  return Number(result.numDeletedRows);
}
