/**
 * Notices (SPEC §3 Notice, §7 Notices). Everybody signed in reads the active ones; only members
 * with the 'setting' admin area (level 10 and above, SPEC §6) see inactive ones and write.
 */
import { Router, type Request } from "express";
import type { Kysely } from "kysely";
import { canAdminister } from "../../domain/admin-levels";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import { toInt } from "../../domain/member-form";
import { NoticeDeleteFields, NoticeFields, type NoticeRow } from "../../domain/notice-form";
import { currentMember, requireAdmin } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, handle, notFound, parse } from "../http";
import type { Database } from "../store/schema";

/** The newest active notices shown to a member after login. */
export const CUSTOM_NOTICE_LIMIT = 10;

function noticeQuery(db: Kysely<Database>) {
  return db.selectFrom("notice").select(["seq", "content", "use_yn", "author_id", "created_at", "updated_at"]);
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

const useFilter = (v: unknown): 0 | 1 | undefined => {
  const n = toInt(typeof v === "string" ? v : undefined);
  return n === 0 || n === 1 ? n : undefined;
};

function seqParam(req: Request): number {
  const n = toInt(String(req.params.seq ?? ""));
  if (typeof n !== "number" || !Number.isInteger(n) || n <= 0) throw notFound("no_such_notice");
  return n;
}

export function noticeRoutes(ctx: ApiContext): Router {
  const r = Router();
  const db = ctx.store.db;
  const isEditor = (req: Request) => {
    const m = currentMember(req);
    return m.readOnly !== 1 && canAdminister("setting", m.auth);
  };

  r.get(
    "/notice",
    handle(async (req) => {
      const editor = isEditor(req);
      const use = editor ? useFilter(req.query.use) : 1;
      if (!editor && useFilter(req.query.use) === 0) return { noticeList: [] };
      let q = noticeQuery(db);
      if (use !== undefined) q = q.where("use_yn", "=", use);
      const rows = await q.orderBy("created_at", "desc").orderBy("seq", "desc").execute();
      return { noticeList: rows.map(toNotice) };
    }),
  );

  r.get(
    "/notice/custom",
    handle(async (req) => {
      currentMember(req);
      const rows = await noticeQuery(db)
        .where("use_yn", "=", 1)
        .orderBy("created_at", "desc")
        .orderBy("seq", "desc")
        .limit(CUSTOM_NOTICE_LIMIT)
        .execute();
      return { noticeList: rows.map(toNotice) };
    }),
  );

  r.get(
    "/notice/:seq",
    handle(async (req) => {
      const seq = seqParam(req);
      let q = noticeQuery(db).where("seq", "=", seq);
      if (!isEditor(req)) q = q.where("use_yn", "=", 1);
      const row = await q.executeTakeFirst();
      if (!row) throw notFound("no_such_notice");
      return { notice: toNotice(row) };
    }),
  );

  r.post(
    "/notice",
    handle(async (req, res) => {
      const me = requireAdmin(req, "setting");
      const body = parse(NoticeFields, req.body ?? {});
      const now = Date.now();
      const row = await db
        .transaction()
        .execute((trx) =>
          trx
            .insertInto("notice")
            .values({ content: body.content, use_yn: body.use, author_id: me.id, created_at: now, updated_at: now })
            .returning(["seq", "content", "use_yn", "author_id", "created_at", "updated_at"])
            .executeTakeFirstOrThrow(),
        );
      res.status(201);
      return { notice: toNotice(row) };
    }),
  );

  r.put(
    "/notice/:seq",
    handle(async (req) => {
      requireAdmin(req, "setting");
      const seq = seqParam(req);
      const body = parse(NoticeFields, req.body ?? {});
      const row = await db
        .transaction()
        .execute((trx) =>
          trx
            .updateTable("notice")
            .set({ content: body.content, use_yn: body.use, updated_at: Date.now() })
            .where("seq", "=", seq)
            .returning(["seq", "content", "use_yn", "author_id", "created_at", "updated_at"])
            .executeTakeFirst(),
        );
      if (!row) throw notFound("no_such_notice");
      return { notice: toNotice(row) };
    }),
  );

  r.delete(
    "/notice",
    handle(async (req) => {
      requireAdmin(req, "setting");
      const source = { ...(req.query as Record<string, unknown>), ...(req.body && typeof req.body === "object" ? req.body : {}) };
      const { noticesSeq, confirm } = parse(NoticeDeleteFields, source);
      if (!isDeleteConfirmed(confirm)) throw badRequest("confirmation_required", { confirm: "confirmation_required" });
      const result = await db
        .transaction()
        .execute((trx) => trx.deleteFrom("notice").where("seq", "in", noticesSeq).executeTakeFirst());
      const deleted = Number(result.numDeletedRows);
      if (deleted === 0) throw notFound("no_such_notice");
      return { deleted, noticesSeq };
    }),
  );

  return r;
}
